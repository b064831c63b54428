package ibis.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The byte-level input of a transport: where a {@link BlockInputStream} reads framed blocks from.
 * A network implementation supplies one per incoming connection; it never interprets the bytes.
 */
public interface ByteSource extends Closeable {

    /**
     * Reads bytes into {@code destination} (from its position up to its limit) until at least
     * {@code minimum} bytes have been read; may read more, up to {@code destination.remaining()}.
     *
     * @return the number of bytes read (at least {@code minimum})
     * @throws java.io.EOFException when the peer closed the connection before {@code minimum} bytes
     * @throws IOException on any other connection failure
     */
    int read(ByteBuffer destination, int minimum) throws IOException;

    /**
     * The number of bytes that can be read now without blocking (0 when none is known to be
     * available). Never blocks.
     */
    int available() throws IOException;

    /**
     * Blocks until at least one byte can be read without blocking, the connection ends, or
     * {@code timeoutMillis} passed ({@code 0} means no time limit).
     *
     * @return true when data (or end of stream) is ready, false when the time ran out
     */
    boolean awaitData(long timeoutMillis) throws IOException;

    /** Closes the connection's input side; a blocked reader gets an IOException. Idempotent. */
    @Override
    void close() throws IOException;
}
