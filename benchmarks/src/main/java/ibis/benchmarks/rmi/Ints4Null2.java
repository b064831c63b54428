package ibis.benchmarks.rmi;

/**
 * An object of four {@code int}s and two references that are null (the papers' "4 int 2 null"
 * object), a parameter of the rmi suite's {@code ping(obj)} figures.
 */
public final class Ints4Null2 implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    int i0;
    int i1;
    int i2;
    int i3;
    Ints4Null2 first;
    Ints4Null2 second;

    /** An object whose values derive from {@code seed}, with both references null. */
    public Ints4Null2(int seed) {
        i0 = seed;
        i1 = seed * 3;
        i2 = seed ^ 0x5a5a;
        i3 = -seed;
    }

    /** A checksum over the values; -1 when a reference is unexpectedly set. */
    long checksum() {
        if (first != null || second != null) {
            return -1;
        }
        return i0 + 3L * i1 + 5L * i2 + 7L * i3;
    }
}
