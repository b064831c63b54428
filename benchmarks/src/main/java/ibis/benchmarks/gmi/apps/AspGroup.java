package ibis.benchmarks.gmi.apps;

import ibis.gmi.GroupInterface;

/** The group of ASP: one member per process. */
public interface AspGroup extends GroupInterface {

    /**
     * Row {@code k} of the distance matrix, for iteration k; multicast by the row's owner to the
     * whole group (group invocation, discarded reply).
     */
    void put(int k, int[] row);

    /** Combined invocation: the sum of every process's {@code part}, for every process. */
    long total(long part);
}
