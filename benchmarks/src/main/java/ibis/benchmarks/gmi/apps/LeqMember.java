package ibis.benchmarks.gmi.apps;

import ibis.gmi.FlatInvocationCombiner;
import ibis.gmi.GroupMember;
import ibis.gmi.ParameterVector;

/** A process's member of the LEQ group. */
public final class LeqMember extends GroupMember implements LeqGroup {

    @Override
    public LeqUpdate exchange(int offset, double[] part, long difference) {
        return new LeqUpdate(part, difference);
    }

    /** Concatenates the parts at their offsets and adds the differences (at invoker 0). */
    static final class Gather extends FlatInvocationCombiner {
        @Override
        public void combine(ParameterVector[] in, ParameterVector out) {
            int n = 0;
            for (ParameterVector v : in) {
                n += ((double[]) v.readObject(1)).length;
            }
            double[] x = new double[n];
            long difference = 0;
            for (ParameterVector v : in) {
                double[] part = (double[]) v.readObject(1);
                System.arraycopy(part, 0, x, v.readInt(0), part.length);
                difference += v.readLong(2);
            }
            out.write(0, 0);
            out.write(1, x);
            out.write(2, difference);
        }
    }
}
