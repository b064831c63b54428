package ibis.impl.mpi;

import ibis.io.ByteSource;
import ibis.io.ByteViews;
import ibis.ipl.impl.RecentBuffers;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The input of an MPI connection. The polling thread ({@link MpiProcess#poll()}, through
 * {@link MpiRouter}) puts each DATA message of this connection into this source's direct buffer, in
 * MPI's order (a short one is copied from its landing receive, a long one received there by MPI,
 * {@link MpiMatch#receive}); readers copy from there. A reader
 * that waits polls MPI itself, so on an explicit receive the message is taken by the thread that
 * wants it, without a thread switch. A zero-byte DATA message is the peer's CLOSE.
 *
 * <p>The buffer holds at most the window plus one message: the peer's sink never has more than the
 * window unread (credit), so a message beyond that is a protocol violation and breaks the connection
 * with an IOException, as does one longer than {@link MpiTransportSettings#MESSAGE_MAX}; nothing is
 * allocated for such lengths. The buffer starts small and grows up to that bound; unread bytes are
 * moved to its start when a message does not fit behind them.
 *
 * <p>Flow control: the source counts the bytes handed to readers and sends the peer's sink a CREDIT
 * message (the total) whenever a quarter of the window was consumed since the last one.
 *
 * <p>Interrupts: {@link #awaitData} ends with an {@link InterruptedIOException} having consumed
 * nothing; {@link #read} waits on through interrupts (it may be inside a message) and sets the
 * interrupt status again.
 */
final class MpiByteSource implements ByteSource {

    private static final Logger LOG = LoggerFactory.getLogger(MpiByteSource.class);
    private static final int MIN_BUFFER = 64 * 1024;
    /** The CREDIT value that tells the peer's sink that this source was closed. */
    static final long CLOSED_CREDIT = -1;

    private final MpiConnection connection;
    private final MpiProcess process;
    private final MpiBackend backend;
    private final int maxBuffer;
    private final long creditStep;
    private final MpiBuffer creditOut;
    private final MpiSlots creditRequest;
    private boolean creditInFlight;
    private int creditTag = -1;

    // Guarded by this: [readPos, writePos) of buffer are unread.
    private MpiBuffer buffer;
    private int readPos;
    private int writePos;
    private boolean eof;
    private volatile IOException broken;
    private volatile boolean closed;
    /** Written by the polling thread, read by readers: whether anything is there. */
    private volatile boolean ready;

    private long consumed;
    private long lastCredit;
    private volatile Thread waiter;
    private volatile MpiSourceWaitSet waitSet;

    private final BooleanSupplier readyCondition = () -> ready || closed;
    private final BooleanSupplier elementReady = this::elementThere;
    /** Guarded by this: the bytes an array reader waits for (one element). */
    private int neededBytes = 1;
    /** Guarded by this: the typed views of {@link #buffer}, and the buffer they view. */
    private ByteViews views;
    private MpiBuffer viewsOf;
    private final BooleanSupplier creditSent = () -> !creditPending();

    /**
     * Guarded by this: the direct buffer a reader waits to have filled straight from MPI
     * ({@link #receiveDirect}), or null; the next byte goes to index {@code directAt}, the room ends
     * at {@code directEnd}.
     */
    private MpiBuffer directInto;
    private int directAt;
    private int directEnd;
    private volatile boolean directFull;
    /** The last application buffers wrapped for direct receives: a reader that reuses them allocates nothing. */
    private final RecentBuffers<MpiBuffer> recentDestinations = new RecentBuffers<>();
    private final BooleanSupplier directDone = () -> directFull || ready || closed;
    /** The smallest read into a direct buffer that MPI may fill straight. */
    static final int DIRECT_MIN = 4096;

    MpiByteSource(MpiConnection connection, MpiProcess process, MpiTransportSettings settings) {
        this.connection = connection;
        this.process = process;
        this.backend = process.backend();
        this.maxBuffer = settings.window + MpiTransportSettings.MESSAGE_MAX;
        this.creditStep = Math.max(1, settings.window / 4);
        this.creditOut = MpiBuffer.allocate(process, 8);
        this.creditRequest = backend.newRequests(1);
    }

    /** The peer's end id: where CREDIT goes. */
    void peer(int peerId) {
        creditTag = process.tags().tag(MpiTags.CREDIT, peerId);
    }

    /** The wait set this source belongs to (or null). */
    void waitSet(MpiSourceWaitSet set) {
        waitSet = set;
    }

    /** Whether data, the end or an error is there. */
    boolean ready() {
        return ready || closed;
    }

    /** A DATA message for this connection was matched (polling thread). */
    void deliver(MpiMatch match) throws IOException {
        if (closed) {
            match.discard(); // this end closed while the peer still sent (it learns it from the CREDIT of -1)
            return;
        }
        int length = match.length();
        int at;
        synchronized (this) {
            if (eof || broken != null) {
                match.discard(); // nothing after the end or a violation is read
                return;
            }
            if (length == 0) {
                eof = true;
                ready = true;
                at = -1;
            } else if (length > MpiTransportSettings.MESSAGE_MAX || writePos - readPos + length > maxBuffer) {
                broken = new IOException("protocol violation by " + connection + ": a DATA message of " + length
                        + " bytes with " + (writePos - readPos) + " unread (window exceeded or message too long)");
                ready = true;
                at = -1;
            } else if (directInto != null && writePos == readPos && length <= directEnd - directAt) {
                // A reader waits for this many bytes or more in a direct buffer and nothing is
                // unread before them: MPI puts them there (no copy). The reader cannot leave
                // meanwhile: it takes this lock to give the buffer up.
                directAt += match.receive(directInto, directAt, directEnd - directAt);
                directFull = directAt == directEnd;
                if (directFull) {
                    match.filledReader();
                }
                at = -2;
            } else {
                at = reserve(length);
                if (match.inMemory()) {
                    // A landed (or kept) message is a copy of at most a few KiB: done under this lock,
                    // one monitor per message less than receiving outside it.
                    writePos = at + match.receive(buffer, at, length);
                    ready = true;
                    at = -2;
                }
            }
        }
        if (at == -2) {
            wake();
            return;
        }
        if (at < 0) {
            match.discard();
        } else {
            int n = match.receive(buffer, at, length);
            synchronized (this) {
                writePos = at + n;
                ready = true;
            }
        }
        wake();
    }

    /** Makes room for {@code length} bytes behind the unread ones; returns where they go. */
    private int reserve(int length) {
        int unread = writePos - readPos;
        if (buffer == null || buffer.capacity() - writePos < length) {
            if (buffer != null && buffer.capacity() - unread >= length && readPos > 0) {
                ByteBuffer unreadBytes = buffer.buffer().duplicate();
                unreadBytes.limit(writePos).position(readPos);
                unreadBytes.compact();
            } else {
                int size = Math.max(MIN_BUFFER, buffer == null ? 0 : buffer.capacity());
                while (size < unread + length) {
                    size *= 2;
                }
                MpiBuffer grown = MpiBuffer.allocate(process, Math.min(size, maxBuffer));
                if (unread > 0) {
                    grown.buffer().put(0, buffer.buffer(), readPos, unread);
                }
                buffer = grown;
            }
            readPos = 0;
            writePos = unread;
        }
        return writePos;
    }

    /**
     * Array elements are stored straight from the receive buffer into the application's array: one
     * copy, instead of two through the block stream's buffer.
     */
    @Override
    public boolean takesArrays() {
        return true;
    }

    /**
     * Stores the next bytes into {@code destination}'s remaining elements. The unread bytes are
     * contiguous in the receive buffer, so an element whose bytes came in two DATA messages is whole
     * once both arrived; waits (polling MPI) until at least one element is there, as
     * {@link #read(ByteBuffer, int)} waits for bytes.
     */
    @Override
    public void read(Buffer destination) throws IOException {
        int total = ByteViews.byteLength(destination);
        int left = total;
        if (left == 0) {
            return;
        }
        int width = left / destination.remaining();
        int limit = destination.limit();
        boolean interrupted = false;
        try {
            while (true) {
                synchronized (this) {
                    int whole = Math.min(writePos - readPos, left) / width;
                    if (whole > 0) {
                        destination.limit(destination.position() + whole);
                        try {
                            views().get(readPos, destination);
                        } finally {
                            destination.limit(limit);
                        }
                        int n = whole * width;
                        readPos += n;
                        consumed += n;
                        left -= n;
                    }
                    ready = writePos > readPos || eof || broken != null;
                    neededBytes = width;
                }
                if (consumed - lastCredit >= creditStep) {
                    interrupted |= sendCredit();
                }
                if (left == 0) {
                    return;
                }
                interrupted |= awaitMore(elementReady, width, total - left, total);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Waits (polling MPI) until {@code condition} holds, after throwing for a broken or closed
     * connection or for an end with fewer than {@code need} bytes unread ({@code done} of
     * {@code wanted} bytes read).
     *
     * @return whether the thread was interrupted meanwhile (the wait goes on through interrupts)
     */
    private boolean awaitMore(BooleanSupplier condition, int need, long done, long wanted) throws IOException {
        if (broken != null) {
            throw new IOException("connection from " + connection + " broken: " + broken.getMessage(), broken);
        }
        synchronized (this) {
            if (eof && writePos - readPos < need) {
                throw new EOFException("connection from " + connection + " closed by the peer after " + done + " of "
                        + wanted + " bytes");
            }
        }
        if (closed) {
            throw new IOException("connection from " + connection + " is closed");
        }
        waiter = Thread.currentThread();
        try {
            process.awaitDelivery(condition, 0);
            return false;
        } catch (InterruptedIOException e) {
            return Thread.interrupted();
        } finally {
            waiter = null;
        }
    }

    /** The typed views of the receive buffer (made again when it was replaced). Holds this. */
    private ByteViews views() {
        if (viewsOf != buffer) {
            views = new ByteViews(buffer.buffer());
            viewsOf = buffer;
        }
        return views;
    }

    /** Whether an array reader can go on: an element's bytes, the end, or an error are there. */
    private synchronized boolean elementThere() {
        return writePos - readPos >= neededBytes || eof || broken != null || closed;
    }

    private void wake() {
        Thread t = waiter;
        if (t != null && t != Thread.currentThread()) {
            // The reader itself polls and delivers most of the time: unparking a running thread
            // costs a mutex and leaves a permit that makes its next park return at once.
            LockSupport.unpark(t);
        }
        MpiSourceWaitSet set = waitSet;
        if (set != null) {
            set.wakeup();
        }
    }

    @Override
    public int read(ByteBuffer destination, int minimum) throws IOException {
        int total = 0;
        boolean interrupted = false;
        try {
            if (minimum >= DIRECT_MIN && minimum == destination.remaining() && destination.isDirect()
                    && !destination.isReadOnly()) {
                total = receiveDirect(destination);
                interrupted = Thread.interrupted();
            }
            while (true) {
                synchronized (this) {
                    int n = Math.min(writePos - readPos, destination.remaining());
                    if (n > 0) {
                        destination.put(destination.position(), buffer.buffer(), readPos, n);
                        destination.position(destination.position() + n);
                        readPos += n;
                        total += n;
                        consumed += n;
                    }
                    ready = writePos > readPos || eof || broken != null;
                }
                if (consumed - lastCredit >= creditStep) {
                    interrupted |= sendCredit();
                }
                if (total >= minimum) {
                    return total;
                }
                interrupted |= awaitMore(readyCondition, 1, total, minimum);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * For a read of all the remaining bytes of a direct buffer while nothing is unread here: lets the
     * polling thread receive the next DATA messages straight into the buffer while each fits in the
     * room left (a sink sends a large part as a message of its own, {@code partsAsMessages}), until
     * it is full or a message goes to the receive buffer instead (too long, the end, an error). Waits
     * through interrupts (the interrupt status is set again on return).
     *
     * @return the bytes received into {@code destination} (its position is moved past them)
     */
    private int receiveDirect(ByteBuffer destination) throws IOException {
        int from = destination.position();
        synchronized (this) {
            if (writePos != readPos || eof || broken != null || closed) {
                return 0;
            }
            MpiBuffer into = recentDestinations.get(destination);
            if (into == null) {
                into = recentDestinations.put(destination, MpiBuffer.wrap(process, destination));
            }
            directInto = into;
            directAt = from;
            directEnd = destination.limit();
            directFull = false;
        }
        boolean interrupted = false;
        int n;
        waiter = Thread.currentThread();
        try {
            while (!directDone.getAsBoolean()) {
                try {
                    process.awaitDelivery(directDone, 0);
                } catch (InterruptedIOException e) {
                    interrupted = Thread.interrupted() || interrupted;
                }
            }
        } finally {
            waiter = null;
            synchronized (this) {
                n = directAt - from;
                directInto = null;
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        destination.position(from + n);
        consumed += n;
        return n;
    }

    /** Sends the total consumed as CREDIT; returns whether the thread was interrupted meanwhile. */
    private boolean sendCredit() throws IOException {
        boolean interrupted = false;
        while (creditPending()) {
            try {
                process.await(creditSent, 0);
            } catch (InterruptedIOException e) {
                interrupted = Thread.interrupted() || interrupted;
            }
        }
        if (creditTag < 0 || closed) {
            return interrupted;
        }
        synchronized (creditRequest) {
            if (creditInFlight || closed) {
                return interrupted; // a close got there first; the next read sends the credit
            }
            creditOut.buffer().putLong(0, consumed);
            creditInFlight = !backend.isendTest(creditOut, 0, 8, connection.peerRank(), creditTag, creditRequest, 0);
        }
        lastCredit = consumed;
        return interrupted;
    }

    private boolean creditPending() {
        synchronized (creditRequest) {
            if (creditInFlight) {
                try {
                    creditInFlight = !backend.test(creditRequest, 0, null);
                } catch (IOException e) {
                    creditInFlight = false;
                    broken = e;
                }
            }
            return creditInFlight;
        }
    }

    @Override
    public synchronized int available() {
        return writePos - readPos;
    }

    /** A reader's poll while it waits: MPI is tested a few times in a row ({@link MpiProcess#pollWaiting}). */
    @Override
    public boolean awaitDataSpinning() throws IOException {
        if (ready()) {
            return true;
        }
        process.pollWaiting(readyCondition);
        return ready();
    }

    @Override
    public boolean awaitData(long timeoutMillis) throws IOException {
        if (ready()) {
            return true;
        }
        if (timeoutMillis < 0) {
            process.poll(readyCondition);
            return ready();
        }
        waiter = Thread.currentThread();
        try {
            return process.awaitDelivery(readyCondition,
                    timeoutMillis == 0 ? 0 : TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
        } finally {
            waiter = null;
        }
    }

    /**
     * Closes the input; unless the peer closed first, tells the peer's sink (a CREDIT of -1) so that
     * its writes fail instead of waiting for credit that never comes (the peer sees a lost connection).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        boolean tell;
        synchronized (this) {
            tell = !eof && broken == null;
        }
        closed = true;
        wake();
        try {
            if (tell && creditTag >= 0) {
                tellClosed();
            }
        } catch (IOException e) {
            LOG.debug("telling {} that its receiver closed failed: {}", connection, e.toString());
        } finally {
            connection.sourceClosed();
        }
    }

    private void tellClosed() throws IOException {
        boolean interrupted = false;
        long timeout = TimeUnit.SECONDS.toNanos(1);
        try {
            boolean sent = false;
            while (!sent) {
                try {
                    if (!process.await(creditSent, timeout)) {
                        return;
                    }
                } catch (InterruptedIOException e) {
                    interrupted = Thread.interrupted() || interrupted;
                    continue;
                }
                synchronized (creditRequest) {
                    if (!creditInFlight) {
                        creditOut.buffer().putLong(0, CLOSED_CREDIT);
                        backend.isend(creditOut, 0, 8, connection.peerRank(), creditTag, creditRequest, 0);
                        creditInFlight = true;
                        sent = true;
                    }
                }
            }
            while (true) {
                try {
                    process.await(creditSent, timeout);
                    return;
                } catch (InterruptedIOException e) {
                    interrupted = Thread.interrupted() || interrupted;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "mpi source from " + connection;
    }
}
