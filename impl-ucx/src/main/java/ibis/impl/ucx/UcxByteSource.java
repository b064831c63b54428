package ibis.impl.ucx;

import ibis.io.ByteSource;
import ibis.io.ByteViews;
import ibis.ipl.impl.RecentBuffers;
import ibis.ipl.impl.SpinWait;

import java.io.EOFException;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.AsynchronousCloseException;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The input of a UCX connection: takes the peer sink's DATA messages in send order (one probe of
 * this connection's id matches DATA and CLOSE, see {@link UcxConnection}). A message is received
 * straight into the caller's buffer when that is direct and has room for all of it; otherwise into
 * this source's direct staging buffer, whose rest is served to the following reads. CLOSE ends the
 * stream with an {@link EOFException} once every byte before it was read (it carries the number of
 * bytes sent; fewer arrived means a broken connection).
 *
 * <p>Flow control: the source counts the bytes it handed to its callers and sends the peer's sink
 * a CREDIT message (the total consumed) whenever a quarter of the sink's window was consumed since
 * the last one.
 *
 * <p>Waiting ({@link UcxWorker#await}): {@link #awaitData(long)} with a time-out (or none) waits
 * for the next message and ends with an {@link java.io.InterruptedIOException} when its thread is
 * interrupted, having consumed nothing; {@link #read} waits on through interrupts (it may be inside
 * a message). {@code awaitData(-1)} never blocks: it progresses the worker once and probes.
 *
 * <p>Held messages ({@link UcxConnection#KIND_HELD}): the peer sink sent them from its application's
 * memory and waits until they are received, which must not depend on this source's reader (the IPL
 * rule: a sender's {@code finish()} does not wait for the receiving application). So any other
 * thread of this process that drives the worker and finds one ({@link #adoptHeld}: a writer waiting
 * for its own held sends, the send keeper's look now and then) takes it, and every message of the
 * connection before it, into buffers of this source that the reader drains before it probes again.
 * The reader's calls and such a take exclude each other ({@code takeLock}: the reader holds it
 * through its call; another thread only tries it, so it never waits for a reader). When the reader
 * is there, it receives held messages itself, straight into a direct destination.
 *
 * <p>Lengths from the peer are untrusted: a message longer than
 * {@link UcxPropertyTable#PROTOCOL_MESSAGE_MAX} or of an unknown kind breaks the connection with an
 * IOException, before anything is allocated for it. Once warm nothing is allocated per message.
 */
final class UcxByteSource implements ByteSource, UcxSendKeeper.Sender {

    private static final Logger LOG = LoggerFactory.getLogger(UcxByteSource.class);

    /** Credits in flight at once. */
    private static final int CREDIT_SLOTS = 4;
    /** A destination without room: a message received "into" it goes to the staging buffer. */
    private static final ByteBuffer DISCARD = ByteBuffer.allocate(0);
    /** How long a close at most takes messages that arrived for the connection. */
    private static final long DRAIN_MILLIS = 1000;
    /** The first staging buffer. */
    private static final int MIN_STAGING = 64 * 1024;

    private final UcxConnection connection;
    private final UcxWorker worker;
    private final long w;
    private final long probeTag;
    /** The exact tags of this connection's DATA and CLOSE messages (for {@link #mayHaveMessage}). */
    private final long dataTag;
    private final long closeTag;
    private final long heldTag;
    private final long creditTag;
    private final long creditStep;
    private final int closeTimeoutMillis;
    private final EndGuard guard = new EndGuard();
    private final SpinWait spin;

    /** Probe results: length and sender tag, native order. */
    private final ByteBuffer info;
    private final long infoAddress;
    /**
     * The reader's calls and other threads' takes of held messages ({@link #adoptHeld}) exclude
     * each other: it guards {@code held}, the staging buffers, {@code adopted}, {@code received},
     * {@code endOfStream} and {@code failure}.
     */
    private final ReentrantLock takeLock = new ReentrantLock();
    /** A probed DATA message not yet received (0: none), and its length. */
    private long held;
    private int heldLength;
    /** The held message is of kind held (a sender waits for it). */
    private volatile boolean heldWaitedFor;
    /** Messages other threads received for the reader, in order, and buffers for more. */
    private final ArrayDeque<UcxStaging> adopted = new ArrayDeque<>();
    private final ArrayDeque<UcxStaging> spare = new ArrayDeque<>();
    /** {@code adopted} is not empty (for other threads' looks). */
    private volatile boolean anyAdopted;
    /** The staging buffer the reader drains. */
    private UcxStaging current;
    /** Received bytes not yet read, between position and limit ({@code current}'s buffer). */
    private ByteBuffer stage;
    /** Typed views of the staging buffer (native order), for reads into arrays; made with it. */
    private ByteViews stageViews;
    /** Assembles an array element whose bytes end one message and start the next. */
    private final ByteBuffer carry = ByteBuffer.allocate(8);
    private final ByteViews carryViews = new ByteViews(carry);
    private long stageAddress;
    /** The last direct destinations, with their addresses; reader only. */
    private final RecentBuffers<Long> recentDestinations = new RecentBuffers<>();

    private final ByteBuffer closeValue;
    private final long closeValueAddress;
    private boolean endOfStream;
    private IOException failure;

    /** DATA bytes received in all, handed to callers in all, and the total of the last credit. */
    private long received;
    private long consumed;
    private long credited;
    private final ByteBuffer credits;
    private final long creditsAddress;
    /** Credit sends in flight (0: free slot); guarded by this (the reader and the send keeper reap). */
    private final long[] creditRequests = new long[CREDIT_SLOTS];
    private volatile boolean creditsInFlight;

    /** The next message (or the end) is there; waits end when the source closes or the peer is gone. */
    private final UcxWorker.Condition messageArrived = new UcxWorker.Condition() {
        @Override
        public boolean ready() throws IOException {
            return stage.hasRemaining() || held != 0 || !adopted.isEmpty() || endOfStream || probe();
        }

        /** Nothing was staged or held when the wait began; a message may have arrived since. */
        @Override
        boolean mayBeReady() {
            return mayHaveMessage();
        }

        @Override
        public void check() throws IOException {
            if (guard.isClosed()) {
                throw new AsynchronousCloseException();
            }
            connection.checkReadable();
        }
    };

    /** The peer is alive (a message being received, a credit slot); goes on when the source closes. */
    private final UcxWorker.Condition alive = new UcxWorker.Condition() {
        @Override
        public boolean ready() {
            return false;
        }

        @Override
        public void check() throws IOException {
            connection.checkReadable();
        }
    };

    private final UcxWorker.Condition creditSlotFree = new UcxWorker.Condition() {
        @Override
        public boolean ready() {
            return freeCreditSlot() >= 0;
        }

        @Override
        public void check() throws IOException {
            connection.checkReadable();
        }
    };

    private final RequestCompletion receive;
    /** What a receive is, for its error message (made once: nothing is allocated per message). */
    private final String receiving;

    UcxByteSource(UcxConnection connection, int closeTimeoutMillis) {
        this.connection = connection;
        this.worker = connection.worker;
        this.w = worker.handle;
        this.probeTag = UcxConnection.tag(connection.localId, 0);
        this.dataTag = UcxConnection.tag(connection.localId, UcxConnection.KIND_DATA);
        this.closeTag = UcxConnection.tag(connection.localId, UcxConnection.KIND_CLOSE);
        this.heldTag = UcxConnection.tag(connection.localId, UcxConnection.KIND_HELD);
        this.creditTag = UcxConnection.tag(connection.peerId, UcxConnection.KIND_CREDIT);
        this.creditStep = Math.max(1, connection.peerWindow / 4);
        this.closeTimeoutMillis = closeTimeoutMillis;
        this.spin = worker.newSpinWait();
        this.info = ByteBuffer.allocateDirect(24).order(ByteOrder.nativeOrder()); // length, tag, events
        this.infoAddress = UcxWorker.address(info);
        this.closeValue = ByteBuffer.allocateDirect(8).order(ByteOrder.BIG_ENDIAN);
        this.closeValueAddress = UcxWorker.address(closeValue);
        this.credits = ByteBuffer.allocateDirect(8 * CREDIT_SLOTS).order(ByteOrder.BIG_ENDIAN);
        this.creditsAddress = UcxWorker.address(credits);
        use(new UcxStaging(0));
        this.receive = new RequestCompletion(worker, alive);
        this.receiving = "receiving from " + connection.peer;
        worker.keeper.add(this);
        worker.keeper.wake(); // it looks for held messages while sources are open
    }

    @Override
    public int read(ByteBuffer destination, int minimum) throws IOException {
        enter();
        try {
            int total = 0;
            while (true) {
                total += drainStage(destination);
                if (total >= minimum || !destination.hasRemaining()) {
                    break;
                }
                if (nextAdopted()) {
                    continue;
                }
                if (held == 0) {
                    if (endOfStream) {
                        throw new EOFException("connection closed by the peer (" + total + " of " + minimum
                                + " bytes read)");
                    }
                    if (!probe()) {
                        worker.await(messageArrived, spin, 0, false);
                        continue;
                    }
                    if (held == 0) {
                        continue; // it was CLOSE
                    }
                }
                total += receiveHeld(destination);
            }
            creditIfDue();
            return total;
        } catch (IOException e) {
            return fail(e);
        } finally {
            exit();
        }
    }

    /** Array parts are copied once, from the staging buffer straight into the array. */
    @Override
    public boolean takesArrays() {
        return true;
    }

    /**
     * Copies whole elements from the staging buffer into the array (taking the next messages into
     * it as needed); an element whose bytes end one message and start the next is assembled in a
     * small buffer. Waits on through interrupts, as {@link #read(ByteBuffer, int)}.
     */
    @Override
    public void read(Buffer destination) throws IOException {
        int left = ByteViews.byteLength(destination);
        if (left == 0) {
            return;
        }
        int width = left / destination.remaining();
        int limit = destination.limit();
        enter();
        try {
            while (left > 0) {
                if (!stage.hasRemaining()) {
                    stageNextMessage();
                }
                int whole = Math.min(stage.remaining(), left) / width;
                int bytes;
                if (whole > 0) {
                    destination.limit(destination.position() + whole);
                    stageViews.get(stage.position(), destination);
                    bytes = whole * width;
                    stage.position(stage.position() + bytes);
                } else {
                    // Less than an element is left in this message: the rest is in the next ones.
                    carry.clear();
                    while (carry.position() < width) {
                        if (!stage.hasRemaining()) {
                            stageNextMessage();
                        }
                        int n = Math.min(width - carry.position(), stage.remaining());
                        carry.put(carry.position(), stage, stage.position(), n);
                        carry.position(carry.position() + n);
                        stage.position(stage.position() + n);
                    }
                    destination.limit(destination.position() + 1);
                    carryViews.get(0, destination);
                    bytes = width;
                }
                destination.limit(limit);
                consumed += bytes;
                left -= bytes;
            }
            creditIfDue();
        } catch (IOException e) {
            fail(e);
        } finally {
            destination.limit(limit);
            exit();
        }
    }

    /** Waits for the next DATA message and receives it into the (empty) staging buffer. */
    private void stageNextMessage() throws IOException {
        if (nextAdopted()) {
            return;
        }
        while (held == 0) {
            if (endOfStream) {
                throw new EOFException("connection closed by the peer in the middle of an array");
            }
            if (!probe()) {
                worker.await(messageArrived, spin, 0, false);
            }
        }
        receiveHeld(DISCARD); // a destination without room: into the staging buffer
    }

    @Override
    public int available() {
        return stage.remaining();
    }

    /**
     * The poll of a reader that waits and polls again at once: as {@code awaitData(-1)}, with the
     * worker progressed and probed up to {@link UcxWorker#SPIN_POLLS} times in native code
     * ({@link UcxWorker#progressProbe}) instead of once.
     */
    @Override
    public boolean awaitDataSpinning() throws IOException {
        return awaitData(true, -1);
    }

    @Override
    public boolean awaitData(long timeoutMillis) throws IOException {
        return awaitData(false, timeoutMillis);
    }

    /** {@link #awaitData(long)}; a poll ({@code timeoutMillis < 0}) spins in native code when {@code spinning}. */
    private boolean awaitData(boolean spinning, long timeoutMillis) throws IOException {
        enter();
        try {
            if (stage.hasRemaining() || held != 0 || !adopted.isEmpty() || endOfStream) {
                return true;
            }
            if (timeoutMillis < 0) {
                if (probe()) {
                    return true;
                }
                if (spinning) {
                    if (took(worker.progressProbe(probeTag, UcxConnection.SOURCE_MASK, infoAddress, info))) {
                        return true; // a message the spin found
                    }
                } else {
                    worker.progressDeferringScan();
                }
                if (probe()) {
                    return true;
                }
                worker.scanDeferred();
                connection.checkReadable(); // a poll sees a lost connection too
                return false;
            }
            long deadline = 0;
            if (timeoutMillis > 0) {
                deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
                if (deadline == 0) {
                    deadline = 1;
                }
            }
            return worker.await(messageArrived, spin, deadline, true);
        } catch (java.io.InterruptedIOException e) {
            throw e; // nothing consumed: the connection goes on
        } catch (IOException e) {
            return fail(e) > 0;
        } finally {
            exit();
        }
    }

    /**
     * For a {@link UcxSourceWaitSet}, in the thread that reads this source: whether a read or
     * {@code awaitData(-1)} would find something now (data, the end, a failure, the close), without
     * progressing the worker or throwing.
     */
    boolean readyForWaitSet() {
        takeLock.lock();
        if (!guard.enter()) {
            takeLock.unlock();
            return true; // closed: the caller finds out when it polls
        }
        try {
            if (failure != null || stage.hasRemaining() || held != 0 || !adopted.isEmpty() || endOfStream
                    || probe()) {
                return true;
            }
            connection.checkReadable();
            return false;
        } catch (IOException | RuntimeException e) {
            if (failure == null && e instanceof IOException io) {
                failure = io;
            }
            return true;
        } finally {
            exit();
        }
    }

    UcxWorker worker() {
        return worker;
    }

    /**
     * For the leader of the worker while this source's reader is parked: whether the next message
     * (or CLOSE) may have arrived, or the source was closed. Takes nothing; any thread.
     */
    boolean mayHaveMessage() {
        // Two exact looks, not one with SOURCE_MASK: UCX finds an exact tag through its hash of
        // unexpected messages, but a masked one by walking every unexpected message of the worker.
        // A scan looks at every parked reader; with a stream running beside them (tens of its
        // messages unexpected) masked looks cost a third of the stream's speed. A malformed message
        // (another kind) wakes nobody: its reader finds it at the end of its slice.
        return guard.isClosed() || anyAdopted || UcxNative.peek(w, dataTag, UcxConnection.EXACT_MASK) != 0
                || UcxNative.peek(w, heldTag, UcxConnection.EXACT_MASK) != 0
                || UcxNative.peek(w, closeTag, UcxConnection.EXACT_MASK) != 0;
    }

    /**
     * For a thread that is not this source's reader and drives the worker: when a held message (its
     * sender waits until it is received) has come for this source and its reader is not inside a
     * call, receives it, and every message of the connection before it, into this source's buffers
     * for the reader (in order; CLOSE ends the stream as when the reader finds it). At most the
     * peer's credit window is taken so (the peer sends no more unconsumed bytes). A failure is kept
     * for the reader. Never waits for the reader.
     *
     * @return whether it took anything (the caller wakes the waiters: the reader may wait in a set)
     */
    boolean adoptHeld() {
        if (!heldWaitedFor && !heldArrived()) {
            return false;
        }
        if (takeLock.isHeldByCurrentThread()) {
            return false; // this thread is the reader, waiting inside a call: it takes them in order
        }
        if (!takeLock.tryLock()) {
            return false; // the reader is inside a call: it takes its messages itself
        }
        try {
            if (!guard.enter()) {
                return false;
            }
            try {
                boolean took = false;
                while (failure == null && (heldWaitedFor || heldArrived())) {
                    if (held == 0) {
                        if (endOfStream || !probe()) {
                            break;
                        }
                        took = true;
                        if (held == 0) {
                            continue; // it was CLOSE
                        }
                    }
                    int length = heldLength;
                    UcxStaging s = spareFor(length);
                    long m = held;
                    held = 0;
                    heldWaitedFor = false;
                    receiveInto(m, s.address, length, s.buffer, 0);
                    s.buffer.clear().limit(length);
                    received += length;
                    adopted.addLast(s);
                    anyAdopted = true;
                }
                return took;
            } catch (IOException | RuntimeException e) {
                if (failure == null) {
                    failure = e instanceof IOException io ? io : new IOException(e.toString(), e);
                }
                LOG.debug("taking a held message from {}: {}", connection.peer, e.toString());
                return true;
            } finally {
                if (guard.exit()) {
                    finishClose();
                }
            }
        } finally {
            takeLock.unlock();
        }
    }

    private boolean heldArrived() {
        return UcxNative.peek(w, heldTag, UcxConnection.EXACT_MASK) != 0;
    }

    /** A spare buffer of at least {@code length} bytes (made when none is that big); holds takeLock. */
    private UcxStaging spareFor(int length) {
        for (int i = spare.size(); i > 0; i--) {
            UcxStaging s = spare.pollFirst();
            if (s.buffer.capacity() >= length) {
                return s;
            }
            spare.addLast(s);
        }
        return new UcxStaging(Math.max(MIN_STAGING, Integer.highestOneBit(Math.max(1, length - 1)) << 1));
    }

    /**
     * When the staging buffer is drained and other threads received messages for the reader, makes
     * the oldest of them the staging buffer (the drained one becomes spare); the reader holds
     * takeLock.
     */
    private boolean nextAdopted() {
        UcxStaging next = adopted.pollFirst();
        if (next == null) {
            return false;
        }
        anyAdopted = !adopted.isEmpty();
        if (current.buffer.capacity() > 0) {
            spare.addFirst(current);
        }
        use(next);
        return true;
    }

    private void use(UcxStaging s) {
        current = s;
        stage = s.buffer;
        stageAddress = s.address;
        stageViews = s.views;
    }

    private void enter() throws IOException {
        takeLock.lock();
        if (!guard.enter()) {
            takeLock.unlock();
            throw new AsynchronousCloseException();
        }
        if (failure != null) {
            exit();
            throw new IOException(failure.getMessage(), failure);
        }
    }

    private void exit() {
        try {
            if (guard.exit()) {
                finishClose();
            }
        } finally {
            if (takeLock.isHeldByCurrentThread()) {
                takeLock.unlock();
            }
        }
    }

    /** Remembers a failure (the source is unusable afterwards) and throws it. */
    private int fail(IOException e) throws IOException {
        if (failure == null && !(e instanceof EOFException)) {
            failure = e;
        }
        throw e;
    }

    /**
     * Looks for the next message (no progress). DATA is held for {@link #receiveHeld}; CLOSE is
     * taken at once and ends the stream.
     *
     * @return whether a message was found
     */
    private boolean probe() throws IOException {
        return took(UcxNative.probe(w, probeTag, UcxConnection.SOURCE_MASK, infoAddress));
    }

    /** What {@link #probe()} does with the message it found ({@code m}, its length and tag in info); 0: none. */
    private boolean took(long m) throws IOException {
        if (m == 0) {
            return false;
        }
        if (!connection.loopback) {
            worker.tookMessage();
        }
        long length = info.getLong(0);
        long tag = info.getLong(8);
        int kind = (int) (tag >>> 28) & 0xF;
        if ((tag & UcxConnection.RESERVED_BITS) != 0) {
            kind = -1;
        }
        if ((kind == UcxConnection.KIND_DATA || kind == UcxConnection.KIND_HELD) && length > 0
                && length <= UcxPropertyTable.PROTOCOL_MESSAGE_MAX) {
            held = m;
            heldLength = (int) length;
            if (kind == UcxConnection.KIND_HELD) {
                heldWaitedFor = true; // (volatile: written only for held messages)
            }
            return true;
        }
        if (kind == UcxConnection.KIND_CLOSE && length == 8) {
            receive.await(UcxNative.receiveMessage(w, m, closeValueAddress, 8), closeValue,
                    receiving);
            long total = closeValue.getLong(0);
            if (total != received) {
                throw new IOException("connection to " + connection.peer + " broken: the peer sent " + total
                        + " bytes, " + received + " arrived");
            }
            endOfStream = true;
            return true;
        }
        // The message stays unreceived (nothing is allocated for an untrusted length).
        throw new StreamCorruptedException("malformed message from " + connection.peer + ": kind " + kind + ", "
                + length + " bytes");
    }

    /**
     * Receives the held message: straight into {@code destination} when that is direct and has
     * room for all of it, else into the staging buffer.
     *
     * @return the bytes put into {@code destination}
     */
    private int receiveHeld(ByteBuffer destination) throws IOException {
        return receiveHeld(destination, 0);
    }

    /** {@link #receiveHeld(ByteBuffer)}, giving up at {@code deadline} (0: never). */
    private int receiveHeld(ByteBuffer destination, long deadline) throws IOException {
        long m = held;
        int length = heldLength;
        held = 0;
        if (heldWaitedFor) {
            heldWaitedFor = false;
        }
        if (destination.isDirect() && destination.remaining() >= length) {
            Long known = recentDestinations.get(destination);
            long address = known != null ? known : recentDestinations.put(destination, UcxWorker.address(destination));
            int p = destination.position();
            receiveInto(m, address + p, length, destination, deadline);
            destination.position(p + length);
            received += length;
            consumed += length;
            return length;
        }
        if (stage.capacity() < length) {
            int capacity = Math.max(MIN_STAGING, Integer.highestOneBit(length - 1) << 1);
            use(new UcxStaging(Math.max(capacity, length)));
        }
        stage.clear();
        receiveInto(m, stageAddress, length, stage, deadline);
        stage.limit(length);
        received += length;
        return 0;
    }

    /**
     * Receives a probed message and waits for it. Over a connection to this same worker the end of
     * a rendezvous also ends the peer sink's send, in this call and without an event: the sink's
     * writer may wait for it.
     */
    private void receiveInto(long message, long address, int length, ByteBuffer memory, long deadline)
            throws IOException {
        long r = UcxNative.receiveMessage(w, message, address, length);
        receive.await(r, memory, receiving, deadline);
        if (r > 0 && connection.loopback) {
            worker.changedWithoutEvent();
        }
    }

    /** Copies staged bytes into {@code destination}. */
    private int drainStage(ByteBuffer destination) {
        int n = Math.min(stage.remaining(), destination.remaining());
        if (n > 0) {
            int p = stage.position();
            destination.put(destination.position(), stage, p, n);
            destination.position(destination.position() + n);
            stage.position(p + n);
            consumed += n;
        }
        return n;
    }

    /** Sends the peer credit when a quarter of its window was consumed since the last. */
    private void creditIfDue() throws IOException {
        if (consumed - credited < creditStep || endOfStream) {
            return;
        }
        if (freeCreditSlot() < 0) {
            worker.await(creditSlotFree, null, 0, false);
        }
        long r;
        boolean started = false;
        synchronized (this) {
            int slot = freeCreditSlot();
            credits.putLong(slot * 8, consumed);
            r = UcxNative.send(w, connection.endpoint, creditTag, creditsAddress + slot * 8L, 8);
            if (r > 0) {
                creditRequests[slot] = r;
                started = !creditsInFlight;
                creditsInFlight = true;
            }
        }
        if (r < 0) {
            throw new IOException("sending credit to " + connection.peer + " failed: "
                    + UcxNative.statusString((int) r));
        }
        credited = consumed;
        if (started) {
            worker.keeper.wake();
        }
        if (connection.loopback) {
            worker.changedWithoutEvent(); // UCX's self transport raised no event
        }
    }

    /** A credit slot whose send has completed (freeing finished requests), or -1. */
    private synchronized int freeCreditSlot() {
        reapSends();
        for (int i = 0; i < CREDIT_SLOTS; i++) {
            if (creditRequests[i] == 0) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public boolean hasSendsInFlight() {
        return creditsInFlight;
    }

    @Override
    public synchronized void reapSends() {
        boolean any = false;
        for (int i = 0; i < CREDIT_SLOTS; i++) {
            long r = creditRequests[i];
            if (r == 0) {
                continue;
            }
            int status = UcxNative.requestStatus(r);
            if (status == UcxNative.IN_PROGRESS) {
                any = true;
                continue;
            }
            UcxNative.requestFree(r);
            creditRequests[i] = 0;
            if (status != UcxNative.OK) {
                LOG.debug("a credit to {} failed: {}", connection.peer, UcxNative.statusString(status));
            }
        }
        creditsInFlight = any;
    }

    @Override
    public void close() {
        int state = guard.close();
        if (state == EndGuard.IDLE) {
            finishClose();
        } else if (state == EndGuard.BUSY) {
            worker.wakeAll(); // a reader waiting for a message sees the close and finishes it
        }
    }

    /**
     * Ends the source once no call runs: tells the peer (its sink stops sending), takes the
     * messages that have arrived for this connection (so that UCX does not keep them), and lets go
     * of the connection.
     */
    private void finishClose() {
        try {
            connection.sourceClosed();
            // Bounded: this is only tidying up (what is left stays with UCX until the worker ends).
            long deadline = System.nanoTime() + Math.min(closeTimeoutMillis, DRAIN_MILLIS) * 1_000_000L;
            for (int i = 0; i < 1024 && System.nanoTime() - deadline < 0; i++) {
                if (held == 0 && (endOfStream || !probe())) {
                    break;
                }
                if (held != 0) {
                    receiveHeld(DISCARD, deadline); // into the staging buffer
                    stage.clear().limit(0);
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("closing the connection to {}: {}", connection.peer, e.toString());
        } finally {
            connection.release();
        }
    }

    /** Whether a credit is still on its way. */
    synchronized boolean hasUnfinishedRequests() {
        for (long r : creditRequests) {
            if (r != 0 && UcxNative.requestStatus(r) == UcxNative.IN_PROGRESS) {
                return true;
            }
        }
        return false;
    }

    /** At tear-down, after the endpoint closed: frees the credit requests left. */
    synchronized void releaseRequests() {
        worker.keeper.remove(this);
        for (int i = 0; i < CREDIT_SLOTS; i++) {
            long r = creditRequests[i];
            if (r != 0) {
                if (UcxNative.requestStatus(r) == UcxNative.IN_PROGRESS) {
                    UcxWorker.pinForever(credits);
                }
                UcxNative.requestFree(r);
                creditRequests[i] = 0;
            }
        }
        creditsInFlight = false;
    }

    @Override
    public String toString() {
        return "source of " + connection;
    }
}
