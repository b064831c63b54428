package ibis.benchmarks.gmi.apps;

import ibis.gmi.BinomialInvocationCombiner;
import ibis.gmi.GroupMember;
import ibis.gmi.ParameterVector;

/** A process's member of the MolDyn group. */
public final class MolDynMember extends GroupMember implements MolDynGroup {

    @Override
    public Forces sum(Forces forces) {
        return forces;
    }

    /** Adds the {@link Forces} parameters of two invokers. */
    static final class Add extends BinomialInvocationCombiner {
        @Override
        public void combine(ParameterVector in1, ParameterVector in2, ParameterVector out) {
            Forces f = (Forces) in1.readObject(0);
            f.add((Forces) in2.readObject(0));
            out.write(0, f);
        }
    }
}
