package ibis.benchmarks.gmi.apps;

import java.io.Serializable;

/** What LEQ's combined invocation returns to every process: the whole new vector and the summed differences. */
public final class LeqUpdate implements Serializable {

    private static final long serialVersionUID = 1L;

    final double[] x;
    final long difference;

    LeqUpdate(double[] x, long difference) {
        this.x = x;
        this.difference = difference;
    }
}
