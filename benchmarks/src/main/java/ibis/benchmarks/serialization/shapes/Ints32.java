package ibis.benchmarks.serialization.shapes;

/**
 * An object with 32 {@code int} fields (the papers' "32 int" object).
 * Rewritten by the Ibis rewriter at build time (ibis-maven-plugin); the same class, never
 * rewritten, is {@link ibis.benchmarks.serialization.plain.Ints32}.
 */
public class Ints32 implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    public int i0;
    public int i1;
    public int i2;
    public int i3;
    public int i4;
    public int i5;
    public int i6;
    public int i7;
    public int i8;
    public int i9;
    public int i10;
    public int i11;
    public int i12;
    public int i13;
    public int i14;
    public int i15;
    public int i16;
    public int i17;
    public int i18;
    public int i19;
    public int i20;
    public int i21;
    public int i22;
    public int i23;
    public int i24;
    public int i25;
    public int i26;
    public int i27;
    public int i28;
    public int i29;
    public int i30;
    public int i31;

    /** An object with all fields zero. */
    public Ints32() {
    }

    /** An object whose fields are derived from {@code seed}. */
    public static Ints32 create(int seed) {
        Ints32 o = new Ints32();
        o.i0 = seed + 0 * 7919;
        o.i1 = seed + 1 * 7919;
        o.i2 = seed + 2 * 7919;
        o.i3 = seed + 3 * 7919;
        o.i4 = seed + 4 * 7919;
        o.i5 = seed + 5 * 7919;
        o.i6 = seed + 6 * 7919;
        o.i7 = seed + 7 * 7919;
        o.i8 = seed + 8 * 7919;
        o.i9 = seed + 9 * 7919;
        o.i10 = seed + 10 * 7919;
        o.i11 = seed + 11 * 7919;
        o.i12 = seed + 12 * 7919;
        o.i13 = seed + 13 * 7919;
        o.i14 = seed + 14 * 7919;
        o.i15 = seed + 15 * 7919;
        o.i16 = seed + 16 * 7919;
        o.i17 = seed + 17 * 7919;
        o.i18 = seed + 18 * 7919;
        o.i19 = seed + 19 * 7919;
        o.i20 = seed + 20 * 7919;
        o.i21 = seed + 21 * 7919;
        o.i22 = seed + 22 * 7919;
        o.i23 = seed + 23 * 7919;
        o.i24 = seed + 24 * 7919;
        o.i25 = seed + 25 * 7919;
        o.i26 = seed + 26 * 7919;
        o.i27 = seed + 27 * 7919;
        o.i28 = seed + 28 * 7919;
        o.i29 = seed + 29 * 7919;
        o.i30 = seed + 30 * 7919;
        o.i31 = seed + 31 * 7919;
        return o;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Ints32 o) || other.getClass() != getClass()) {
            return false;
        }
        return i0 == o.i0 && i1 == o.i1 && i2 == o.i2 && i3 == o.i3 && i4 == o.i4 && i5 == o.i5
                && i6 == o.i6 && i7 == o.i7 && i8 == o.i8 && i9 == o.i9 && i10 == o.i10 && i11 == o.i11
                && i12 == o.i12 && i13 == o.i13 && i14 == o.i14 && i15 == o.i15 && i16 == o.i16 && i17 == o.i17
                && i18 == o.i18 && i19 == o.i19 && i20 == o.i20 && i21 == o.i21 && i22 == o.i22 && i23 == o.i23
                && i24 == o.i24 && i25 == o.i25 && i26 == o.i26 && i27 == o.i27 && i28 == o.i28 && i29 == o.i29
                && i30 == o.i30 && i31 == o.i31;
    }

    @Override
    public int hashCode() {
        int h = 1;
        h = 31 * h + i0;
        h = 31 * h + i1;
        h = 31 * h + i2;
        h = 31 * h + i3;
        h = 31 * h + i4;
        h = 31 * h + i5;
        h = 31 * h + i6;
        h = 31 * h + i7;
        h = 31 * h + i8;
        h = 31 * h + i9;
        h = 31 * h + i10;
        h = 31 * h + i11;
        h = 31 * h + i12;
        h = 31 * h + i13;
        h = 31 * h + i14;
        h = 31 * h + i15;
        h = 31 * h + i16;
        h = 31 * h + i17;
        h = 31 * h + i18;
        h = 31 * h + i19;
        h = 31 * h + i20;
        h = 31 * h + i21;
        h = 31 * h + i22;
        h = 31 * h + i23;
        h = 31 * h + i24;
        h = 31 * h + i25;
        h = 31 * h + i26;
        h = 31 * h + i27;
        h = 31 * h + i28;
        h = 31 * h + i29;
        h = 31 * h + i30;
        h = 31 * h + i31;
        return h;
    }
}
