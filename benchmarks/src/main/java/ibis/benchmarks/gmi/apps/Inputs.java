package ibis.benchmarks.gmi.apps;

/**
 * Deterministic inputs and result checksums. An input element is a function of the seed and its
 * indices only (no random-number sequence), so every process generates just the elements it owns and
 * gets the same values as the sequential program. A checksum is a wrapping sum of mixed
 * (indices, bits) terms: the sum of longs is associative, so the per-process parts can be added in
 * any order and still give the same bits.
 */
final class Inputs {

    private Inputs() {
    }

    /** SplitMix64's finalizer: a bijective mix of 64 bits. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /**
     * A uniform value in [0, 1) for element (i, j) of input {@code seed}.
     *
     * @param seed the input's seed
     * @param i the first index
     * @param j the second index
     * @return the value, 53 random bits
     */
    static double uniform(long seed, int i, int j) {
        long z = mix(mix(seed * 0x9e3779b97f4a7c15L + i) + j);
        return (z >>> 11) * 0x1.0p-53;
    }

    /**
     * The checksum term of element (i, j) with value {@code v}; {@code -0.0} counts as {@code 0.0}.
     *
     * @param i the first index
     * @param j the second index
     * @param v the value
     * @return the term
     */
    static long term(int i, int j, double v) {
        return term(i, j, Double.doubleToLongBits(v + 0.0));
    }

    /**
     * The checksum term of element (i, j) with bits {@code v}.
     *
     * @param i the first index
     * @param j the second index
     * @param v the value's bits
     * @return the term
     */
    static long term(int i, int j, long v) {
        return mix(mix(((long) i << 32) ^ (j & 0xffffffffL)) ^ v);
    }

    /**
     * The first index of block {@code rank} of {@code n} items split over {@code size} processes
     * (block {@code rank} is {@code [lo(rank), lo(rank + 1))}).
     *
     * @param n the number of items
     * @param size the number of processes
     * @param rank the block
     * @return its first index
     */
    static int lo(int n, int size, int rank) {
        return (int) ((long) n * rank / size);
    }

    /**
     * The process that owns item {@code i} of a block distribution.
     *
     * @param n the number of items
     * @param size the number of processes
     * @param i the item
     * @return its owner
     */
    static int blockOwner(int n, int size, int i) {
        int r = (int) (((long) i * size) / n);
        while (lo(n, size, r + 1) <= i) {
            r++;
        }
        while (lo(n, size, r) > i) {
            r--;
        }
        return r;
    }
}
