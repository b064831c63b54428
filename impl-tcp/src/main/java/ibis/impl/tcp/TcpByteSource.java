package ibis.impl.tcp;

import ibis.io.ByteSource;
import ibis.io.ByteViews;
import ibis.ipl.impl.SpinWait;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

/**
 * The input of a TCP connection (a connection carries messages in one direction only, from the
 * side that connected to the side that accepted; the connecting side reads only the handshake
 * reply). The channel is non-blocking, so one {@code read} system call both asks whether data has
 * arrived and fetches it. {@link #available()} is such a read into a small direct read-ahead
 * buffer; this is what a receiver that polls briefly before blocking calls in its loop, and a hit
 * costs one system call instead of an {@code FIONREAD} followed by a read. A read that needs more
 * than has arrived (the rest of a message that is on its way) first polls briefly
 * ({@link SpinWait}); waiting (such a read after the poll, or {@link #awaitData(long)}) blocks in a
 * {@link Selector} of this connection alone, with or without a time limit. The channel's
 * {@link TcpByteSink} writes without blocking too, so no read or write of a connection can be
 * closed by an interrupt.
 *
 * <p>Plain reads ({@link #read}) first drain the read-ahead, then read from the channel straight
 * into the caller's buffer, so large messages are not copied twice. Once the selector exists
 * nothing on the read path allocates. Closing the source closes the whole socket (and the
 * selector); a reader blocked in it gets an {@link AsynchronousCloseException}.
 */
final class TcpByteSource implements ByteSource {

    /** Ready keys are not collected: the selector has this one channel only. */
    private static final Consumer<SelectionKey> IGNORE_READY_KEY = key -> { };

    /** One direct buffer per reading thread for reads straight into arrays. */
    private static final ThreadLocal<Staging> STAGING = ThreadLocal.withInitial(() -> new Staging(64 * 1024));

    private final SocketChannel channel;
    /** Where waits for data are made. */
    private final Selector selector;
    /** Bytes read ahead, between position and limit (read mode). */
    private final ByteBuffer readAhead;
    /** How a read that found nothing in the middle of a message polls before it waits. */
    private final SpinWait spin;
    private boolean endOfStream;
    private volatile boolean closed;

