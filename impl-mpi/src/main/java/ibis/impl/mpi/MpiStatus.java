package ibis.impl.mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The status of a completed receive or a matched probe: sender, tag, byte count and whether a
 * cancel succeeded. A record of four native-order ints in a direct buffer, which the glue backend
 * fills from C (the address is looked up once) and the bindings backend from Java. Reuse one per
 * thread or per connection; it is not thread-safe.
 */
public final class MpiStatus {

    private final ByteBuffer record;
    private final long address;

    MpiStatus(long address, ByteBuffer record) {
        this.record = record;
        this.address = address;
    }

    /** A fresh record whose address {@code backend} uses. */
    static MpiStatus create(MpiBackend backend) {
        ByteBuffer record = ByteBuffer.allocateDirect(MpiNative.STATUS_BYTES).order(ByteOrder.nativeOrder());
        return new MpiStatus(backend.address(record), record);
    }

    /** The address of the record, for the glue. */
    long address() {
        return address;
    }

    /** The sender's rank. */
    public int source() {
        return record.getInt(MpiNative.STATUS_SOURCE);
    }

    /** The message's tag. */
    public int tag() {
        return record.getInt(MpiNative.STATUS_TAG);
    }

    /** The number of bytes received (or, after a probe, the message's length). */
    public int count() {
        return record.getInt(MpiNative.STATUS_COUNT);
    }

    /** Whether the request was cancelled (after {@link MpiBackend#cancel} and its completion). */
    public boolean cancelled() {
        return record.getInt(MpiNative.STATUS_CANCELLED) != 0;
    }

    /** Stores all four fields (the bindings backend). */
    void set(int source, int tag, int count, boolean cancelled) {
        record.putInt(MpiNative.STATUS_SOURCE, source);
        record.putInt(MpiNative.STATUS_TAG, tag);
        record.putInt(MpiNative.STATUS_COUNT, count);
        record.putInt(MpiNative.STATUS_CANCELLED, cancelled ? 1 : 0);
    }

    @Override
    public String toString() {
        return "source " + source() + " tag " + tag() + " count " + count() + (cancelled() ? " cancelled" : "");
    }
}
