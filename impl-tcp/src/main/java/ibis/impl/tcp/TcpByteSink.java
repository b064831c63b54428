package ibis.impl.tcp;

import ibis.io.ByteSink;
import ibis.io.ByteViews;

import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * The output of a TCP connection: one gathering write of all buffers, so a block header and its
 * payload leave in one system call (and, with TCP_NODELAY, usually in one segment). Closing it
 * closes the whole socket.
 *
 * <p>Heap buffers (what the block stream hands over) are first copied into one direct buffer of
 * the writing thread and written with a plain write: the JDK would copy them into temporary direct
 * buffers anyway, and a single write is cheaper than its gathering write.
 *
 * <p>The channel is non-blocking on both sides of a connection (its {@link TcpByteSource} polls). A
 * write that finds the socket buffer full waits for room in a selector of this sink (made on the
 * first such wait) and writes on; a write that fits costs the same single system call as a
 * blocking write, and nothing is allocated per message.
 *
 * <p>Interrupts do not close the connection. A blocking write of the JDK's interruptible channels
 * would close the channel ({@code ClosedByInterruptException}) when its thread is interrupted while
 * it waits for room, breaking the connection for every later message; a non-blocking write never
 * does, and the wait in the selector only returns early. So the write goes on until everything is
 * written, and an interrupt pending when it started or arriving while it waited is set again when
 * it returns, for the caller to see (as {@link TcpByteSource} does for reads).
 */
final class TcpByteSink implements ByteSink {

    /** Largest write that goes through the staging buffer (bigger ones are rare and written as they are). */
    private static final int MAX_STAGED = 1 << 20;

    /** One direct staging buffer per writing thread, grown to the largest block it wrote. */
    private static final ThreadLocal<Staging> STAGING = ThreadLocal.withInitial(() -> new Staging(16 * 1024));

    private final SocketChannel channel;
    /** The polling source sharing the non-blocking channel; closed with this sink. */
    private final TcpByteSource pollingSource;
    /** Guards the creation and closing of {@link #writeSelector}. */
    private final Object selectorLock = new Object();
    /** Where a write waits for room in the socket buffer; made on the first wait. */
    private Selector writeSelector;
    private boolean closed;
    /** An interrupt arrived while the current write waited for room (only the writing thread uses it). */
    private boolean interruptedWhileWaiting;

    /**
     * A sink over the channel of {@code source} (which made the channel non-blocking); closing
     * this sink closes the source too, so its selector lets the socket go.
     */
    TcpByteSink(SocketChannel channel, TcpByteSource source) {
        this.channel = channel;
        this.pollingSource = source;
    }

    @Override
    public void write(ByteBuffer[] buffers, int offset, int count) throws IOException {
        write(buffers, offset, count, null);
    }

    /** Array parts are copied once, straight into the direct staging buffer. */
    @Override
    public boolean takesArrays() {
        return true;
    }

    @Override
    public void write(ByteBuffer[] buffers, int offset, int count, Buffer array) throws IOException {
        // A selector wait of an interrupted thread would return at once: the interrupt is
        // cleared while writing and set again afterwards, for the caller.
        boolean interrupted = Thread.interrupted();
        try {
            writeAll(buffers, offset, count, array);
        } finally {
            if (interrupted || interruptedWhileWaiting) {
                interruptedWhileWaiting = false;
                Thread.currentThread().interrupt();
            }
        }
    }

    private void writeAll(ByteBuffer[] buffers, int offset, int count, Buffer array) throws IOException {
        int arrayBytes = array == null ? 0 : ByteViews.byteLength(array);
        long left = arrayBytes;
        boolean heap = array != null;
        for (int i = 0; i < count; i++) {
            ByteBuffer b = buffers[offset + i];
            left += b.remaining();
            heap |= !b.isDirect();
        }
        if (heap && left <= MAX_STAGED) {
            writeStaged(buffers, offset, count, array, (int) left);
            return;
        }
        left -= arrayBytes; // written after the buffers, through the staging buffer
        while (left > 0) {
            long n = channel.write(buffers, offset, count);
            left -= n;
            if (n == 0 && left > 0) {
                awaitWritable();
            }
        }
        if (array != null) {
            writeArrayInChunks(array);
        }
    }

    /**
     * Heap buffers: the JDK would copy each into a temporary direct buffer and make a gathering
     * write of those. Copying them (and an array part) into one direct buffer of the writing thread
     * and writing that with a plain write costs the same copies (one fewer for an array part, which
     * would otherwise have been copied into the block buffer first) and a cheaper system call and
     * JDK path.
     */
    private void writeStaged(ByteBuffer[] buffers, int offset, int count, Buffer array, int total) throws IOException {
        Staging st = STAGING.get();
        if (st.buffer.capacity() < total) {
            st = new Staging(Math.max(total, Math.min(MAX_STAGED, st.buffer.capacity() * 2)));
            STAGING.set(st);
        }
        ByteBuffer staging = st.buffer;
        staging.clear();
        for (int i = 0; i < count; i++) {
            staging.put(buffers[offset + i]); // consumes the caller's buffer, as a write does
        }
        if (array != null) {
            int p = staging.position();
            staging.position(p + st.views.put(p, array));
        }
        staging.flip();
        drain(staging);
    }

    /** An array part of a block larger than {@link #MAX_STAGED}: through the staging buffer a piece at a time. */
    private void writeArrayInChunks(Buffer array) throws IOException {
        if (!array.hasRemaining()) {
            return;
        }
        Staging st = STAGING.get();
        ByteBuffer staging = st.buffer;
        int width = ByteViews.byteLength(array) / array.remaining(); // bytes per element
        int limit = array.limit();
        while (array.hasRemaining()) {
            int n = Math.min(array.remaining(), staging.capacity() / width);
            array.limit(array.position() + n);
            staging.clear();
            staging.position(st.views.put(0, array));
            array.limit(limit);
            staging.flip();
            drain(staging);
        }
    }

    private void drain(ByteBuffer staging) throws IOException {
        while (staging.hasRemaining()) {
            if (channel.write(staging) == 0) {
                awaitWritable();
            }
        }
    }

    /**
     * Waits until the socket buffer has room (or a second has passed, or the thread was
     * interrupted: the caller writes again either way). An interrupt is cleared and remembered
     * for {@link #write}, so the next wait does not return at once.
     */
    private void awaitWritable() throws IOException {
        Selector selector;
        synchronized (selectorLock) {
            if (closed) {
                throw new AsynchronousCloseException();
            }
            if (writeSelector == null) {
                Selector s = Selector.open();
                try {
                    channel.register(s, SelectionKey.OP_WRITE);
                } catch (IOException | RuntimeException e) {
                    s.close();
                    throw e;
                }
                writeSelector = s;
            }
            selector = writeSelector;
        }
        try {
            selector.select(1000);
        } catch (ClosedSelectorException e) {
            throw new AsynchronousCloseException(); // closed while waiting
        }
        if (Thread.interrupted()) {
            interruptedWhileWaiting = true;
        }
    }

    @Override
    public void close() throws IOException {
        Selector selector;
        synchronized (selectorLock) {
            closed = true;
            selector = writeSelector;
        }
        try {
            channel.close();
        } finally {
            try {
                pollingSource.close();
            } finally {
                if (selector != null) {
                    selector.close(); // wakes a write waiting in it
                }
            }
        }
    }
}
