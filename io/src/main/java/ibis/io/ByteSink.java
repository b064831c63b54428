package ibis.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The byte-level output of a transport: where a {@link BlockOutputStream} sends its framed blocks.
 * A network implementation (TCP, UCX, MPI) supplies one per outgoing connection; it never interprets
 * the bytes.
 *
 * <p>Rules every sink keeps (the IPL conformance suite, {@code ibis-ipl-tck}, tests each):
 * <ul>
 * <li><b>An interrupt never breaks the connection.</b> A write goes on until everything is written,
 *     also when its thread is interrupted before or while it waits for room (a blocking write of
 *     the JDK's interruptible channels would close the channel then); the interrupt status is set
 *     again when it returns, for the caller to see.
 * <li><b>A connection carries a few MiB while nobody reads it</b> (see {@link ByteSource}): a sink
 *     that cannot hand more to the peer waits for room, it never fails or drops bytes for it.
 * </ul>
 */
public interface ByteSink extends Closeable {

    /**
     * Writes all remaining bytes of {@code buffers[offset .. offset + count)}, in order, as one
     * gathering write. On return every buffer has been consumed (position == limit) and may be
     * reused by the caller.
     *
     * @throws IOException when the connection is broken; the sink is unusable afterwards
     */
    void write(ByteBuffer[] buffers, int offset, int count) throws IOException;

    /**
     * Whether this sink wants the primitive arrays of a block handed over as they are, through
     * {@link #write(ByteBuffer[], int, int, Buffer)}. A {@link BlockOutputStream} over a sink that
     * says no (the default) copies them into its block buffer; one over a sink that says yes sends a
     * block that a large array completes with the array itself, and the sink copies it at most once,
     * to where it must go (a transport's direct staging buffer, a registered memory region). The
     * answer must not change over the sink's life.
     */
    default boolean takesArrays() {
        return false;
    }

    /**
     * Whether this sink sends a large part that ends a gathering write (the third and last buffer of
     * {@link #write(ByteBuffer[], int, int)}, at least 4 KiB) as a transport message of its own,
     * apart from the header and buffered bytes before it, so that the receiving transport can put it
     * straight into the reader's memory (MPI, UCX: a direct buffer the application reads into). A
     * {@link BlockOutputStream} over such a sink hands large {@code writeByteBuffer} data over by
     * reference instead of copying it into its block buffer; before the write returns, the sink
     * either copies it (once, into its staging memory) or is done sending it from where it is. Either
     * way a sender's {@code finish()} must not wait for the receiving application to read: a sink
     * sends in place only where the receiving process takes its messages regardless (MPI, UCX). The
     * default says no: a sink that writes a byte stream (TCP) gains nothing from it and would pay an
     * extra write for the block that ends the message. Asked at each such write; the answer may
     * change between messages only (a sink that forwards to connections answers for those of the
     * current message).
     */
    default boolean partsAsMessages() {
        return false;
    }

    /**
     * Writes all remaining bytes of {@code buffers[offset .. offset + count)}, then the remaining
     * elements of {@code array}, in order, as one gathering write: the same bytes as if the
     * elements had been stored into one more byte buffer in this JVM's native byte order (which is
     * the order of the block stream's payload whenever it calls this). {@code array} is a char,
     * short, int, long, float or double buffer wrapping an application's array ({@code
     * IntBuffer.wrap} and its siblings, so in native order); {@link ByteViews} copies it into a byte
     * buffer without allocating. On return the buffers and {@code array} have been consumed
     * (position == limit); the sink must not keep a reference to the array.
     *
     * <p>Called only on a sink whose {@link #takesArrays()} is true. This default is correct for any
     * sink but copies the elements into a new buffer on every call.
     *
     * @throws IOException when the connection is broken; the sink is unusable afterwards
     */
    default void write(ByteBuffer[] buffers, int offset, int count, Buffer array) throws IOException {
        ByteBuffer copy = ByteBuffer.allocate(ByteViews.byteLength(array));
        new ByteViews(copy).put(0, array);
        ByteBuffer[] all = Arrays.copyOfRange(buffers, offset, offset + count + 1);
        all[count] = copy;
        write(all, 0, count + 1);
    }

    /** Closes the connection's output side. Idempotent. */
    @Override
    void close() throws IOException;
}
