package ibis.benchmarks.gmi.apps;

import ibis.gmi.FlatInvocationCombiner;
import ibis.gmi.ParameterVector;

/**
 * Sums the single {@code long} parameter of a combined invocation ({@code long total(long)}) over
 * all invokers: with a single invocation of the method (which returns its parameter) and a return
 * reply, every invoker gets the sum, the GMI form of an allreduce. Long addition wraps and is
 * associative, so the order does not matter.
 */
final class SumCombiner extends FlatInvocationCombiner {

    @Override
    public void combine(ParameterVector[] in, ParameterVector out) {
        long sum = 0;
        for (ParameterVector v : in) {
            sum += v.readLong(0);
        }
        out.write(0, sum);
    }
}
