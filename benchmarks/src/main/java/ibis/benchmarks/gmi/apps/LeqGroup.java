package ibis.benchmarks.gmi.apps;

import ibis.gmi.GroupInterface;

/** The group of LEQ: one member per process. */
public interface LeqGroup extends GroupInterface {

    /**
     * Combined invocation: every process's part of the new vector (starting at {@code offset}) and
     * its summed differences; the parts are concatenated and the differences added by the
     * invocation combiner, and every process gets the result.
     */
    LeqUpdate exchange(int offset, double[] part, long difference);
}
