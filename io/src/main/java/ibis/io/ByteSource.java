package ibis.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * The byte-level input of a transport: where a {@link BlockInputStream} reads framed blocks from.
 * A network implementation supplies one per incoming connection; it never interprets the bytes.
 *
 * <p>Rules every source keeps (the IPL conformance suite, {@code ibis-ipl-tck}, tests each):
 * <ul>
 * <li><b>An interrupt never breaks the connection.</b> A reader interrupted while it waits for the
 *     next message gets an {@link java.io.InterruptedIOException} with nothing consumed (its
 *     interrupt status set again), and the connection goes on; a read inside a message waits on
 *     through an interrupt (the message would be lost half read).
 * <li><b>Polling works without {@link #available()}.</b> {@link #awaitData awaitData} with a
 *     negative time-out tells, without blocking, whether data arrived; {@code available()} may
 *     always answer 0.
 * <li><b>A connection carries a few MiB while nobody reads it.</b> A thread may send a message of
 *     a few MiB (the suite uses 2 MiB) to its own receive port and receive it afterwards, so the
 *     transport (its buffers and those of the sink and this source together) must take that much
 *     before it holds the sender back; one with small buffers deadlocks there.
 * </ul>
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
     * Whether this source can read bytes straight into an application's primitive arrays, through
     * {@link #read(Buffer)}. A {@link BlockInputStream} over a source that says no (the default)
     * receives large arrays of types other than byte into its block buffer and copies them from
     * there; one over a source that says yes, when nothing is buffered, lets the source store the
     * bytes into the array, so that a transport that receives into its own (direct) buffer copies
     * them once instead of twice. The answer must not change over the source's life.
     */
    default boolean takesArrays() {
        return false;
    }

    /**
     * Reads exactly as many bytes as the remaining elements of {@code destination} take (a char,
     * short, int, long, float or double buffer wrapping an application's array, {@code
     * IntBuffer.wrap} and its siblings) and stores them into those elements, each read in this
     * JVM's native byte order (the peer's order whenever a block stream calls this); moves the
     * destination's position to its limit. Reads nothing beyond those bytes. {@link ByteViews}
     * copies from a byte buffer into such a destination without allocating.
     *
     * <p>Called only on a source whose {@link #takesArrays()} is true. This default is correct for
     * any source but receives into a new buffer on every call.
     *
     * @throws java.io.EOFException when the peer closed the connection before all the bytes
     * @throws IOException on any other connection failure
     */
    default void read(Buffer destination) throws IOException {
        int n = ByteViews.byteLength(destination);
        ByteBuffer bytes = ByteBuffer.allocate(n);
        if (n > 0) {
            read(bytes, n);
        }
        new ByteViews(bytes).get(0, destination);
    }

    /**
     * The number of bytes that can be read now without blocking (0 when none is known to be
     * available). Never blocks. A source may always answer 0: this is a hint for sizing reads,
     * never how a reader learns that data arrived; polling uses {@link #awaitData awaitData(-1)}.
     */
    int available() throws IOException;

    /**
     * Blocks until at least one byte can be read without blocking, the connection ends, or
     * {@code timeoutMillis} passed ({@code 0} means no time limit). A negative time-out is a poll:
     * it never blocks and tells whether data (or the end) is there now; a receiver's
     * {@code poll()} and the polling phase of a receive rely on it, so it must see data that
     * arrived even when {@link #available()} says 0.
     *
     * @return true when data (or end of stream) is ready, false when the time ran out (or, for a
     *         poll, nothing is there)
     */
    boolean awaitData(long timeoutMillis) throws IOException;

    /**
     * The poll of a reader that waits for data it expects soon and polls again at once when nothing
     * is there (the polling phase of a receive): {@link #awaitData awaitData(-1)}, except that a
     * source may look for data a little longer before it answers (a bounded time, about a
     * microsecond), where each poll costs the caller more than the looking itself. Never blocks;
     * not for a receiver's {@code poll()}, which must stay a single look. By default
     * {@code awaitData(-1)}.
     *
     * @return true when data (or end of stream) is ready, false when nothing is there
     */
    default boolean awaitDataSpinning() throws IOException {
        return awaitData(-1);
    }

    /** Closes the connection's input side; a blocked reader gets an IOException. Idempotent. */
    @Override
    void close() throws IOException;
}