    private TcpByteSource(SocketChannel channel, int readAheadSize, long spinMicros) throws IOException {
        this.channel = channel;
        this.spin = new SpinWait(spinMicros);
        channel.configureBlocking(false);
        Selector s = Selector.open();
        try {
            channel.register(s, SelectionKey.OP_READ);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
        this.selector = s;
        this.readAhead = ByteBuffer.allocateDirect(readAheadSize);
        this.readAhead.limit(0);
    }

    /**
     * A source over {@code channel}, for either side of a connection. Switches the channel to
     * non-blocking mode: its sink must be one made with {@link TcpByteSink#TcpByteSink(SocketChannel,
     * TcpByteSource)}.
     *
     * @param spinMicros how long a read that needs more bytes than have arrived polls (yielding the
     *        processor) before it waits in the selector; 0: wait at once
     */
    static TcpByteSource polling(SocketChannel channel, int readAheadSize, long spinMicros) throws IOException {
        return new TcpByteSource(channel, readAheadSize, spinMicros);
    }

    /** The connection's channel (for a {@link TcpSourceWaitSet}). */
    SocketChannel channel() {
        return channel;
    }

    /** Arrays are received through a direct buffer of the reading thread, so copied once after the kernel. */
    @Override
    public boolean takesArrays() {
        return true;
    }

    /**
     * Reads through the thread's direct staging buffer (the read-ahead first, as every read), a
     * buffer-full at a time, and stores the whole elements that have arrived into the destination;
     * the bytes of an element that has not fully arrived stay at the front of the staging buffer.
     * Never reads beyond the destination's bytes.
     */
    @Override
    public void read(Buffer destination) throws IOException {
        int left = ByteViews.byteLength(destination); // bytes not yet stored into the destination
        if (left == 0) {
            return;
        }
        int width = left / destination.remaining();
        int limit = destination.limit();
        Staging st = STAGING.get();
        ByteBuffer s = st.buffer;
        int have = 0; // bytes at the front of s not yet stored (less than one element)
        while (left > 0) {
            s.limit(Math.min(s.capacity(), left)).position(have);
            have += read(s, 1);
            int whole = have / width;
            if (whole > 0) {
                destination.limit(destination.position() + whole);
                st.views.get(0, destination);
                destination.limit(limit);
                int used = whole * width;
                left -= used;
                for (int i = used; i < have; i++) {
                    s.put(i - used, s.get(i));
                }
                have -= used;
            }
        }
    }

    @Override
    public int read(ByteBuffer destination, int minimum) throws IOException {
        int total = 0;
        if (readAhead.hasRemaining()) {
            boolean full = readAhead.limit() == readAhead.capacity();
            int n = Math.min(readAhead.remaining(), destination.remaining());
            int oldLimit = readAhead.limit();
            readAhead.limit(readAhead.position() + n);
            destination.put(readAhead);
            readAhead.limit(oldLimit);
            total = n;
            if (full && !readAhead.hasRemaining() && destination.hasRemaining()) {
                // A poll filled the whole read-ahead, so more is probably waiting (a stream of
                // large messages): fetch it now, in one read, straight into the destination.
                int more = channel.read(destination);
                if (more < 0) {
                    endOfStream = true;
                } else {
                    total += more;
                }
            }
        }
        while (total < minimum) {
            if (endOfStream) {
                throw new EOFException("connection closed by the peer (" + total + " of " + minimum + " bytes read)");
            }
            int n = channel.read(destination);
            if (n < 0) {
                endOfStream = true;
            } else if (n > 0) {
                total += n;
            } else {
                // Nothing there yet. The rest of a message that has started
                // is usually on its way: poll briefly before waiting in the selector.
                n = pollBriefly(destination);
                if (n < 0) {
                    endOfStream = true;
                } else if (n > 0) {
                    total += n;
                } else {
                    awaitRestOfMessage();
                }
            }
        }
        return total;
    }

    /**
     * Waits for the rest of a message that has started. An interrupt does not cut
     * this wait short: the message would be lost half read, and with it the connection (the
     * waiting reader may be one of several threads sharing it, such as a reply reader of RMI).
     * The interrupt status is cleared while waiting (a selector returns at once for an
     * interrupted thread) and set again afterwards, for the caller to see.
     */
    private void awaitRestOfMessage() throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            select(0);
        } catch (InterruptedIOException e) {
            interrupted = true;
            Thread.interrupted();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Polls the channel briefly ({@link SpinWait}: yielding the processor between polls, which the
     * sender may need); returns what the first successful read returned, or 0.
     */
    private int pollBriefly(ByteBuffer destination) throws IOException {
        if (spin.start()) {
            while (spin.next()) {
                int n = channel.read(destination);
                if (n != 0) {
                    spin.succeeded();
                    return n;
                }
            }
        }
        return 0;
    }

    @Override
    public int available() throws IOException {
        if (readAhead.hasRemaining()) {
            return readAhead.remaining();
        }
        if (endOfStream) {
            return 0;
        }
        fetch();
        return readAhead.remaining();
    }

    /** One non-blocking read into the (empty) read-ahead buffer. */
    private void fetch() throws IOException {
        readAhead.clear();
        int n;
        try {
            n = channel.read(readAhead);
        } finally {
            readAhead.flip();
        }
        if (n < 0) {
            endOfStream = true;
        }
    }

    @Override
    public boolean awaitData(long timeoutMillis) throws IOException {
        if (readAhead.hasRemaining() || endOfStream) {
            return true;
        }
        if (timeoutMillis < 0) {
            return available() > 0 || endOfStream;
        }
        return awaitPolling(timeoutMillis);
    }

    private boolean awaitPolling(long timeoutMillis) throws IOException {
        long deadline = timeoutMillis == 0 ? 0 : System.nanoTime() + timeoutMillis * 1_000_000L;
        while (true) {
            fetch();
            if (readAhead.hasRemaining() || endOfStream) {
                return true;
            }
            long waitMillis = 0;
            if (deadline != 0) {
                long leftNanos = deadline - System.nanoTime();
                if (leftNanos <= 0) {
                    return false;
                }
                waitMillis = Math.max(1, (leftNanos + 999_999) / 1_000_000L);
            }
            select(waitMillis);
        }
    }

    /** Blocks until the channel is readable, the time is up or the source closes. */
    private void select(long timeoutMillis) throws IOException {
        if (closed) {
            throw new AsynchronousCloseException();
        }
        try {
            selector.select(IGNORE_READY_KEY, timeoutMillis);
        } catch (ClosedSelectorException e) {
            throw closedMeanwhile();
        }
        if (closed) {
            throw closedMeanwhile();
        }
        if (Thread.currentThread().isInterrupted()) {
            // A selector returns at once for an interrupted thread; do not spin on that. Nothing
            // has been consumed: the connection stays usable.
            throw new InterruptedIOException("interrupted while waiting for data on " + channel);
        }
    }

    private static AsynchronousCloseException closedMeanwhile() {
        return new AsynchronousCloseException();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        try {
            channel.close();
        } finally {
            selector.close(); // wakes a blocked reader; deregistering lets the socket really close
        }
    }
}
