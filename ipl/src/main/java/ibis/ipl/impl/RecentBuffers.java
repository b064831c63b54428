package ibis.ipl.impl;

import java.nio.ByteBuffer;

/**
 * The last few direct buffers an application handed a transport (to send from in place, or to
 * receive into), each with what the transport looked up for it once (its native address, a
 * wrapper): a program that alternates between a few buffers then costs no lookup (a JNI call, an
 * allocation) per message, where remembering only the last buffer cost one per message. Buffers
 * match by identity; when all {@link #SIZE} entries are taken, the oldest makes way. The entries
 * keep their buffers reachable until they make way. Used by one thread at a time.
 *
 * @param <V> what is kept per buffer
 */
public final class RecentBuffers<V> {

    /** How many buffers are remembered. */
    public static final int SIZE = 4;

    private final ByteBuffer[] buffers = new ByteBuffer[SIZE];
    private final Object[] values = new Object[SIZE];
    /** The entry the next {@link #put} replaces. */
    private int next;

    /** What was put for {@code buffer} (the same object), or null when it is not remembered. */
    @SuppressWarnings("unchecked")
    public V get(ByteBuffer buffer) {
        for (int i = 0; i < SIZE; i++) {
            if (buffers[i] == buffer) {
                return (V) values[i];
            }
        }
        return null;
    }

    /**
     * Remembers {@code value} for {@code buffer}, in place of the oldest entry.
     *
     * @return {@code value}
     */
    public V put(ByteBuffer buffer, V value) {
        buffers[next] = buffer;
        values[next] = value;
        next = (next + 1) % SIZE;
        return value;
    }

    /** Forgets every buffer. */
    public void clear() {
        java.util.Arrays.fill(buffers, null);
        java.util.Arrays.fill(values, null);
        next = 0;
    }
}
