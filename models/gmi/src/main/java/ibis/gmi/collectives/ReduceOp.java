package ibis.gmi.collectives;

/**
 * The built-in reductions of primitive arrays. Each is commutative and associative on integers; on
 * doubles the library fixes the order of the operations, so every member gets the same bits.
 */
public enum ReduceOp {
    /** Element-wise sum. */
    SUM,
    /** Element-wise minimum. */
    MIN,
    /** Element-wise maximum. */
    MAX;

    /** {@code into[i] = lower[i] op higher[i]} for {@code len} elements (no boxing). */
    void apply(Object lower, int lowerOff, Object higher, int higherOff, Object into, int intoOff, int len) {
        if (lower instanceof double[] a) {
            double[] b = (double[]) higher;
            double[] c = (double[]) into;
            for (int i = 0; i < len; i++) {
                double x = a[lowerOff + i];
                double y = b[higherOff + i];
                c[intoOff + i] = this == SUM ? x + y : this == MIN ? Math.min(x, y) : Math.max(x, y);
            }
        } else if (lower instanceof long[] a) {
            long[] b = (long[]) higher;
            long[] c = (long[]) into;
            for (int i = 0; i < len; i++) {
                long x = a[lowerOff + i];
                long y = b[higherOff + i];
                c[intoOff + i] = this == SUM ? x + y : this == MIN ? Math.min(x, y) : Math.max(x, y);
            }
        } else if (lower instanceof int[] a) {
            int[] b = (int[]) higher;
            int[] c = (int[]) into;
            for (int i = 0; i < len; i++) {
                int x = a[lowerOff + i];
                int y = b[higherOff + i];
                c[intoOff + i] = this == SUM ? x + y : this == MIN ? Math.min(x, y) : Math.max(x, y);
            }
        } else {
            throw new IllegalArgumentException(this + " is for double[], long[] and int[], not "
                    + lower.getClass().getSimpleName());
        }
    }
}
