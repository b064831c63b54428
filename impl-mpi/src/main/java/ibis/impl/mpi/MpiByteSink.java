package ibis.impl.mpi;

import ibis.io.ByteSink;
import ibis.io.ByteViews;
import ibis.ipl.impl.RecentBuffers;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The output of an MPI connection: a write gathers its buffers into DATA messages of at most
 * {@link MpiTransportSettings#MESSAGE_MAX} bytes (the primitive arrays a block stream hands over
 * included, {@link #takesArrays()}), each copied into one of {@link #SLOTS} direct
 * staging buffers and sent with {@code MPI_Isend}; the write returns before MPI completed them
 * (they complete lazily, tested when a slot is needed again, or by the {@link MpiSendKeeper}). The
 * exception is a large direct byte buffer that ends a write ({@link #partsAsMessages()}): it is sent
 * from where it is and the write returns once MPI is done with it ({@link #sendInPlace}). CLOSE is a
 * DATA message of zero bytes (a write never sends an empty one).
 *
 * <p>Flow control: at most the receiver's window may be sent and not yet read; the receiving source
 * returns CREDIT (the total it handed to its reader), and a write waits for credit beyond that.
 * Waiting polls MPI in the writing thread ({@link MpiProcess#await}); an interrupt does not stop a
 * write, the interrupt status is set again when it returns. Nothing is allocated per message once
 * the staging buffers exist.
 */
final class MpiByteSink implements ByteSink, MpiSendKeeper.Watched {

    private static final Logger LOG = LoggerFactory.getLogger(MpiByteSink.class);
    private static final VarHandle FLIGHT = MethodHandles.arrayElementVarHandle(boolean[].class);
    static final int SLOTS = 4;
    private static final int MIN_STAGING = 64 * 1024;
    /** The smallest last buffer of a gathering write that gets a DATA message of its own. */
    static final int PART_MESSAGE = 4096;

    private final MpiConnection connection;
    private final MpiProcess process;
    private final MpiBackend backend;
    private final MpiSendKeeper keeper;
    private final MpiTransportSettings settings;
    private final Object writeLock = new Object();
    private final MpiSlots requests;
    /**
     * Whether a slot's send is still in flight. Set (to true) by the writer only, right after the
     * send started; cleared by whoever tests it ({@link #pending}: the writer, or the keeper in
     * {@link #reap}), under this object's monitor, which keeps two tests of one request apart. Read
     * with acquire and written with release ({@link #FLIGHT}), so the writer sees a slot free without
     * the monitor (a slot it finds free stays free: only it sends), and the tester sees the request
     * the send wrote.
     */
    private final boolean[] inFlight = new boolean[SLOTS];
    private final MpiBuffer[] staging = new MpiBuffer[SLOTS];
    private final MpiBuffer creditIn;
    private int nextSlot;
    private int waitingSlot;
    private int dataTag;
    private volatile int peerWindow;
    private volatile boolean hasPeer;
    private long sent;
    private volatile long credited;
    private volatile Thread writer;
    private volatile IOException broken;
    private boolean closed;

    /** The slot and length of the next DATA message, set by {@link #claim}. Writer thread only. */
    private int claimedSlot;
    private int claimedChunk;
    /** The credit a write waits for: one byte, or one element of an array part. Writer thread only. */
    private int neededCredit = 1;
    private final ByteViews[] stagingViews = new ByteViews[SLOTS];
    private final MpiBuffer[] stagingViewsOf = new MpiBuffer[SLOTS];

    private final BooleanSupplier creditReady = () -> broken != null
            || peerWindow - (sent - credited) >= neededCredit;
    private final BooleanSupplier slotFree = () -> !pending(waitingSlot);
    private final BooleanSupplier allDone = () -> !reap();
    private final BooleanSupplier inPlaceDone = () -> !inPlacePending();
    /** The slots whose send reads an application's buffer ({@link #sendInPlace}); writer only (under writeLock). */
    private final boolean[] inPlace = new boolean[SLOTS];
    /** The last application buffers sent in place, wrapped: a writer that reuses them allocates nothing. */
    private final RecentBuffers<MpiBuffer> recentParts = new RecentBuffers<>();

    MpiByteSink(MpiConnection connection, MpiProcess process, MpiSendKeeper keeper, MpiTransportSettings settings) {
        this.connection = connection;
        this.process = process;
        this.backend = process.backend();
        this.keeper = keeper;
        this.settings = settings;
        this.requests = backend.newRequests(SLOTS);
        this.creditIn = MpiBuffer.allocate(process, 8);
    }

    /** The peer's end id and window: sending may start. */
    void peer(int peerId, int window) {
        this.dataTag = process.tags().tag(MpiTags.DATA, peerId);
        this.peerWindow = window;
        this.hasPeer = true;
    }

    /** A CREDIT message arrived (polling thread): the total the peer's reader consumed. */
    void credit(MpiMatch match) throws IOException {
        if (match.length() != 8) {
            broken = new IOException("CREDIT message of " + match.length() + " bytes from " + connection);
        } else {
            match.receive(creditIn, 0, 8);
            long value = creditIn.buffer().getLong(0);
            if (value == MpiByteSource.CLOSED_CREDIT) {
                broken = new IOException("the receiver at " + connection + " closed the connection");
            } else if (value > credited) {
                credited = value;
            }
        }
        Thread t = writer;
        if (t != null && t != Thread.currentThread()) {
            LockSupport.unpark(t); // not the writer that took its own credit in while it waited
        }
    }

    @Override
    public void write(ByteBuffer[] buffers, int offset, int count) throws IOException {
        writeAll(buffers, offset, count, null);
    }

    /**
     * A large last buffer of a gathering write starts a DATA message of its own (sent in place when it
     * is direct, else staged): the receiving source can then receive it straight into a direct buffer
     * its reader reads into.
     */
    @Override
    public boolean partsAsMessages() {
        return true;
    }

    /** Array parts are copied once, straight from the application's array into the staging buffers. */
    @Override
    public boolean takesArrays() {
        return true;
    }

    @Override
    public void write(ByteBuffer[] buffers, int offset, int count, Buffer array) throws IOException {
        writeAll(buffers, offset, count, array);
    }

    /**
     * Sends the buffers' remaining bytes, then {@code array}'s remaining elements (or none), as DATA
     * messages. A message holds whole elements only, so the receiver never waits for the rest of one.
     */
    private void writeAll(ByteBuffer[] buffers, int offset, int count, Buffer array) throws IOException {
        boolean interrupted = false;
        try {
            synchronized (writeLock) {
                check();
                if (array == null && count >= 3) {
                    ByteBuffer part = buffers[offset + count - 1];
                    if (part.isDirect() && part.remaining() >= PART_MESSAGE) {
                        interrupted |= stage(buffers, offset, count - 1, null);
                        interrupted |= sendInPlace(part);
                        return;
                    }
                }
                interrupted |= stage(buffers, offset, count, array);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Sends a large direct part from where it is, as DATA messages of its own, and returns once MPI
     * is done with its memory, so that the caller may reuse it. That is when the receiving process
     * took the messages: into the buffer its reader reads into, or into the receiving source's
     * buffer, which any thread polling MPI there does while the credit allows it (every receiving
     * process polls at least every millisecond in the background, and a writer waiting here polls
     * its own process: a thread that sends to itself before it reads is served by its own wait).
     * So a send does not wait for the receiving application to read, as the IPL requires, and the
     * part is never copied on this side. Returns whether the thread was interrupted meanwhile.
     */
    private boolean sendInPlace(ByteBuffer part) throws IOException {
        boolean interrupted = false;
        MpiBuffer memory = recentParts.get(part);
        if (memory == null) {
            memory = recentParts.put(part, MpiBuffer.wrap(process, part));
        }
        while (part.hasRemaining()) {
            interrupted |= claim(part.remaining(), 1);
            int slot = claimedSlot;
            int chunk = claimedChunk;
            send(slot, memory, part.position(), chunk, true);
            part.position(part.position() + chunk);
            sent += chunk;
        }
        if (inPlacePending()) {
            interrupted |= waitFor(inPlaceDone);
        }
        check();
        return interrupted;
    }

    /** Whether a send from an application's buffer is still in flight (tests them). */
    private synchronized boolean inPlacePending() {
        boolean any = false;
        for (int slot = 0; slot < SLOTS; slot++) {
            if (inPlace[slot]) {
                if (pending(slot)) {
                    any = true;
                } else {
                    inPlace[slot] = false;
                }
            }
        }
        return any;
    }

    /**
     * Stages and sends the buffers' remaining bytes, then {@code array}'s remaining elements (or none);
     * holds writeLock. Returns whether the thread was interrupted meanwhile.
     */
    private boolean stage(ByteBuffer[] buffers, int offset, int count, Buffer array) throws IOException {
        boolean interrupted = false;
        long remaining = 0;
        for (int i = offset; i < offset + count; i++) {
            remaining += buffers[i].remaining();
        }
        int width = 1;
        if (array != null && array.hasRemaining()) {
            int bytes = ByteViews.byteLength(array);
            width = bytes / array.remaining();
            remaining += bytes;
        }
        int end = offset + count;
        int next = offset;
        while (remaining > 0) {
            interrupted |= claim(remaining, width);
            int slot = claimedSlot;
            int chunk = claimedChunk;
            MpiBuffer stage = staging(slot, chunk);
            int filled = 0;
            while (filled < chunk) {
                if (next < end) {
                    ByteBuffer b = buffers[next];
                    if (filled > 0 && count >= 3 && next == end - 1 && b.remaining() >= PART_MESSAGE) {
                        break; // the part goes in a message of its own (partsAsMessages)
                    }
                    int n = Math.min(b.remaining(), chunk - filled);
                    stage.buffer().put(filled, b, b.position(), n);
                    b.position(b.position() + n);
                    filled += n;
                    if (!b.hasRemaining()) {
                        next++;
                    }
                } else if (array != null && array.hasRemaining()) {
                    int elements = Math.min(array.remaining(), (chunk - filled) / width);
                    if (elements == 0) {
                        break; // the message ends a few bytes short of the credit
                    }
                    int limit = array.limit();
                    array.limit(array.position() + elements);
                    try {
                        views(slot, stage).put(filled, array);
                    } finally {
                        array.limit(limit);
                    }
                    filled += elements * width;
                } else {
                    break;
                }
            }
            send(slot, stage, 0, filled, false);
            sent += filled;
            remaining -= filled;
        }
        return interrupted;
    }

    /**
     * Waits for credit of at least one element of {@code width} bytes (so that a message can hold
     * one) and for a free slot, for the next DATA message of at most {@code remaining} bytes; sets
     * {@link #claimedSlot} and {@link #claimedChunk} (the bytes the credit allows, at most {@link
     * MpiTransportSettings#MESSAGE_MAX}). Holds writeLock. Returns whether the thread was interrupted.
     */
    private boolean claim(long remaining, int width) throws IOException {
        boolean interrupted = false;
        neededCredit = (int) Math.min(remaining, width);
        if (!creditReady.getAsBoolean()) {
            interrupted = waitFor(creditReady);
            check();
        }
        claimedChunk = (int) Math.min(Math.min(remaining, MpiTransportSettings.MESSAGE_MAX),
                peerWindow - (sent - credited));
        int slot = freeSlot();
        boolean busy = slot < 0;
        if (busy) {
            slot = nextSlot;
        }
        nextSlot = (slot + 1) % SLOTS;
        if (busy && pending(slot)) {
            waitingSlot = slot;
            interrupted |= waitFor(slotFree);
            check();
        }
        claimedSlot = slot;
        return interrupted;
    }

    /** The typed views of a slot's staging buffer (made again when the buffer was replaced). */
    private ByteViews views(int slot, MpiBuffer stage) {
        if (stagingViewsOf[slot] != stage) {
            stagingViews[slot] = new ByteViews(stage.buffer());
            stagingViewsOf[slot] = stage;
        }
        return stagingViews[slot];
    }

    /**
     * Sends from a slot that is not in flight (so nobody tests its request meanwhile: no monitor
     * needed, see {@link #inFlight}).
     */
    private void send(int slot, MpiBuffer buffer, int offset, int length, boolean application) throws IOException {
        boolean done;
        inPlace[slot] = application;
        try {
            done = process.isendTest(buffer, offset, length, connection.peerRank(), dataTag, requests, slot);
        } catch (IOException e) {
            broken = e; // these bytes are not sent: a later write must not go on behind a gap
            throw e;
        }
        if (!done) {
            FLIGHT.setRelease(inFlight, slot, true);
        }
        if (!done && !application) {
            // A send from the application's buffer is waited for by its writer, which polls MPI: the
            // keeper's wake-up (a thread switch per message of a stream) would only take a processor.
            keeper.watch(this);
        }
    }

    private MpiBuffer staging(int slot, int length) {
        MpiBuffer b = staging[slot];
        if (b == null || b.capacity() < length) {
            int size = Math.max(MIN_STAGING, Integer.highestOneBit(Math.max(1, length - 1)) << 1);
            b = MpiBuffer.allocate(process, Math.min(size, Math.max(length, MpiTransportSettings.MESSAGE_MAX)));
            staging[slot] = b;
        }
        return b;
    }

    /**
     * The first slot from {@code nextSlot} on whose send completed, else -1 (then the caller waits
     * for {@code nextSlot}'s send): small messages that complete at once do not hold up a large one's slot
     * (MPI orders the messages by their sends, not by slots).
     */
    private int freeSlot() {
        for (int i = 0; i < SLOTS; i++) {
            int slot = (nextSlot + i) % SLOTS;
            if (!pending(slot)) {
                return slot;
            }
        }
        return -1;
    }

    /** Whether the send in a slot is still in flight (tests it; no monitor when it is not). */
    private boolean pending(int slot) {
        if (!(boolean) FLIGHT.getAcquire(inFlight, slot)) {
            return false;
        }
        synchronized (this) {
            if (!(boolean) FLIGHT.getAcquire(inFlight, slot)) {
                return false; // the other tester found it done
            }
            boolean done;
            try {
                done = backend.test(requests, slot, null);
            } catch (IOException e) {
                done = true;
                broken = e;
            }
            if (done) {
                FLIGHT.setRelease(inFlight, slot, false);
            }
            return !done;
        }
    }

    @Override
    public synchronized boolean reap() {
        boolean any = false;
        for (int slot = 0; slot < SLOTS; slot++) {
            any |= pending(slot);
        }
        return any;
    }

    /** Waits in MPI until {@code condition} holds; returns whether the thread was interrupted meanwhile. */
    private boolean waitFor(BooleanSupplier condition) throws IOException {
        boolean interrupted = false;
        writer = Thread.currentThread();
        try {
            while (true) {
                try {
                    process.await(condition, 0);
                    return interrupted;
                } catch (InterruptedIOException e) {
                    interrupted = Thread.interrupted() || interrupted;
                }
            }
        } finally {
            writer = null;
        }
    }

    private void check() throws IOException {
        if (broken != null) {
            throw new IOException("connection to " + connection + " broken: " + broken.getMessage(), broken);
        }
        if (closed) {
            throw new IOException("connection to " + connection + " is closed");
        }
        if (!hasPeer) {
            throw new IOException("connection to " + connection + " is not set up");
        }
    }

    @Override
    public void close() throws IOException {
        boolean interrupted = false;
        try {
            synchronized (writeLock) {
                if (closed) {
                    return;
                }
                closed = true;
                if (hasPeer && broken == null) {
                    int slot = nextSlot;
                    if (pending(slot)) {
                        waitingSlot = slot;
                        interrupted |= waitFor(slotFree);
                    }
                    send(slot, creditIn, 0, 0, false);
                }
                writer = Thread.currentThread();
                long deadline = TimeUnit.MILLISECONDS.toNanos(Math.max(1, settings.closeTimeoutMillis));
                while (true) {
                    try {
                        if (!process.await(allDone, deadline)) {
                            LOG.warn("closing {}: sends still in flight after {} ms", connection,
                                    settings.closeTimeoutMillis);
                        }
                        break;
                    } catch (InterruptedIOException e) {
                        interrupted = Thread.interrupted() || interrupted;
                    }
                }
                writer = null;
            }
        } finally {
            connection.sinkClosed();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "mpi sink to " + connection;
    }
}
