package ibis.benchmarks.ipl;

import java.nio.ByteBuffer;

/** The array types of the throughput benchmark, each sent as messages of {@link #MESSAGE_BYTES}. */
enum ArrayKind {
    /** {@code byte[102400]}. */
    BYTE(1),
    /** {@code int[25600]}. */
    INT(Integer.BYTES),
    /** {@code double[12800]}. */
    DOUBLE(Double.BYTES);

    /** 100 KB of payload per message, as in Table 3 of "Ibis: an Efficient Java-based Grid Programming Environment". */
    static final int MESSAGE_BYTES = 100 * 1024;

    private final int elementBytes;

    ArrayKind(int elementBytes) {
        this.elementBytes = elementBytes;
    }

    /** Number of elements in one message's array. */
    int elements() {
        return MESSAGE_BYTES / elementBytes;
    }

    /** A freshly filled array of this kind (so the data is not all zeros). */
    Object newArray() {
        int n = elements();
        switch (this) {
            case BYTE -> {
                byte[] a = new byte[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (byte) i;
                }
                return a;
            }
            case INT -> {
                int[] a = new int[n];
                for (int i = 0; i < n; i++) {
                    a[i] = i * 31;
                }
                return a;
            }
            default -> {
                double[] a = new double[n];
                for (int i = 0; i < n; i++) {
                    a[i] = i * 0.5;
                }
                return a;
            }
        }
    }

    /** Puts the array's elements into the buffer (big-endian, as DataOutputStream would). */
    void encode(Object array, ByteBuffer buffer) {
        buffer.clear();
        switch (this) {
            case BYTE -> buffer.put((byte[]) array);
            case INT -> buffer.asIntBuffer().put((int[]) array);
            default -> buffer.asDoubleBuffer().put((double[]) array);
        }
    }

    /** Takes the array's elements out of the buffer. */
    void decode(ByteBuffer buffer, Object array) {
        buffer.clear();
        switch (this) {
            case BYTE -> buffer.get((byte[]) array);
            case INT -> buffer.asIntBuffer().get((int[]) array);
            default -> buffer.asDoubleBuffer().get((double[]) array);
        }
    }

    /** A checksum of the array's elements, so that the receiver can prove what it got. */
    long checksum(Object array) {
        long sum = 0;
        switch (this) {
            case BYTE -> {
                for (byte v : (byte[]) array) {
                    sum = sum * 31 + v;
                }
            }
            case INT -> {
                for (int v : (int[]) array) {
                    sum = sum * 31 + v;
                }
            }
            default -> {
                for (double v : (double[]) array) {
                    sum = sum * 31 + Double.doubleToLongBits(v);
                }
            }
        }
        return sum;
    }

    /** Whether {@code array} is an array of this kind of the benchmark's length. */
    boolean fits(Object array) {
        return switch (this) {
            case BYTE -> array instanceof byte[] a && a.length == elements();
            case INT -> array instanceof int[] a && a.length == elements();
            default -> array instanceof double[] a && a.length == elements();
        };
    }

    /** Display name of the array type, e.g. {@code int[]}. */
    String javaName() {
        return name().toLowerCase(java.util.Locale.ROOT) + "[]";
    }
}
