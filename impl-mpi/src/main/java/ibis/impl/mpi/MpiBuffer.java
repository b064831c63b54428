package ibis.impl.mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A direct buffer that MPI reads from or writes into, with its native address looked up once at
 * set-up: the glue backend passes the address, the bindings backend the buffer itself. Create one
 * per buffer when a connection or user is set up, never per message.
 *
 * <p>The buffer's position and limit are ignored by MPI: every operation names an offset and a
 * length.
 */
public final class MpiBuffer {

    private final ByteBuffer buffer;
    private final long address;

    private MpiBuffer(ByteBuffer buffer, long address) {
        this.buffer = buffer;
        this.address = address;
    }

    /**
     * Wraps a direct buffer.
     *
     * @param process the process whose backend will use the buffer
     * @param direct a direct buffer
     * @throws IllegalArgumentException when the buffer is not direct
     */
    public static MpiBuffer wrap(MpiProcess process, ByteBuffer direct) {
        if (!direct.isDirect()) {
            throw new IllegalArgumentException("MPI buffers must be direct: " + direct);
        }
        return new MpiBuffer(direct, process.backend().address(direct));
    }

    /**
     * Allocates a direct buffer of {@code capacity} bytes in native byte order and wraps it.
     *
     * @param process the process whose backend will use the buffer
     */
    public static MpiBuffer allocate(MpiProcess process, int capacity) {
        return wrap(process, ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder()));
    }

    /** The direct buffer. */
    public ByteBuffer buffer() {
        return buffer;
    }

    /** Its native address (0 for a backend that does not use addresses). */
    public long address() {
        return address;
    }

    /** Its capacity in bytes. */
    public int capacity() {
        return buffer.capacity();
    }

    /**
     * Checks that {@code [offset, offset + length)} lies inside the buffer: MPI would write past its
     * end otherwise.
     *
     * @throws IndexOutOfBoundsException when it does not
     */
    void check(int offset, int length) {
        if (offset < 0 || length < 0 || offset > buffer.capacity() - length) {
            throw new IndexOutOfBoundsException("offset " + offset + " length " + length + " in a buffer of "
                    + buffer.capacity() + " bytes");
        }
    }
}
