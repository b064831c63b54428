package ibis.io;

import java.io.IOException;
import java.util.Arrays;

/**
 * Reads the elements of primitive arrays whose length came from the wire (the "ibis" input's
 * arrays and long strings), growing each array as its data arrive: a false length costs at most
 * about twice the bytes really sent, while an array of up to about twice the block buffer is still
 * allocated once, at its full size.
 */
final class PrimitiveArrayReader {

    /** Arrays up to this many bytes are allocated at once; longer ones grow as their data arrive. */
    private static final int TRUSTED_BYTES = 1 << 16;

    private final DataInput in;
    private final BlockInputStream blocks; // in, when it is one (what has arrived of the block), else null

    PrimitiveArrayReader(DataInput in, BlockInputStream blocks) {
        this.in = in;
        this.blocks = blocks;
    }

    /** Reads the elements of a primitive array of SerialClass kind {@code kind} and length {@code n}. */
    Object read(int kind, int n) throws IOException {
        switch (kind) {
            case SerialClass.BOOLEAN_ARRAY:
                return readBooleans(n);
            case SerialClass.BYTE_ARRAY:
                return readBytes(n);
            case SerialClass.CHAR_ARRAY:
                return readChars(n);
            case SerialClass.SHORT_ARRAY:
                return readShorts(n);
            case SerialClass.INT_ARRAY:
                return readInts(n);
            case SerialClass.LONG_ARRAY:
                return readLongs(n);
            case SerialClass.FLOAT_ARRAY:
                return readFloats(n);
            default:
                return readDoubles(n);
        }
    }

    /**
     * First allocation for an array of n elements of the given size: all of it, or a trusted chunk.
     * Trusted: {@link #TRUSTED_BYTES} plus the bytes of the current block that have arrived (the
     * block stream first buffers as much of the rest as it can hold), so an array up to about twice
     * the block buffer is allocated once, at its full size, while a false length still costs at
     * most about twice the bytes really sent.
     */
    private int firstChunk(int n, int elementSize) throws IOException {
        long bytes = (long) n * elementSize;
        if (bytes <= TRUSTED_BYTES) {
            return n;
        }
        long trusted = TRUSTED_BYTES
                + (blocks != null ? blocks.prefetch((int) Math.min(bytes - TRUSTED_BYTES, Integer.MAX_VALUE)) : 0);
        return bytes <= trusted ? n : (int) (trusted / elementSize);
    }

    private static int grown(int have, int n) {
        return (int) Math.min(n, 2L * have);
    }

    private boolean[] readBooleans(int n) throws IOException {
        boolean[] a = new boolean[firstChunk(n, 1)];
        for (int done = 0; done < n;) {
            if (done == a.length) {
                a = Arrays.copyOf(a, grown(a.length, n));
            }
            int k = a.length - done;
            in.readArray(a, done, k);
            done += k;
        }
        return a;
    }

    byte[] readBytes(int n) throws IOException {
        byte[] a = new byte[firstChunk(n, 1)];
        for (int done = 0; done < n;) {
            if (done == a.length) {
                a = Arrays.copyOf(a, grown(a.length, n));
            }
            int k = a.length - done;
            in.readArray(a, done, k);
            done += k;
        }
        return a;
    }

    char[] readChars(int n) throws IOException {
        char[] a = new char[firstChunk(n, 2)];
        for (int done = 0; done < n;) {
            if (done == a.length) {
                a = Arrays.copyOf(a, grown(a.length, n));
            }
            int k = a.length - done;
            in.readArray(a, done, k);
            done += k;
        }
        return a;
    }

    private short[] readShorts(int n) throws IOException {
        short[] a = new short[firstChunk(n, 2)];
        for (int done = 0; done < n;) {
            if (done == a.length) {
                a = Arrays.copyOf(a, grown(a.length, n));
            }
            int k = a.length - done;
            in.readArray(a, done, k);
            done += k;
        }
        return a;
    }

    private int[] readInts(int n) throws IOException {
        int[] a = new int[firstChunk(n, 4)];
        for (int done = 0; done < n;) {
            if (done == a.length) {
                a = Arrays.copyOf(a, grown(a.length, n));
            }
            int k = a.length - done;
            in.readArray(a, done, k);
            done += k;
        }
        return a;
    }

    private long[] readLongs(int n) throws IOException {
        long[] a = new long[firstChunk(n, 8)];
        for (int done = 0; done < n;) {
            if (done == a.length) {
                a = Arrays.copyOf(a, grown(a.length, n));
            }
            int k = a.length - done;
            in.readArray(a, done, k);
            done += k;
        }
        return a;
    }

    private float[] readFloats(int n) throws IOException {
        float[] a = new float[firstChunk(n, 4)];
        for (int done = 0; done < n;) {
            if (done == a.length) {
                a = Arrays.copyOf(a, grown(a.length, n));
            }
            int k = a.length - done;
            in.readArray(a, done, k);
            done += k;
        }
        return a;
    }

    private double[] readDoubles(int n) throws IOException {
        double[] a = new double[firstChunk(n, 8)];
        for (int done = 0; done < n;) {
            if (done == a.length) {
                a = Arrays.copyOf(a, grown(a.length, n));
            }
            int k = a.length - done;
            in.readArray(a, done, k);
            done += k;
        }
        return a;
    }
}
