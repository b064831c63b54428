package ibis.benchmarks.gmi.apps;

import ibis.gmi.CombinedInvocation;
import ibis.gmi.Group;
import ibis.gmi.ReturnReply;
import ibis.gmi.SingleInvocation;

/**
 * A linear equation solver: Jacobi iteration for Ax = b with a dense n x n A (off the diagonal in
 * [0, 1), on it 0.6 n + 1: about a hundred iterations to converge),
 * rows split in blocks. Each iteration every process computes its part of the next vector from the
 * whole current one; the parts are combined into the whole next vector at every process, and the
 * differences between the two vectors are summed to decide whether to go on. The difference of an
 * element is counted in units of 2^-40 as a long, so the sum is exact in any order and every
 * process count stops after the same iteration with the same vector. The checksum covers the
 * solution and the iteration count.
 */
final class Leq {

    /** Units of a difference: 2^-40. */
    private static final double UNIT = 0x1.0p40;
    /** Stop when the summed differences are below n * 1e-9. */
    private static final double TOLERANCE = 1e-9;

    private Leq() {
    }

    private static double a(AppSpec s, int i, int j) {
        return i == j ? 0.6 * s.n() + 1 : Inputs.uniform(s.seed(), i, j);
    }

    private static double b(AppSpec s, int i) {
        return Inputs.uniform(s.seed() + 1, i, -1) * s.n();
    }

    /** Rows [lo, hi) of A. */
    private static double[][] rows(AppSpec s, int lo, int hi) {
        double[][] r = new double[hi - lo][s.n()];
        for (int i = lo; i < hi; i++) {
            for (int j = 0; j < s.n(); j++) {
                r[i - lo][j] = a(s, i, j);
            }
        }
        return r;
    }

    /** Computes next[lo..hi) from x; returns the summed differences in units. */
    private static long step(AppSpec s, double[][] rows, int lo, double[] x, double[] next) {
        long difference = 0;
        for (int r = 0; r < rows.length; r++) {
            int i = lo + r;
            double[] row = rows[r];
            double sum = b(s, i);
            for (int j = 0; j < row.length; j++) {
                if (j != i) {
                    sum -= row[j] * x[j];
                }
            }
            next[r] = sum / row[i];
            difference += (long) (Math.abs(next[r] - x[i]) * UNIT);
        }
        return difference;
    }

    private static boolean done(AppSpec s, long difference) {
        return difference < TOLERANCE * s.n() * UNIT;
    }

    private static long checksum(double[] x, int iterations) {
        long sum = Inputs.term(-1, 0, (long) iterations);
        for (int i = 0; i < x.length; i++) {
            sum += Inputs.term(i, 0, x[i]);
        }
        return sum;
    }

    /** The sequential program. */
    static long sequential(AppSpec s) {
        int n = s.n();
        double[][] rows = rows(s, 0, n);
        double[] x = new double[n];
        int it = 0;
        while (it < s.steps()) {
            double[] next = new double[n];
            long difference = step(s, rows, 0, x, next);
            x = next;
            it++;
            if (done(s, difference)) {
                break;
            }
        }
        return checksum(x, it);
    }

    /** GMI: one combined invocation of {@code exchange} per iteration. */
    static long gmi(AppSpec s, Stopwatch clock) throws Exception {
        int me = Group.rank();
        int size = Group.size();
        LeqGroup group = GmiAppMain.group("leq", LeqGroup.class, new LeqMember());
        Group.findMethod(group, "LeqUpdate exchange(int, double[], long)").configure(new CombinedInvocation(
                "leq-exchange", me, size, new LeqMember.Gather(), new SingleInvocation(0)), new ReturnReply(0));
        group.exchange(0, new double[0], 0);
        clock.start();
        int n = s.n();
        int lo = Inputs.lo(n, size, me);
        double[][] rows = rows(s, lo, Inputs.lo(n, size, me + 1));
        double[] x = new double[n];
        int it = 0;
        while (it < s.steps()) {
            double[] next = new double[rows.length];
            long difference = step(s, rows, lo, x, next);
            LeqUpdate u = group.exchange(lo, next, difference);
            x = u.x;
            it++;
            if (done(s, u.difference)) {
                break;
            }
        }
        return checksum(x, it);
    }

    /** MPI style: allGatherv of the parts and an allreduce (sum) of the differences. */
    static long mpi(AppSpec s, MessagePassing mp, Stopwatch clock) throws Exception {
        int me = mp.rank();
        int size = mp.size();
        int n = s.n();
        int[] counts = new int[size];
        int[] displacements = new int[size];
        for (int r = 0; r < size; r++) {
            displacements[r] = Inputs.lo(n, size, r);
            counts[r] = Inputs.lo(n, size, r + 1) - displacements[r];
        }
        mp.barrier();
        clock.start();
        int lo = displacements[me];
        double[][] rows = rows(s, lo, lo + counts[me]);
        double[] x = new double[n];
        long[] difference = new long[1];
        int it = 0;
        while (it < s.steps()) {
            double[] next = new double[rows.length];
            difference[0] = step(s, rows, lo, x, next);
            double[] all = new double[n];
            mp.allGatherv(next, all, counts, displacements);
            mp.allReduceSum(difference);
            x = all;
            it++;
            if (done(s, difference[0])) {
                break;
            }
        }
        return checksum(x, it);
    }
}
