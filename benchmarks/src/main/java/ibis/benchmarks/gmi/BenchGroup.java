package ibis.benchmarks.gmi;

import ibis.gmi.GroupInterface;

/** The group interface of the gmi suite's scheme measurements ({@link GmiRank}). */
public interface BenchGroup extends GroupInterface {

    /** Counts one call; invoked with a discarded reply (group and personalized invocation). */
    void ping(int x);

    /** Returns {@code x + 1}: the unit of the return, combine and combined-invocation measurements. */
    int value(int x);

    /**
     * Waits until this member has counted {@code count} pings, then returns 1: the completion
     * barrier after a run of discarded invocations.
     */
    int awaitPings(int count);
}
