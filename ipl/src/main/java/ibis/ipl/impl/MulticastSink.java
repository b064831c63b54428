package ibis.ipl.impl;

import ibis.io.ByteSink;
import ibis.io.ByteViews;

import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * The sink under a send port's block stream: writes every block to each connection of the port.
 * It never throws for a broken connection: the connection is marked failed
 * ({@link SendConnection#failure}), skipped from then on, and the port reports it when the message
 * is finished, so that one dead receiver does not stop delivery to the others and the block stream
 * above stays consistent.
 *
 * <p>Only the thread that holds the send port's message slot uses it. The hot path allocates
 * nothing: with one connection the buffers are passed straight through. With several, a block that
 * has heap bytes (the block buffer, an application's array) is first copied once into this sink's
 * direct staging buffer, which then goes to every connection: a transport writes a direct buffer
 * as it is, so a multicast to N receivers copies the block once instead of N times (each TCP sink
 * would otherwise copy it into its own staging buffer). Blocks larger than {@link #MAX_STAGED}
 * go to each connection as they are, their positions saved and restored between connections.
 */
final class MulticastSink implements ByteSink {

    private static final SendConnection[] NONE = new SendConnection[0];

    /** Largest block staged once for all connections (a block is at most a block buffer plus an array part). */
    static final int MAX_STAGED = 1 << 20;

    private SendConnection[] targets = NONE;
    private int[] positions = new int[8];
    private int failures;
    /** The block as one direct buffer for all connections (grown to the largest block staged). */
    private ByteBuffer staging;
    private ByteViews stagingViews;
    /** The one-element array the staged block is handed to each connection in. */
    private final ByteBuffer[] staged = new ByteBuffer[1];

    /** Sets the connections that the following blocks go to (the caller holds the message slot). */
    void setTargets(SendConnection[] connections) {
        this.targets = connections;
    }

    /** The number of connections that failed since the last {@link #clearFailures()}. */
    int failures() {
        return failures;
    }

    void clearFailures() {
        failures = 0;
    }

    /** True when every target failed (or there is none), so nothing written reaches anybody. */
    boolean nobodyLeft() {
        for (SendConnection c : targets) {
            if (c.failure == null) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void write(ByteBuffer[] buffers, int offset, int count) throws IOException {
        write(buffers, offset, count, null);
    }

    /**
     * Array parts go on to each connection's sink as they are; a sink that does not take arrays
     * copies them itself (the {@link ByteSink} default).
     */
    @Override
    public boolean takesArrays() {
        return true;
    }

    /**
     * What the one connection's sink says (a transport that sends a large part as a message of its
     * own, MPI or UCX, lets its receiver put it straight into a direct buffer); no for several
     * connections, whose blocks are staged once for all of them anyway.
     */
    @Override
    public boolean partsAsMessages() {
        SendConnection[] to = targets;
        return to.length == 1 && to[0].failure == null && to[0].ends.sink().partsAsMessages();
    }

    @Override
    public void write(ByteBuffer[] buffers, int offset, int count, Buffer array) throws IOException {
        SendConnection[] to = targets;
        if (to.length == 1) {
            // The common one-to-one case: no bookkeeping beyond the failure check.
            SendConnection c = to[0];
            if (c.failure == null) {
                try {
                    writeTo(c.ends.sink(), buffers, offset, count, array);
                    return;
                } catch (IOException e) {
                    fail(c, e);
                }
            }
            consume(buffers, offset, count, array);
            return;
        }
        if (stage(buffers, offset, count, array)) {
            for (SendConnection c : to) {
                if (c.failure != null) {
                    continue;
                }
                staging.position(0);
                try {
                    c.ends.sink().write(staged, 0, 1);
                } catch (IOException e) {
                    fail(c, e);
                }
            }
            consume(buffers, offset, count, array);
            return;
        }
        if (positions.length < count) {
            positions = new int[Math.max(count, positions.length * 2)];
        }
        for (int i = 0; i < count; i++) {
            positions[i] = buffers[offset + i].position();
        }
        int arrayPosition = array == null ? 0 : array.position();
        boolean first = true;
        for (SendConnection c : to) {
            if (c.failure != null) {
                continue;
            }
            if (!first) {
                for (int i = 0; i < count; i++) {
                    buffers[offset + i].position(positions[i]);
                }
                if (array != null) {
                    array.position(arrayPosition);
                }
            }
            first = false;
            try {
                writeTo(c.ends.sink(), buffers, offset, count, array);
            } catch (IOException e) {
                fail(c, e);
            }
        }
        consume(buffers, offset, count, array);
    }

    /**
     * Copies the block into the direct staging buffer (without consuming the caller's buffers)
     * when it has heap bytes and at most {@link #MAX_STAGED} bytes; {@code staged[0]} then holds it.
     *
     * @return whether the block was staged
     */
    private boolean stage(ByteBuffer[] buffers, int offset, int count, Buffer array) {
        long total = array == null ? 0 : ByteViews.byteLength(array);
        boolean heap = array != null;
        for (int i = 0; i < count; i++) {
            ByteBuffer b = buffers[offset + i];
            total += b.remaining();
            heap |= !b.isDirect();
        }
        if (!heap || total > MAX_STAGED) {
            return false;
        }
        if (staging == null || staging.capacity() < total) {
            int capacity = (int) Math.max(total, Math.min(MAX_STAGED, staging == null ? 16 * 1024
                    : staging.capacity() * 2L));
            staging = ByteBuffer.allocateDirect(capacity);
            stagingViews = new ByteViews(staging);
            staged[0] = staging;
        }
        staging.clear();
        for (int i = 0; i < count; i++) {
            ByteBuffer b = buffers[offset + i];
            staging.put(staging.position(), b, b.position(), b.remaining());
            staging.position(staging.position() + b.remaining());
        }
        if (array != null) {
            int p = array.position();
            staging.position(staging.position() + stagingViews.put(staging.position(), array));
            array.position(p); // consumed by consume() with the buffers
        }
        staging.flip();
        return true;
    }

    private static void writeTo(ByteSink sink, ByteBuffer[] buffers, int offset, int count, Buffer array)
            throws IOException {
        if (array == null) {
            sink.write(buffers, offset, count);
        } else {
            sink.write(buffers, offset, count, array);
        }
    }

    private void fail(SendConnection c, IOException e) {
        c.failure = e;
        failures++;
    }

    private static void consume(ByteBuffer[] buffers, int offset, int count, Buffer array) {
        for (int i = 0; i < count; i++) {
            ByteBuffer b = buffers[offset + i];
            b.position(b.limit());
        }
        if (array != null) {
            array.position(array.limit());
        }
    }

    /** The connections are owned and closed by the send port, not by the block stream. */
    @Override
    public void close() {
    }
}
