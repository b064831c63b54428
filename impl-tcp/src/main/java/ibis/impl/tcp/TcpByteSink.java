package ibis.impl.tcp;

import ibis.io.ByteSink;
import ibis.io.ByteViews;

import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
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
 * <p>On the sending side of a connection the channel is blocking and a write returns when
 * everything is in the socket buffer. On the receiving side the channel is non-blocking (its
 * {@link TcpByteSource} polls), and this sink writes only the handshake reply; should the socket
 * buffer ever be full, it waits for room in a selector made for that purpose.
 *
 * <p>Interrupts: an interrupt pending when a write starts does not close the channel (it is
 * cleared during the write and set again afterwards). One that arrives while a blocking write
 * waits for room in a full socket buffer still closes it, as the JDK's interruptible channels do.
 */
final class TcpByteSink implements ByteSink {

    /** Largest write that goes through the staging buffer (bigger ones are rare and written as they are). */
    private static final int MAX_STAGED = 1 << 20;

    /** One direct staging buffer per writing thread, grown to the largest block it wrote. */
    private static final ThreadLocal<Staging> STAGING = ThreadLocal.withInitial(() -> new Staging(16 * 1024));

    private final SocketChannel channel;
    /** The polling source sharing a non-blocking channel, or null for a blocking channel. */
    private final TcpByteSource pollingSource;
    private Selector writeSelector;

    /** A sink over a blocking channel. */
    TcpByteSink(SocketChannel channel) {
        this(channel, null);
    }

    /**
     * A sink over the channel of {@code source}; when that source polls (non-blocking channel),
     * closing this sink closes the source too, so its selector lets the socket go.
     */
    TcpByteSink(SocketChannel channel, TcpByteSource source) {
        this.channel = channel;
        this.pollingSource = source != null && source.isPolling() ? source : null;
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
        // A blocking write of an interrupted thread would close the channel
        // (ClosedByInterruptException), breaking the connection for every later message, and a
        // selector wait would return at once. A pending interrupt is kept for the caller instead.
        boolean interrupted = Thread.interrupted();
        try {
            writeAll(buffers, offset, count, array);
        } finally {
            if (interrupted) {
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
        // A blocking channel normally writes everything at once; loop for partial writes.
        left -= arrayBytes; // written after the buffers, through the staging buffer
        while (left > 0) {
            long n = channel.write(buffers, offset, count);
            left -= n;
            if (n == 0 && left > 0 && pollingSource != null) {
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
            if (channel.write(staging) == 0 && pollingSource != null) {
                awaitWritable();
            }
        }
    }

    private synchronized void awaitWritable() throws IOException {
        if (writeSelector == null) {
            writeSelector = Selector.open();
            channel.register(writeSelector, SelectionKey.OP_WRITE);
        }
        writeSelector.select(1000);
    }

    @Override
    public void close() throws IOException {
        try {
            channel.close();
        } finally {
            try {
                if (pollingSource != null) {
                    pollingSource.close();
                }
            } finally {
                closeWriteSelector();
            }
        }
    }

    private synchronized void closeWriteSelector() throws IOException {
        if (writeSelector != null) {
            writeSelector.close();
        }
    }
}
