package ibis.impl.ucx;

import ibis.io.ByteSink;
import ibis.io.ByteViews;
import ibis.ipl.impl.RecentBuffers;
import ibis.ipl.impl.SpinWait;

import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.AsynchronousCloseException;
import java.util.ArrayDeque;
import java.util.Arrays;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The output of a UCX connection. A write copies the gathered bytes (and an array part, once) into
 * direct staging buffers of this sink and sends them as tagged DATA messages of at most one chunk
 * each ({@code min(ibis.ucx.message.max, window / 4)}). It returns without waiting for the sends to
 * complete: a send that UCX finished at once (small, eager messages) leaves its buffer free for the
 * next write; one that returns a request keeps its buffer in a ring of in-flight sends until UCX
 * reports it done (a rendezvous message is only taken when the receiver reads it).
 *
 * <p>A large direct buffer that ends a write ({@link #partsAsMessages}) is not staged: it is sent
 * from where it is, as messages of kind {@link UcxConnection#KIND_HELD}, and the write returns once
 * UCX is done with it, so the caller may reuse it ({@link #sendInPlace}). That does not wait for
 * the receiving application: any thread of the receiving process that drives its worker takes held
 * messages for the reader ({@link UcxByteSource#adoptHeld}: a writer waiting here for its own held
 * sends, a reader of another connection asked to look, the send keeper now and then), so two
 * processes that send each other large buffers before either reads, or a receiver that computes,
 * hold a writer up for at most a look of its send keeper. Over a connection to its own worker
 * (loopback) the part is staged: a thread that sends to itself before it reads is its own receiver.
 *
 * <p>Flow control: at most {@code window} bytes may have been sent that the peer's source has not
 * consumed; the source reports what it consumed in CREDIT messages. A write short of credit (or of
 * staging memory, which the window bounds too) waits on the worker ({@link UcxWorker#await}),
 * looking at the side channel: a peer that is gone, or whose source closed, fails the write.
 *
 * <p>Sends in flight are also reaped by the worker's {@link UcxSendKeeper} (which progresses the
 * worker when the writer does not): the ring, the free buffers and their counts are guarded by
 * this sink's monitor, held only for a few instructions, never during a wait.
 *
 * <p>Interrupts never break the connection: every wait of a write goes on through an interrupt
 * (the native waits do not see it) and the interrupt status stays set for the caller. Once warm,
 * a write allocates nothing: staging buffers, ring and credit buffers are reused.
 */
final class UcxByteSink implements ByteSink, UcxSendKeeper.Sender {

    private static final Logger LOG = LoggerFactory.getLogger(UcxByteSink.class);

    /** Most sends in flight at once. */
    private static final int RING = 64;
    /** The smallest staging buffer. */
    private static final int MIN_STAGING = 16 * 1024;
    /** How long a write short of staging waits before it progresses the worker again (doubling). */
    private static final long RECHECK_NANOS = 100_000;

    private final UcxConnection connection;
    private final UcxWorker worker;
    private final long w;
    private final long dataTag;
    private final long heldTag;
    private final long closeTag;
    private final long creditTag;
    private final int window;
    private final int chunk;
    private final int closeTimeoutMillis;
    private final EndGuard guard = new EndGuard();
    private final SpinWait spin;

    // Guarded by this (the writer and the send keeper reap).
    /** Staging buffers not in flight, most recently used first. */
    private final ArrayDeque<UcxStaging> free = new ArrayDeque<>();
    private final long[] requests = new long[RING];
    private final UcxStaging[] inFlight = new UcxStaging[RING];
    private int head;
    private int count;
    /** Capacity of all staging buffers of this sink (free and in flight). */
    private long stagingBytes;
    /** Sends are in flight: count > 0 (read by the send keeper without the lock). */
    private volatile boolean sendsInFlight;
    /** A send the keeper found failed, for the next write to report. */
    private volatile IOException sendFailure;
    /** The staging buffer size the writer waits for ({@link #stagingFree}). */
    private int wanted;

    /** DATA bytes sent, and the peer's last credit: DATA bytes its source consumed. */
    private long sent;
    private long acked;
    /** Bytes the current credit wait needs. */
    private long needed;
    private final ByteBuffer creditInfo;
    private final long creditInfoAddress;
    private final ByteBuffer creditValue;
    private final long creditValueAddress;
    private final UcxStaging closeMessage;
    private IOException failure;

    /** The peer is alive and reads, and this sink is open. */
    private final UcxWorker.Condition writable = new UcxWorker.Condition() {
        @Override
        public boolean ready() {
            return false;
        }

        @Override
        public void check() throws IOException {
            if (guard.isClosed()) {
                throw new AsynchronousCloseException();
            }
            connection.checkWritable();
        }
    };

    private final UcxWorker.Condition creditArrived = new UcxWorker.Condition() {
        @Override
        public boolean ready() throws IOException {
            pollCredits();
            return sent + needed - acked <= window;
        }

        @Override
        boolean mayBeReady() {
            return guard.isClosed() || UcxNative.peek(w, creditTag, UcxConnection.EXACT_MASK) != 0;
        }

        @Override
        public void check() throws IOException {
            writable.check();
        }
    };

    private final UcxWorker.Condition stagingFree = new UcxWorker.Condition() {
        @Override
        public boolean ready() throws IOException {
            synchronized (UcxByteSink.this) {
                reap();
                return canTake(wanted);
            }
        }

        @Override
        boolean mayBeReady() {
            return oldestSendDone();
        }

        @Override
        public void check() throws IOException {
            writable.check();
        }
    };

    /** The ring has a slot for CLOSE. */
    private final UcxWorker.Condition roomForClose = new UcxWorker.Condition() {
        @Override
        public boolean ready() throws IOException {
            synchronized (UcxByteSink.this) {
                reap();
                return count < RING;
            }
        }

        @Override
        boolean mayBeReady() {
            return oldestSendDone();
        }

        @Override
        public void check() throws IOException {
            connection.checkWritable();
        }
    };

    /** Every send has completed (close); a peer that is gone or no longer reads ends the wait. */
    private final UcxWorker.Condition allSent = new UcxWorker.Condition() {
        @Override
        public boolean ready() throws IOException {
            synchronized (UcxByteSink.this) {
                reap();
                return count == 0;
            }
        }

        @Override
        boolean mayBeReady() {
            return oldestSendDone();
        }

        @Override
        public void check() throws IOException {
            connection.checkWritable();
        }
    };

    /**
     * The sends of the current write from an application's buffer ({@link #sendInPlace}): written by
     * the writer only, under their own monitor, which {@code heldSent.mayBeReady()} takes too: the
     * leader of the worker calls that from its thread, also while the writer is running (a lead
     * holder's condition is looked at while it takes in events), and must never see a request that
     * was freed, or a count ahead of its request.
     */
    private final long[] heldRequests = new long[RING];
    private int heldCount;
    /** The last application buffers sent in place, with their addresses; writer only. */
    private final RecentBuffers<Long> recentParts = new RecentBuffers<>();

    /** Every send from the application's buffer has completed (and was freed). */
    private final UcxWorker.Condition heldSent = new UcxWorker.Condition() {
        @Override
        public boolean ready() throws IOException {
            if (heldCount > 0 && UcxNative.requestStatus(heldRequests[heldCount - 1]) == UcxNative.IN_PROGRESS) {
                // The peer may send to this process too, and wait as this writer does.
                worker.adoptHeld();
            }
            return reapHeld();
        }

        @Override
        boolean mayBeReady() {
            if (guard.isClosed()) {
                return true;
            }
            synchronized (heldRequests) {
                int n = heldCount;
                if (n == 0 || UcxNative.requestStatus(heldRequests[n - 1]) != UcxNative.IN_PROGRESS) {
                    return true;
                }
            }
            return worker.heldMessageArrived();
        }

        @Override
        public void check() throws IOException {
            writable.check();
        }
    };

    private final RequestCompletion creditReceive;
    /** What a credit receive is, for its error message (made once). */
    private final String receivingCredit;

    /** The connection this sink writes to (for tests). */
    UcxConnection connection() {
        return connection;
    }

    UcxByteSink(UcxConnection connection, int window, int messageMax, int closeTimeoutMillis) {
        this.connection = connection;
        this.worker = connection.worker;
        this.w = worker.handle;
        this.dataTag = UcxConnection.tag(connection.peerId, UcxConnection.KIND_DATA);
        this.heldTag = UcxConnection.tag(connection.peerId, UcxConnection.KIND_HELD);
        this.closeTag = UcxConnection.tag(connection.peerId, UcxConnection.KIND_CLOSE);
        this.creditTag = UcxConnection.tag(connection.localId, UcxConnection.KIND_CREDIT);
        this.window = window;
        this.chunk = Math.min(messageMax, window / 4);
        this.closeTimeoutMillis = closeTimeoutMillis;
        this.spin = worker.newSpinWait();
        this.creditInfo = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
        this.creditInfoAddress = UcxWorker.address(creditInfo);
        this.creditValue = ByteBuffer.allocateDirect(8).order(ByteOrder.BIG_ENDIAN);
        this.creditValueAddress = UcxWorker.address(creditValue);
        this.closeMessage = new UcxStaging(8);
        this.creditReceive = new RequestCompletion(worker, writable);
        this.receivingCredit = "receiving credit from " + connection.peer;
        worker.keeper.add(this);
    }

    @Override
    public void write(ByteBuffer[] buffers, int offset, int count) throws IOException {
        write(buffers, offset, count, null);
    }

    /**
     * A large last buffer of a gathering write starts a DATA message of its own (staged as any): the
     * receiving source puts a message straight into a direct buffer its reader reads into when it
     * fits there.
     */
    @Override
    public boolean partsAsMessages() {
        return true;
    }

    /** The smallest last buffer of a gathering write that gets a DATA message of its own. */
    static final int PART_MESSAGE = 4096;

    /** Array parts are copied once, straight into the direct staging buffers. */
    @Override
    public boolean takesArrays() {
        return true;
    }

    @Override
    public void write(ByteBuffer[] buffers, int offset, int count, Buffer array) throws IOException {
        if (array == null && count >= 3 && !connection.loopback) {
            ByteBuffer part = buffers[offset + count - 1];
            if (part.isDirect() && part.remaining() >= PART_MESSAGE) {
                write(buffers, offset, count - 1, null, part);
                return;
            }
        }
        write(buffers, offset, count, array, null);
    }

    /** Writes the buffers and {@code array} (staged), then {@code part} (in place) unless null. */
    private void write(ByteBuffer[] buffers, int offset, int count, Buffer array, ByteBuffer part)
            throws IOException {
        if (!guard.enter()) {
            throw new IOException("the connection to " + connection.peer + " is closed");
        }
        try {
            if (failure == null) {
                failure = sendFailure;
            }
            if (failure != null) {
                throw new IOException(failure.getMessage(), failure);
            }
            connection.checkWritable();
            writeAll(buffers, offset, offset + count, array);
            if (part != null) {
                sendInPlace(part);
            }
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            }
            throw e;
        } finally {
            if (guard.exit()) {
                finishClose(false);
            }
        }
    }

    private void writeAll(ByteBuffer[] buffers, int first, int end, Buffer array) throws IOException {
        long pending = 0;
        for (int i = first; i < end; i++) {
            pending += buffers[i].remaining();
        }
        int width = 1;
        if (array != null && array.hasRemaining()) {
            int bytes = ByteViews.byteLength(array);
            width = bytes / array.remaining();
            pending += bytes;
        }
        int next = first; // the first buffer that may have bytes left
        while (pending > 0) {
            int want = (int) Math.min(pending, chunk);
            UcxStaging s = takeStaging(want);
            ByteBuffer b = s.buffer;
            int n = 0;
            while (n < want) {
                if (next < end) {
                    ByteBuffer src = buffers[next];
                    if (n > 0 && end - first >= 3 && next == end - 1 && src.remaining() >= PART_MESSAGE) {
                        break; // the part goes in a message of its own (partsAsMessages)
                    }
                    int k = Math.min(src.remaining(), want - n);
                    if (k == 0) {
                        next++;
                        continue;
                    }
                    b.put(n, src, src.position(), k);
                    src.position(src.position() + k);
                    n += k;
                } else if (array != null && array.hasRemaining()) {
                    // Whole elements only: a chunk may end a few bytes short.
                    int elements = Math.min(array.remaining(), (want - n) / width);
                    if (elements == 0) {
                        break;
                    }
                    int limit = array.limit();
                    array.limit(array.position() + elements);
                    s.views.put(n, array);
                    array.limit(limit);
                    n += elements * width;
                } else {
                    break;
                }
            }
            if (n == 0) {
                throw new IllegalStateException("nothing to send of " + pending + " bytes");
            }
            awaitCredit(n);
            post(s, n);
            pending -= n;
        }
    }

    /**
     * Sends a large direct buffer from where it is, as held DATA messages of at most a chunk each
     * within the credit, and returns once UCX is done with its memory (the receiving process took
     * them: its reader, or another of its threads for the reader, see the class comment). Nothing
     * of it is copied on this side. On a failure the sends still running are cancelled, or the
     * buffer is kept for good ({@link UcxWorker#pinForever}) where UCX may still read it.
     */
    private void sendInPlace(ByteBuffer part) throws IOException {
        Long known = recentParts.get(part);
        long address = known != null ? known : recentParts.put(part, UcxWorker.address(part));
        int p = part.position();
        int end = part.limit();
        try {
            while (p < end) {
                int n = Math.min(end - p, chunk);
                awaitCredit(n);
                if (heldCount == heldRequests.length) {
                    worker.await(heldSent, spin, 0, false);
                }
                long r = UcxNative.send(w, connection.endpoint, heldTag, address + p, n);
                if (r < 0) {
                    throw new IOException("connection to " + connection.peer + " lost: sending failed: "
                            + UcxNative.statusString((int) r));
                }
                if (r > 0) {
                    synchronized (heldRequests) {
                        heldRequests[heldCount] = r;
                        heldCount++;
                    }
                }
                sent += n;
                p += n;
            }
            if (heldCount > 0) {
                worker.await(heldSent, spin, 0, false);
            }
            part.position(end);
        } catch (IOException | RuntimeException e) {
            long[] abandoned;
            synchronized (heldRequests) {
                abandoned = Arrays.copyOf(heldRequests, heldCount);
                Arrays.fill(heldRequests, 0, heldCount, 0L);
                heldCount = 0;
            }
            for (long r : abandoned) {
                RequestCompletion.abandon(worker, r, part);
            }
            throw e;
        }
    }

    /**
     * Whether every send from the application's buffer has completed; then frees them.
     *
     * @throws IOException when one of them failed
     */
    private boolean reapHeld() throws IOException {
        for (int i = 0; i < heldCount; i++) {
            if (UcxNative.requestStatus(heldRequests[i]) == UcxNative.IN_PROGRESS) {
                return false;
            }
        }
        int failed = UcxNative.OK;
        synchronized (heldRequests) {
            for (int i = 0; i < heldCount; i++) {
                int status = UcxNative.requestStatus(heldRequests[i]);
                if (status != UcxNative.OK) {
                    failed = status;
                }
                UcxNative.requestFree(heldRequests[i]);
                heldRequests[i] = 0;
            }
            heldCount = 0;
        }
        if (failed != UcxNative.OK) {
            throw new IOException("connection to " + connection.peer + " lost: sending failed: "
                    + UcxNative.statusString(failed));
        }
        return true;
    }

    /**
     * A free staging buffer of at least {@code want} bytes; waits for one when too much is in flight.
     * Buffers too small for a write stay for smaller writes: dropping them and making a bigger one
     * allocated per message whenever sends stayed in flight long enough for a small write to need a
     * new (small) buffer that the next large write then replaced.
     */
    private UcxStaging takeStaging(int want) throws IOException {
        boolean progressed = false;
        long recheck = RECHECK_NANOS;
        while (true) {
            boolean progressFirst = false;
            synchronized (this) {
                reap();
                UcxStaging fit = count == RING ? null : fitFirst(want);
                if (fit != null) {
                    return free.pollFirst();
                }
                if (!progressed && count > 0) {
                    // A completion may be waiting in the worker (the peer took a rendezvous
                    // message): one progress call is cheaper than a new buffer. Made without
                    // the lock (it may wake followers, whose look at a sink takes its lock).
                    progressed = true;
                    progressFirst = true;
                } else if (canTake(want)) {
                    int capacity = capacityFor(want);
                    stagingBytes += capacity;
                    return new UcxStaging(capacity);
                } else {
                    wanted = want;
                }
            }
            if (progressFirst) {
                worker.progress();
                continue;
            }
            // With a deadline: a send UCX queued because the peer's shared-memory FIFO was full
            // moves on only when this worker is progressed, and no event tells when the peer made
            // room. So the wait ends now and then and the next one progresses first, less often the
            // longer the peer takes (a flood of small messages to a slower reader waited for the
            // end of a slice, 100 ms, each time the ring filled).
            long deadline = System.nanoTime() + recheck;
            worker.await(stagingFree, spin, deadline == 0 ? 1 : deadline, false);
            recheck = Math.min(recheck * 2, UcxWorker.QUEUED_SEND_RECHECK_MAX_NANOS);
        }
    }

    /** The capacity of a new staging buffer for a write of {@code want} bytes. */
    private int capacityFor(int want) {
        int power = Integer.highestOneBit(Math.max(1, want - 1)) << 1; // >= want
        return Math.max(want, Math.min(chunk, Math.max(MIN_STAGING, power)));
    }

    /**
     * Turns the free buffers until one of at least {@code want} bytes is first and returns it, or
     * null when none is that big (the order is then as before). Allocates nothing; the caller holds
     * the lock.
     */
    private UcxStaging fitFirst(int want) {
        for (int i = free.size(); i > 0; i--) {
            UcxStaging first = free.peekFirst();
            if (first.capacity() >= want) {
                return first;
            }
            free.addLast(free.pollFirst());
        }
        return null;
    }

    /**
     * Whether a staging buffer of {@code want} bytes can be had now: a free one, or room for a new
     * one (in flight and free staging stay within the window and one chunk, or nothing is in flight;
     * the ring has a slot). The caller holds the lock.
     */
    private boolean canTake(int want) {
        if (count == RING) {
            return false;
        }
        if (fitFirst(want) != null) {
            return true;
        }
        return count == 0 || stagingBytes + capacityFor(want) <= (long) window + chunk;
    }

    private void awaitCredit(int n) throws IOException {
        if (sent + n - acked <= window) {
            return;
        }
        pollCredits();
        if (sent + n - acked <= window) {
            return;
        }
        needed = n;
        worker.await(creditArrived, spin, 0, false);
    }

    private void post(UcxStaging s, int n) throws IOException {
        long r;
        boolean started;
        synchronized (this) {
            r = UcxNative.send(w, connection.endpoint, dataTag, s.address, n);
            started = r > 0 && track(r, s);
            if (r <= 0) {
                free.addFirst(s);
            }
        }
        if (r < 0) {
            throw new IOException("connection to " + connection.peer + " lost: sending failed: "
                    + UcxNative.statusString((int) r));
        }
        sent += n;
        if (started) {
            worker.keeper.wake();
        }
        if (connection.loopback) {
            worker.changedWithoutEvent(); // UCX's self transport raised no event
        }
    }

    /**
     * Puts a send in flight into the ring (which has a free slot); the caller holds the lock.
     *
     * @return true when it is the only one (the send keeper must look)
     */
    private boolean track(long request, UcxStaging s) {
        int i = (head + count) % RING;
        requests[i] = request;
        inFlight[i] = s;
        count++;
        sendsInFlight = true;
        return count == 1;
    }

    /**
     * For the leader while the writer is parked: whether the oldest send in flight has completed
     * (or none is), or the sink was closed. Takes this sink's monitor briefly.
     */
    private boolean oldestSendDone() {
        if (guard.isClosed()) {
            return true;
        }
        synchronized (this) {
            return count == 0 || UcxNative.requestStatus(requests[head]) != UcxNative.IN_PROGRESS;
        }
    }

    @Override
    public boolean hasSendsInFlight() {
        return sendsInFlight;
    }

    @Override
    public synchronized void reapSends() {
        try {
            reap();
        } catch (IOException e) {
            sendFailure = e;
        }
    }

    /**
     * Frees the sends at the head of the ring that have completed; the caller holds the lock.
     *
     * @return how many
     * @throws IOException when one of them failed
     */
    private int reap() throws IOException {
        int reaped = 0;
        while (count > 0) {
            long r = requests[head];
            int status = UcxNative.requestStatus(r);
            if (status == UcxNative.IN_PROGRESS) {
                break;
            }
            UcxNative.requestFree(r);
            UcxStaging s = inFlight[head];
            requests[head] = 0;
            inFlight[head] = null;
            head = (head + 1) % RING;
            count--;
            reaped++;
            if (s != closeMessage) {
                free.addFirst(s);
            }
            if (count == 0) {
                sendsInFlight = false;
            }
            if (status != UcxNative.OK) {
                throw new IOException("connection to " + connection.peer + " lost: sending failed: "
                        + UcxNative.statusString(status));
            }
        }
        return reaped;
    }

    /** Takes the credits that arrived. */
    private void pollCredits() throws IOException {
        while (true) {
            long m = UcxNative.probe(w, creditTag, UcxConnection.EXACT_MASK, creditInfoAddress);
            if (m == 0) {
                return;
            }
            long length = creditInfo.getLong(0);
            if (length != 8) {
                // Not received: the connection is broken anyway.
                throw new IOException("malformed credit of " + length + " bytes from " + connection.peer);
            }
            creditReceive.await(UcxNative.receiveMessage(w, m, creditValueAddress, 8), creditValue,
                    receivingCredit);
            long value = creditValue.getLong(0);
            if (value < acked || value > sent) {
                throw new IOException("credit " + value + " from " + connection.peer + " outside " + acked + ".."
                        + sent);
            }
            acked = value;
        }
    }

    @Override
    public void close() {
        int state = guard.close();
        if (state == EndGuard.IDLE) {
            finishClose(true);
        } else if (state == EndGuard.BUSY) {
            worker.wakeAll(); // the writer sees the close in its wait, fails, and finishes the close
        }
    }

    /**
     * Ends the sink once no write runs: a regular close sends CLOSE (when the peer still reads) and
     * waits (bounded) for the sends in flight; then the sink lets go of the connection.
     */
    private void finishClose(boolean regular) {
        try {
            if (regular && failure == null && sendFailure == null && connection.peerReads()) {
                long deadline = System.nanoTime() + closeTimeoutMillis * 1_000_000L;
                if (!worker.await(roomForClose, null, deadline, false)) {
                    throw new IOException("no room for CLOSE in " + closeTimeoutMillis + " ms");
                }
                closeMessage.buffer.putLong(0, sent);
                long r;
                boolean started = false;
                synchronized (this) {
                    r = UcxNative.send(w, connection.endpoint, closeTag, closeMessage.address, 8);
                    if (r > 0) {
                        started = track(r, closeMessage);
                    }
                }
                if (started) {
                    worker.keeper.wake();
                }
                if (r < 0) {
                    LOG.debug("sending CLOSE to {} failed: {}", connection.peer, UcxNative.statusString((int) r));
                }
                if (connection.loopback) {
                    worker.changedWithoutEvent(); // UCX's self transport raised no event
                }
                if (!worker.await(allSent, null, deadline, false)) {
                    LOG.info("closing the connection to {}: {} sends not taken by the peer in {} ms are dropped",
                            connection.peer, count, closeTimeoutMillis);
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("closing the connection to {}: {}", connection.peer, e.toString());
        } finally {
            connection.release();
        }
    }

    /** Whether sends are still in flight (after the close). */
    synchronized boolean hasUnfinishedRequests() {
        for (int i = 0; i < count; i++) {
            if (UcxNative.requestStatus(requests[(head + i) % RING]) == UcxNative.IN_PROGRESS) {
                return true;
            }
        }
        return false;
    }

    /** At tear-down, after the endpoint closed: frees the requests left, keeping memory UCX may still read. */
    synchronized void releaseRequests() {
        worker.keeper.remove(this);
        while (count > 0) {
            long r = requests[head];
            if (UcxNative.requestStatus(r) == UcxNative.IN_PROGRESS) {
                UcxWorker.pinForever(inFlight[head]);
            }
            UcxNative.requestFree(r);
            requests[head] = 0;
            inFlight[head] = null;
            head = (head + 1) % RING;
            count--;
        }
        sendsInFlight = false;
    }

    @Override
    public String toString() {
        return "sink of " + connection;
    }
}
