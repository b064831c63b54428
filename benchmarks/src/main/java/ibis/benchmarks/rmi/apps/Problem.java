package ibis.benchmarks.rmi.apps;

import java.util.Locale;

/** The size class of a run: {@code test} (tiny, for tests), {@code quick} and {@code full}. */
public enum Problem {
    /** Tiny: checks correctness in well under a second. */
    TEST,
    /** Small benchmark size: a few tenths of a second of parallel work on one process. */
    QUICK,
    /** Full benchmark size: one to a few seconds of parallel work on one process. */
    FULL;

    /**
     * Parses a command-line name.
     *
     * @param name test, quick or full
     * @return the problem size
     */
    public static Problem parse(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }

    /**
     * Picks the value for this size.
     *
     * @param test value for {@link #TEST}
     * @param quick value for {@link #QUICK}
     * @param full value for {@link #FULL}
     * @return the chosen value
     */
    public int pick(int test, int quick, int full) {
        return this == TEST ? test : this == QUICK ? quick : full;
    }
}
