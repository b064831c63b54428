package ibis.benchmarks.gmi.apps;

import ibis.gmi.GroupInterface;

/** The group of LUFact: one member per process. */
public interface LuGroup extends GroupInterface {

    /**
     * Step {@code k}'s pivot row and multipliers (column k below the diagonal), multicast by the
     * column's owner to the whole group: the two broadcasts of the program as one invocation.
     */
    void put(int k, int pivot, double[] column);

    /** Combined invocation: the sum of every process's {@code part}, for every process. */
    long total(long part);
}
