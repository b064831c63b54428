package ibis.benchmarks.gmi.apps;

import ibis.gmi.GroupMember;

/** A process's member of the ASP group: keeps the rows that arrive until iteration k takes them. */
public final class AspMember extends GroupMember implements AspGroup {

    final Slots<int[]> rows = new Slots<>();

    @Override
    public void put(int k, int[] row) {
        rows.put(k, row);
    }

    @Override
    public long total(long part) {
        return part;
    }
}
