package ibis.impl.ucx;

import ibis.io.ByteViews;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A direct buffer that UCX sends from or receives into, its native address and typed views for
 * array parts (the stream's byte order: big-endian): a sink's staging buffer, or a source's buffer
 * of received bytes. Made once and reused.
 */
final class UcxStaging {

    final ByteBuffer buffer;
    /** The address of the buffer's first byte (0 for an empty buffer). */
    final long address;
    final ByteViews views;

    UcxStaging(int capacity) {
        buffer = ByteBuffer.allocateDirect(capacity).order(ByteOrder.BIG_ENDIAN);
        address = capacity == 0 ? 0 : UcxWorker.address(buffer);
        views = new ByteViews(buffer);
    }

    int capacity() {
        return buffer.capacity();
    }
}
