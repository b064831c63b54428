package ibis.io;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertThrows;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Random;

import org.testng.annotations.Test;

/** {@link ByteViews}: typed bulk copies into a byte buffer at any byte index. */
public class ByteViewsTest {

    /**
     * Every kind of source, at every alignment, into heap and direct targets and back, from a
     * source that does not start at 0.
     */
    @Test
    public void aBufferOfEachTypeIsStoredAtAnyIndexAsItsValuesOneByOneAndConsumed() {
        Random r = new Random(5);
        int n = 37;
        for (boolean direct : new boolean[] {false, true}) {
            for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
                ByteBuffer target = direct ? ByteBuffer.allocateDirect(400) : ByteBuffer.allocate(400);
                ByteViews views = new ByteViews(target, order);
                for (int index = 0; index < 8; index++) {
                    Buffer[] sources = {
                        CharBuffer.wrap(randomChars(r, n)), ShortBuffer.wrap(randomShorts(r, n)),
                        IntBuffer.wrap(r.ints(n).toArray()), LongBuffer.wrap(r.longs(n).toArray()),
                        FloatBuffer.wrap(randomFloats(r, n)), DoubleBuffer.wrap(r.doubles(n).toArray()),
                        ByteBuffer.wrap(randomBytes(r, n)),
                    };
                    for (Buffer source : sources) {
                        source.position(3).limit(n - 2);
                        ByteBuffer expected = ByteBuffer.allocate(400).order(order);
                        expected.position(index);
                        int width = storeOneByOne(source.duplicate(), expected);
                        int elements = source.remaining();
                        assertEquals(ByteViews.byteLength(source), elements * width);
                        target.clear();
                        for (int i = 0; i < target.capacity(); i++) {
                            target.put(i, (byte) 0);
                        }
                        int stored = views.put(index, source);
                        String what = source.getClass().getSimpleName() + " at " + index + ", " + order
                                + (direct ? ", direct" : "");
                        assertEquals(stored, elements * width, what);
                        assertEquals(source.position(), source.limit(), what);
                        assertEquals(target.position(), 0, what);
                        for (int i = 0; i < 400; i++) {
                            assertEquals(target.get(i), expected.get(i), what + ", byte " + i);
                        }
                        // And back: get fills a buffer of the same kind with the same values.
                        Object array = source.array();
                        Buffer back = ByteViews.wrap(
                                java.lang.reflect.Array.newInstance(array.getClass().getComponentType(), n));
                        back.position(3).limit(n - 2);
                        assertEquals(views.get(index, back), stored, what);
                        assertEquals(back.position(), n - 2, what);
                        for (int i = 3; i < n - 2; i++) {
                            assertEquals(java.lang.reflect.Array.get(back.array(), i),
                                    java.lang.reflect.Array.get(array, i), what + ", element " + i);
                        }
                    }
                }
            }
        }
    }

    @Test
    public void arraysAreStoredLikeTheirBuffersAndOverflowsAreRejected() {
        ByteBuffer target = ByteBuffer.allocate(64);
        ByteViews views = new ByteViews(target);
        int[] values = {1, 2, 3, 4, 5};
        views.put(5, values, 1, 3);
        ByteBuffer expected = ByteBuffer.allocate(64).order(ByteOrder.nativeOrder());
        expected.putInt(5, 2).putInt(9, 3).putInt(13, 4);
        assertEquals(target.array(), expected.array());
        assertThrows(IndexOutOfBoundsException.class, () -> views.put(60, values, 0, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> views.put(0, DoubleBuffer.wrap(new double[9])));
        assertThrows(IndexOutOfBoundsException.class, () -> views.get(60, IntBuffer.wrap(new int[2])));
        assertThrows(IllegalArgumentException.class, () -> ByteViews.wrap(new boolean[1]));
    }

    private static int storeOneByOne(Buffer source, ByteBuffer into) {
        int width = 0;
        while (source.hasRemaining()) {
            if (source instanceof CharBuffer s) {
                into.putChar(s.get());
                width = 2;
            } else if (source instanceof ShortBuffer s) {
                into.putShort(s.get());
                width = 2;
            } else if (source instanceof IntBuffer s) {
                into.putInt(s.get());
                width = 4;
            } else if (source instanceof LongBuffer s) {
                into.putLong(s.get());
                width = 8;
            } else if (source instanceof FloatBuffer s) {
                into.putFloat(s.get());
                width = 4;
            } else if (source instanceof DoubleBuffer s) {
                into.putDouble(s.get());
                width = 8;
            } else {
                into.put(((ByteBuffer) source).get());
                width = 1;
            }
        }
        return width;
    }

    private static char[] randomChars(Random r, int n) {
        char[] a = new char[n];
        for (int i = 0; i < n; i++) {
            a[i] = (char) r.nextInt();
        }
        return a;
    }

    private static short[] randomShorts(Random r, int n) {
        short[] a = new short[n];
        for (int i = 0; i < n; i++) {
            a[i] = (short) r.nextInt();
        }
        return a;
    }

    private static float[] randomFloats(Random r, int n) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = r.nextFloat() * 1e6f - 5e5f;
        }
        return a;
    }

    private static byte[] randomBytes(Random r, int n) {
        byte[] a = new byte[n];
        r.nextBytes(a);
        return a;
    }
}
