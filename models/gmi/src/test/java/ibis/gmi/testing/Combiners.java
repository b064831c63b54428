package ibis.gmi.testing;

import ibis.gmi.BinomialCombiner;
import ibis.gmi.BinomialInvocationCombiner;
import ibis.gmi.FlatCombiner;
import ibis.gmi.FlatInvocationCombiner;
import ibis.gmi.Forwarder;
import ibis.gmi.ParameterVector;
import ibis.gmi.Personalizer;
import ibis.gmi.ReplyPersonalizer;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/** The user classes of the tests. */
public final class Combiners {

    private Combiners() {
    }

    /** Sums ints and doubles, concatenates strings, in rank order; rethrows the first exception. */
    public static class Sum extends FlatCombiner {
        public volatile int lastLength;

        @Override
        public int combine(int[] results, Exception[] exceptions) {
            lastLength = results.length;
            int s = 0;
            for (int i = 0; i < results.length; i++) {
                if (exceptions[i] != null) {
                    throw new IllegalArgumentException("flat saw " + exceptions[i].getMessage());
                }
                s += results[i];
            }
            return s;
        }

        @Override
        public double combine(double[] results, Exception[] exceptions) {
            double s = 0;
            for (double d : results) {
                s += d;
            }
            return s;
        }

        @Override
        public Object combine(Object[] results, Exception[] exceptions) {
            StringBuilder b = new StringBuilder();
            for (Object o : results) {
                b.append(o);
            }
            return b.toString();
        }
    }

    /** The result of member 0 (an array); rethrows the first exception. */
    public static class FirstArray extends FlatCombiner {
        @Override
        public Object combine(Object[] results, Exception[] exceptions) {
            for (Exception e : exceptions) {
                if (e != null) {
                    throw new IllegalArgumentException("flat saw " + e.getMessage(), e);
                }
            }
            return results[0];
        }
    }

    /** Counts exceptions and checks the values of members that returned (failOdd). */
    public static class CountFailures extends FlatCombiner {
        @Override
        public int combine(int[] results, Exception[] exceptions) {
            int failed = 0;
            for (int i = 0; i < results.length; i++) {
                if (exceptions[i] != null) {
                    if (!(exceptions[i] instanceof IllegalStateException)
                            || !exceptions[i].getMessage().equals("f" + i)) {
                        throw new AssertionError("rank " + i + " threw " + exceptions[i]);
                    }
                    failed++;
                } else if (results[i] != i) {
                    throw new AssertionError("rank " + i + " returned " + results[i]);
                }
            }
            return failed;
        }
    }

    /** Only the Object overload: an int method must fail clearly. */
    public static class ObjectsOnly extends FlatCombiner {
        @Override
        public Object combine(Object[] results, Exception[] exceptions) {
            return null;
        }
    }

    /** Pairwise sum / concatenation; an exception of a member becomes an IllegalArgumentException. */
    public static class TreeSum extends BinomialCombiner {
        private static final long serialVersionUID = 1L;

        @Override
        public int combine(int rank1, int result1, Exception e1, int rank2, int result2, Exception e2, int size) {
            if (e1 != null || e2 != null) {
                throw new IllegalArgumentException("tree saw " + (e1 != null ? e1 : e2).getMessage());
            }
            if (rank1 >= rank2) {
                throw new IllegalArgumentException("ranks out of order: " + rank1 + " " + rank2);
            }
            return result1 + result2;
        }

        @Override
        public double combine(int rank1, double result1, Exception e1, int rank2, double result2, Exception e2,
                int size) {
            return result1 + result2;
        }

        @Override
        public Object combine(int rank1, Object result1, Exception e1, int rank2, Object result2, Exception e2,
                int size) {
            return "" + result1 + result2;
        }
    }

    /** Collects forwarded results as "rank:value" or "rank:!message". */
    public static class Collect extends Forwarder {
        public final BlockingQueue<String> got = new LinkedBlockingQueue<>();
        /** The sizes the forwarder was told: the number of results of the call. */
        public final java.util.Set<Integer> sizes = java.util.concurrent.ConcurrentHashMap.newKeySet();

        @Override
        public void forward(int rank, int size, int result) {
            sizes.add(size);
            got.add(rank + ":" + result);
        }

        @Override
        public void forward(int rank, int size, double result) {
            sizes.add(size);
            got.add(rank + ":" + result);
        }

        @Override
        public void forward(int rank, int size, Exception result) {
            sizes.add(size);
            got.add(rank + ":!" + result.getMessage());
        }
    }

    /** record(x): member r gets x + r. rankTimes(x): the same. */
    public static class PlusRank extends Personalizer {
        @Override
        public void personalize(ParameterVector in, ParameterVector[] out) {
            for (int r = 0; r < out.length; r++) {
                out[r].write(0, in.readInt(0) + r);
            }
        }
    }

    /** weigh(double[]): member r gets elements 2r and 2r+1, sent as a sub-array. */
    public static class Pairs extends Personalizer {
        @Override
        public void personalize(ParameterVector in, ParameterVector[] out) {
            double[] all = (double[]) in.readObject(0);
            for (int r = 0; r < out.length; r++) {
                out[r].writeSubArray(0, 2 * r, 2, all);
            }
        }
    }

    /** Sums the int parameter of all invokers. */
    public static class SumParams extends FlatInvocationCombiner {
        @Override
        public void combine(ParameterVector[] in, ParameterVector out) {
            int s = 0;
            for (ParameterVector v : in) {
                s += v.readInt(0);
            }
            out.write(0, s);
        }
    }

    /** Sums the int parameter pairwise. */
    public static class TreeSumParams extends BinomialInvocationCombiner {
        @Override
        public void combine(ParameterVector in1, ParameterVector in2, ParameterVector out) {
            out.write(0, in1.readInt(0) + in2.readInt(0));
        }
    }

    /** Invoker i gets in * 100 + i; forwarded: in + i. */
    public static class PerInvoker extends ReplyPersonalizer {
        private static final long serialVersionUID = 1L;
        private final int factor;

        public PerInvoker(int factor) {
            this.factor = factor;
        }

        @Override
        public void personalize(int in, int[] out) {
            for (int i = 0; i < out.length; i++) {
                out[i] = in * factor + i;
            }
        }
    }
}
