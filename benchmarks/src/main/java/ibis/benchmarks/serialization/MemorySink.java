package ibis.benchmarks.serialization;

import ibis.io.ByteSink;
import ibis.io.ByteViews;

import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * An in-memory {@link ByteSink}: the transport of the serialization suite. In its normal mode it
 * consumes the blocks it is given without copying them (a transport that costs nothing, so the
 * benchmark times the serialization alone) and counts their bytes; in recording mode it keeps a
 * copy of every byte, so that a {@link ReplaySource} can play a message back to a reader.
 */
final class MemorySink implements ByteSink {

    private final boolean recording;
    private byte[] recorded = new byte[1024];
    private int size;
    private long total;

    /** A sink that only counts ({@code recording == false}) or also keeps the bytes. */
    MemorySink(boolean recording) {
        this.recording = recording;
    }

    @Override
    public void write(ByteBuffer[] buffers, int offset, int count) {
        for (int i = offset; i < offset + count; i++) {
            ByteBuffer b = buffers[i];
            int n = b.remaining();
            total += n;
            if (recording) {
                if (size + n > recorded.length) {
                    recorded = Arrays.copyOf(recorded, Math.max(2 * recorded.length, size + n));
                }
                b.get(recorded, size, n);
                size += n;
            } else {
                b.position(b.limit());
            }
        }
    }

    /**
     * Array parts as they are, as a transport takes them (the TCP sink copies them once, into its
     * direct staging buffer): counted, and recorded in the recording mode.
     */
    @Override
    public boolean takesArrays() {
        return true;
    }

    @Override
    public void write(ByteBuffer[] buffers, int offset, int count, Buffer array) throws IOException {
        if (recording) {
            ByteSink.super.write(buffers, offset, count, array); // a copy, then write() records it
            return;
        }
        write(buffers, offset, count);
        total += ByteViews.byteLength(array);
        array.position(array.limit());
    }

    /** The bytes recorded since the last call (recording mode), and forgets them. */
    byte[] take() {
        byte[] result = Arrays.copyOf(recorded, size);
        size = 0;
        return result;
    }

    /** All bytes written to this sink so far (block headers included). */
    long total() {
        return total;
    }

    @Override
    public void close() {
    }
}
