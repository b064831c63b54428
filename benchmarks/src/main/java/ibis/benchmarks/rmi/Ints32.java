package ibis.benchmarks.rmi;

/**
 * An object of 32 {@code int} fields, a parameter of the rmi suite's {@code ping(obj)} figures
 * (plain {@code java.io.Serializable}, rewritten on the Ibis side).
 */
public final class Ints32 implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    int i0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15;
    int i16, i17, i18, i19, i20, i21, i22, i23, i24, i25, i26, i27, i28, i29, i30, i31;

    /** An object whose values derive from {@code seed}. */
    public Ints32(int seed) {
        i0 = seed; i1 = seed + 1; i2 = seed + 2; i3 = seed + 3; i4 = seed + 4; i5 = seed + 5; i6 = seed + 6;
        i7 = seed + 7; i8 = seed + 8; i9 = seed + 9; i10 = seed + 10; i11 = seed + 11; i12 = seed + 12;
        i13 = seed + 13; i14 = seed + 14; i15 = seed + 15; i16 = -seed; i17 = -seed - 1; i18 = -seed - 2;
        i19 = -seed - 3; i20 = -seed - 4; i21 = -seed - 5; i22 = -seed - 6; i23 = -seed - 7; i24 = seed * 3;
        i25 = seed * 5; i26 = seed * 7; i27 = seed * 11; i28 = seed * 13; i29 = seed * 17; i30 = seed * 19;
        i31 = seed * 23;
    }

    /** A checksum over the values, position-weighted. */
    long checksum() {
        int[] v = {i0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17, i18, i19, i20,
            i21, i22, i23, i24, i25, i26, i27, i28, i29, i30, i31};
        long sum = 0;
        for (int i = 0; i < v.length; i++) {
            sum = sum * 31 + v[i];
        }
        return sum;
    }
}
