package ibis.benchmarks.gmi.apps;

import ibis.gmi.GroupMember;

/** A process's member of the LUFact group: keeps each step's pivot and column until taken. */
public final class LuMember extends GroupMember implements LuGroup {

    final Slots<double[]> columns = new Slots<>();
    final Slots<Integer> pivots = new Slots<>();

    @Override
    public void put(int k, int pivot, double[] column) {
        pivots.put(k, pivot);
        columns.put(k, column);
    }

    @Override
    public long total(long part) {
        return part;
    }
}
