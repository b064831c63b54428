package ibis.impl.mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A fixed number of slots, each holding one MPI request ({@code MPI_Request}) or one matched message
 * ({@code MPI_Message}, from {@link MpiBackend#improbe}). The glue keeps the handles in a direct
 * buffer (slot {@code i} at {@code address + i * slotSize}), so a request costs no Java object; the
 * bindings backend keeps its {@code mpi.Request} or {@code mpi.Message} objects in {@link #objects}.
 * Allocate the slots at set-up (per connection or per user) and reuse a slot once its request
 * completed. Not thread-safe: the owner decides which thread uses which slot.
 */
public final class MpiSlots {

    private final int count;
    private final int slotSize;
    private final long address;
    /** Keeps the glue's native memory reachable. */
    @SuppressWarnings("unused")
    private final ByteBuffer memory;
    /** The bindings backend's objects, one per slot; null for the glue. */
    final Object[] objects;

    private MpiSlots(int count, int slotSize, ByteBuffer memory, long address, Object[] objects) {
        this.count = count;
        this.slotSize = slotSize;
        this.memory = memory;
        this.address = address;
        this.objects = objects;
    }

    /** Slots in native memory, {@code slotSize} bytes each (the glue). */
    static MpiSlots inMemory(MpiBackend backend, int count, int slotSize) {
        ByteBuffer memory = ByteBuffer.allocateDirect(Math.max(1, count * slotSize)).order(ByteOrder.nativeOrder());
        return new MpiSlots(count, slotSize, memory, backend.address(memory), null);
    }

    /** Slots holding Java objects (the bindings). */
    static MpiSlots ofObjects(int count) {
        return new MpiSlots(count, 0, null, 0, new Object[count]);
    }

    /** The number of slots. */
    public int count() {
        return count;
    }

    /** The native address of slot {@code index} (the glue). */
    long address(int index) {
        if (index < 0 || index >= count) {
            throw new IndexOutOfBoundsException("slot " + index + " of " + count);
        }
        return address + (long) index * slotSize;
    }
}
