package ibis.benchmarks.serialization.plain;

import java.util.Objects;

/**
 * An object with four {@code int}s and two references that are null in the benchmark (the
 * papers' "4 int 2 null" object).
 * Never rewritten (the build keeps this package away from the rewriter), so the ibis
 * serialization generates its serializer at run time; a field-for-field copy of
 * {@link ibis.benchmarks.serialization.shapes.Ints4Null2}, which is rewritten.
 */
public class Ints4Null2 implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    public int i0;
    public int i1;
    public int i2;
    public int i3;
    public Ints4Null2 first;
    public Ints4Null2 second;

    /** An object with all fields zero or null. */
    public Ints4Null2() {
    }

    /** An object whose ints are derived from {@code seed} and whose references are null. */
    public static Ints4Null2 create(int seed) {
        Ints4Null2 o = new Ints4Null2();
        o.i0 = seed;
        o.i1 = seed + 1;
        o.i2 = -seed;
        o.i3 = seed * 31;
        return o;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Ints4Null2 o) || other.getClass() != getClass()) {
            return false;
        }
        return i0 == o.i0 && i1 == o.i1 && i2 == o.i2 && i3 == o.i3 && Objects.equals(first, o.first)
                && Objects.equals(second, o.second);
    }

    @Override
    public int hashCode() {
        return Objects.hash(i0, i1, i2, i3, first, second);
    }
}
