package ibis.io;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Objects;

/**
 * Typed views of a byte buffer at every alignment, for bulk copies of primitive values into it at
 * any byte index: view {@code k} of a type of {@code w} bytes starts at byte {@code k}, so the
 * element at byte {@code i} is element {@code i / w} of view {@code i % w}. The views are made
 * once, here; a copy allocates nothing and leaves the target's position and limit alone. Used by
 * {@link BlockOutputStream} for its block buffer and by transports for their staging buffers (see
 * {@link ByteSink#write(ByteBuffer[], int, int, Buffer)}).
 */
public final class ByteViews {

    private final ByteBuffer target;
    private final CharBuffer[] chars = new CharBuffer[2];
    private final ShortBuffer[] shorts = new ShortBuffer[2];
    private final IntBuffer[] ints = new IntBuffer[4];
    private final FloatBuffer[] floats = new FloatBuffer[4];
    private final LongBuffer[] longs = new LongBuffer[8];
    private final DoubleBuffer[] doubles = new DoubleBuffer[8];

    /** Views of {@code target} (its whole capacity, from index 0) in the native byte order. */
    public ByteViews(ByteBuffer target) {
        this(target, ByteOrder.nativeOrder());
    }

    /** Views of {@code target} (its whole capacity, from index 0) storing values in {@code order}. */
    public ByteViews(ByteBuffer target, ByteOrder order) {
        this.target = Objects.requireNonNull(target, "target");
        Objects.requireNonNull(order, "order");
        int capacity = target.capacity();
        for (int k = 0; k < 8; k++) {
            ByteBuffer at = target.slice(Math.min(k, capacity), Math.max(0, capacity - k)).order(order);
            if (k < 2) {
                chars[k] = at.asCharBuffer();
                shorts[k] = at.asShortBuffer();
            }
            if (k < 4) {
                ints[k] = at.asIntBuffer();
                floats[k] = at.asFloatBuffer();
            }
            longs[k] = at.asLongBuffer();
            doubles[k] = at.asDoubleBuffer();
        }
    }

    /** Stores {@code source[offset .. offset + length)} from byte {@code index} on. */
    public void put(int index, char[] source, int offset, int length) {
        chars[index & 1].put(index >>> 1, source, offset, length);
    }

    /** Stores {@code source[offset .. offset + length)} from byte {@code index} on. */
    public void put(int index, short[] source, int offset, int length) {
        shorts[index & 1].put(index >>> 1, source, offset, length);
    }

    /** Stores {@code source[offset .. offset + length)} from byte {@code index} on. */
    public void put(int index, int[] source, int offset, int length) {
        ints[index & 3].put(index >>> 2, source, offset, length);
    }

    /** Stores {@code source[offset .. offset + length)} from byte {@code index} on. */
    public void put(int index, long[] source, int offset, int length) {
        longs[index & 7].put(index >>> 3, source, offset, length);
    }

    /** Stores {@code source[offset .. offset + length)} from byte {@code index} on. */
    public void put(int index, float[] source, int offset, int length) {
        floats[index & 3].put(index >>> 2, source, offset, length);
    }

    /** Stores {@code source[offset .. offset + length)} from byte {@code index} on. */
    public void put(int index, double[] source, int offset, int length) {
        doubles[index & 7].put(index >>> 3, source, offset, length);
    }

    /**
     * Stores the remaining elements of {@code source} (a byte, char, short, int, long, float or
     * double buffer) from byte {@code index} on, each in this object's byte order, and consumes
     * them (the source's position moves to its limit).
     *
     * @return the number of bytes stored
     * @throws IllegalArgumentException for a buffer of another kind
     * @throws IndexOutOfBoundsException when they do not fit the target from {@code index}
     */
    public int put(int index, Buffer source) {
        int n = source.remaining();
        int p = source.position();
        int bytes;
        if (source instanceof IntBuffer s) {
            ints[index & 3].put(index >>> 2, s, p, n);
            bytes = n << 2;
        } else if (source instanceof DoubleBuffer s) {
            doubles[index & 7].put(index >>> 3, s, p, n);
            bytes = n << 3;
        } else if (source instanceof LongBuffer s) {
            longs[index & 7].put(index >>> 3, s, p, n);
            bytes = n << 3;
        } else if (source instanceof FloatBuffer s) {
            floats[index & 3].put(index >>> 2, s, p, n);
            bytes = n << 2;
        } else if (source instanceof ShortBuffer s) {
            shorts[index & 1].put(index >>> 1, s, p, n);
            bytes = n << 1;
        } else if (source instanceof CharBuffer s) {
            chars[index & 1].put(index >>> 1, s, p, n);
            bytes = n << 1;
        } else if (source instanceof ByteBuffer s) {
            target.put(index, s, p, n);
            bytes = n;
        } else {
            throw new IllegalArgumentException("not a buffer of primitive values: " + source.getClass().getName());
        }
        source.position(source.limit());
        return bytes;
    }

    /**
     * The size in bytes of the remaining elements of {@code source} (a buffer {@link #put(int, Buffer)}
     * takes); {@link ArithmeticException} beyond {@code Integer.MAX_VALUE}.
     */
    public static int byteLength(Buffer source) {
        int n = source.remaining();
        if (source instanceof IntBuffer || source instanceof FloatBuffer) {
            return Math.multiplyExact(n, 4);
        }
        if (source instanceof LongBuffer || source instanceof DoubleBuffer) {
            return Math.multiplyExact(n, 8);
        }
        if (source instanceof ShortBuffer || source instanceof CharBuffer) {
            return Math.multiplyExact(n, 2);
        }
        if (source instanceof ByteBuffer) {
            return n;
        }
        throw new IllegalArgumentException("not a buffer of primitive values: " + source.getClass().getName());
    }
}
