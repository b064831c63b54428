package ibis.benchmarks.gmi;

import ibis.gmi.BinomialCombiner;
import ibis.gmi.BinomialInvocationCombiner;
import ibis.gmi.FlatCombiner;
import ibis.gmi.ParameterVector;
import ibis.gmi.Personalizer;

/** The combiners and the personalizer of the gmi suite's scheme measurements. */
final class BenchCombiners {

    private BenchCombiners() {
    }

    private static void rethrow(Exception e) {
        if (e != null) {
            throw new IllegalStateException("a member failed: " + e, e);
        }
    }

    /** Sums the members' int results at the invoker. */
    static final class FlatSum extends FlatCombiner {
        @Override
        public int combine(int[] results, Exception[] exceptions) {
            int s = 0;
            for (int i = 0; i < results.length; i++) {
                rethrow(exceptions[i]);
                s += results[i];
            }
            return s;
        }
    }

    /** Sums the members' int results pairwise, in a binomial tree of the members. */
    static final class TreeSum extends BinomialCombiner {
        private static final long serialVersionUID = 1L;

        @Override
        public int combine(int rank1, int result1, Exception e1, int rank2, int result2, Exception e2, int size) {
            rethrow(e1);
            rethrow(e2);
            return result1 + result2;
        }
    }

    /** Sums the invokers' int parameter pairwise (the reduction of a combined invocation). */
    static final class TreeSumParameters extends BinomialInvocationCombiner {
        @Override
        public void combine(ParameterVector in1, ParameterVector in2, ParameterVector out) {
            out.write(0, in1.readInt(0) + in2.readInt(0));
        }
    }

    /** Member r gets the parameter plus r. */
    static final class PlusRank extends Personalizer {
        @Override
        public void personalize(ParameterVector in, ParameterVector[] out) {
            int x = in.readInt(0);
            for (int r = 0; r < out.length; r++) {
                out[r].write(0, x + r);
            }
        }
    }
}
