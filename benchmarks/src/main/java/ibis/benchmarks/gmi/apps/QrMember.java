package ibis.benchmarks.gmi.apps;

import ibis.gmi.BinomialInvocationCombiner;
import ibis.gmi.GroupMember;
import ibis.gmi.ParameterVector;

/** A process's member of the QR group. */
public final class QrMember extends GroupMember implements QrGroup {

    @Override
    public QrColumn select(QrColumn candidate) {
        return candidate;
    }

    @Override
    public long total(long part) {
        return part;
    }

    /** Keeps the better of two invokers' candidates. */
    static final class Best extends BinomialInvocationCombiner {
        @Override
        public void combine(ParameterVector in1, ParameterVector in2, ParameterVector out) {
            out.write(0, QrColumn.better((QrColumn) in1.readObject(0), (QrColumn) in2.readObject(0)));
        }
    }
}
