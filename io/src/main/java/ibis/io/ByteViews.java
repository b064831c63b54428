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

    /** Fills {@code destination[offset .. offset + length)} from the values at byte {@code index} on. */
    public void get(int index, char[] destination, int offset, int length) {
        chars[index & 1].get(index >>> 1, destination, offset, length);
    }

    /** Fills {@code destination[offset .. offset + length)} from the values at byte {@code index} on. */
    public void get(int index, short[] destination, int offset, int length) {
        shorts[index & 1].get(index >>> 1, destination, offset, length);
    }

    /** Fills {@code destination[offset .. offset + length)} from the values at byte {@code index} on. */
    public void get(int index, int[] destination, int offset, int length) {
        ints[index & 3].get(index >>> 2, destination, offset, length);
    }

    /** Fills {@code destination[offset .. offset + length)} from the values at byte {@code index} on. */
    public void get(int index, long[] destination, int offset, int length) {
        longs[index & 7].get(index >>> 3, destination, offset, length);
    }

    /** Fills {@code destination[offset .. offset + length)} from the values at byte {@code index} on. */
    public void get(int index, float[] destination, int offset, int length) {
        floats[index & 3].get(index >>> 2, destination, offset, length);
    }

    /** Fills {@code destination[offset .. offset + length)} from the values at byte {@code index} on. */
    public void get(int index, double[] destination, int offset, int length) {
        doubles[index & 7].get(index >>> 3, destination, offset, length);
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
        return transfer(index, source, true);
    }

    /**
     * Fills the remaining elements of {@code destination} (a buffer of a kind {@link #put(int,
     * Buffer)} takes) from the values at byte {@code index} on, read in this object's byte order,
     * and moves its position to its limit.
     *
     * @return the number of bytes read
     */
    public int get(int index, Buffer destination) {
        return transfer(index, destination, false);
    }

    private int transfer(int index, Buffer other, boolean store) {
        int n = other.remaining();
        int p = other.position();
        int bytes;
        if (other instanceof IntBuffer o) {
            IntBuffer v = ints[index & 3];
            if (store) {
                v.put(index >>> 2, o, p, n);
            } else {
                o.put(p, v, index >>> 2, n);
            }
            bytes = n << 2;
        } else if (other instanceof DoubleBuffer o) {
            DoubleBuffer v = doubles[index & 7];
            if (store) {
                v.put(index >>> 3, o, p, n);
            } else {
                o.put(p, v, index >>> 3, n);
            }
            bytes = n << 3;
        } else if (other instanceof LongBuffer o) {
            LongBuffer v = longs[index & 7];
            if (store) {
                v.put(index >>> 3, o, p, n);
            } else {
                o.put(p, v, index >>> 3, n);
            }
            bytes = n << 3;
        } else if (other instanceof FloatBuffer o) {
            FloatBuffer v = floats[index & 3];
            if (store) {
                v.put(index >>> 2, o, p, n);
            } else {
                o.put(p, v, index >>> 2, n);
            }
            bytes = n << 2;
        } else if (other instanceof ShortBuffer o) {
            ShortBuffer v = shorts[index & 1];
            if (store) {
                v.put(index >>> 1, o, p, n);
            } else {
                o.put(p, v, index >>> 1, n);
            }
            bytes = n << 1;
        } else if (other instanceof CharBuffer o) {
            CharBuffer v = chars[index & 1];
            if (store) {
                v.put(index >>> 1, o, p, n);
            } else {
                o.put(p, v, index >>> 1, n);
            }
            bytes = n << 1;
        } else if (other instanceof ByteBuffer o) {
            if (store) {
                target.put(index, o, p, n);
            } else {
                o.put(p, target, index, n);
            }
            bytes = n;
        } else {
            throw new IllegalArgumentException("not a buffer of primitive values: " + other.getClass().getName());
        }
        other.position(other.limit());
        return bytes;
    }

    /**
     * A buffer over the whole of {@code array}, a primitive array other than boolean[] ({@code
     * IntBuffer.wrap} and its siblings): what {@link ByteSink#write(ByteBuffer[], int, int, Buffer)}
     * and {@link ByteSource#read(Buffer)} take.
     *
     * @throws IllegalArgumentException for anything else
     */
    public static Buffer wrap(Object array) {
        if (array instanceof int[] a) {
            return IntBuffer.wrap(a);
        } else if (array instanceof double[] a) {
            return DoubleBuffer.wrap(a);
        } else if (array instanceof long[] a) {
            return LongBuffer.wrap(a);
        } else if (array instanceof float[] a) {
            return FloatBuffer.wrap(a);
        } else if (array instanceof short[] a) {
            return ShortBuffer.wrap(a);
        } else if (array instanceof char[] a) {
            return CharBuffer.wrap(a);
        } else if (array instanceof byte[] a) {
            return ByteBuffer.wrap(a);
        }
        throw new IllegalArgumentException("not an array of primitive values other than boolean: " + array);
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
