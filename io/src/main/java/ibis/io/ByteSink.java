package ibis.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The byte-level output of a transport: where a {@link BlockOutputStream} sends its framed blocks.
 * A network implementation (TCP, UCX, MPI) supplies one per outgoing connection; it never interprets
 * the bytes.
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

    /** Closes the connection's output side. Idempotent. */
    @Override
    void close() throws IOException;
}
