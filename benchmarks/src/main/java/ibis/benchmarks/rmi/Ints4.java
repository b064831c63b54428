package ibis.benchmarks.rmi;

/**
 * An object of four {@code int}s, a parameter of the rmi suite's {@code ping(obj)} figures. Plain
 * {@code java.io.Serializable}: the JDK side sends it as compiled, the Ibis side's rewritten copy
 * carries a generated Ibis serializer.
 */
public final class Ints4 implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    int i0;
    int i1;
    int i2;
    int i3;

    /** An object whose values derive from {@code seed}. */
    public Ints4(int seed) {
        i0 = seed;
        i1 = seed + 1;
        i2 = -seed;
        i3 = seed * 31;
    }

    /** A checksum over the values (equal objects, equal checksums). */
    long checksum() {
        return i0 + 3L * i1 + 5L * i2 + 7L * i3;
    }
}
