package ibis.benchmarks.gmi.apps;

import ibis.gmi.CombinedInvocation;
import ibis.gmi.Group;
import ibis.gmi.ReturnReply;
import ibis.gmi.SingleInvocation;

/**
 * Householder QR with column pivoting of an n x n matrix stored by columns, dealt out cyclically.
 * In step k every process finds its remaining column of largest norm (rows k and below); the best
 * of all becomes the Householder vector H, known to every process, which applies the reflection to
 * its remaining columns; the owner of the pivot column stores R's diagonal element and H in it and
 * retires it. H is computed from the same column by every process with the same operations, and each
 * column is updated by its owner only, so results are bit-identical for any process count. The
 * checksum covers the final matrix and the pivot order.
 */
final class Qr {

    private Qr() {
    }

    private static double[] column(AppSpec s, int j) {
        double[] c = new double[s.n()];
        for (int i = 0; i < c.length; i++) {
            c[i] = 2 * Inputs.uniform(s.seed(), i, j) - 1;
        }
        return c;
    }

    private static int steps(AppSpec s) {
        return Math.min(s.steps(), s.n());
    }

    private static double norm2(double[] c, int k) {
        double sum = 0;
        for (int i = k; i < c.length; i++) {
            sum += c[i] * c[i];
        }
        return sum;
    }

    /** The best of this process's remaining columns (ascending j, strictly larger wins). */
    private static QrColumn candidate(double[][] a, boolean[] retired, int k, int me, int size) {
        int best = -1;
        double bestNorm = -1;
        int n = a.length == 0 ? 0 : a[0].length;
        for (int j = me; j < n; j += size) {
            int local = j / size;
            if (retired[local]) {
                continue;
            }
            double norm = norm2(a[local], k);
            if (norm > bestNorm) {
                bestNorm = norm;
                best = j;
            }
        }
        if (best < 0) {
            return new QrColumn(-1, -1, null);
        }
        double[] c = a[best / size];
        return new QrColumn(best, bestNorm, java.util.Arrays.copyOfRange(c, k, c.length));
    }

    /**
     * The reflection of step k from the pivot column's rows k..n-1: v, then beta and R's diagonal
     * element alpha in the two last entries.
     */
    private static double[] reflector(QrColumn h) {
        double norm = Math.sqrt(h.norm2);
        double alpha = h.rows[0] >= 0 ? -norm : norm;
        double[] v = java.util.Arrays.copyOf(h.rows, h.rows.length + 2);
        v[0] -= alpha;
        double vtv = 0;
        for (int i = 0; i < h.rows.length; i++) {
            vtv += v[i] * v[i];
        }
        v[h.rows.length] = vtv == 0 ? 0 : 2 / vtv;
        v[h.rows.length + 1] = alpha;
        return v;
    }

    /** Applies the reflection v of step k to column c. */
    private static void reflect(double[] c, int k, double[] v) {
        double beta = v[v.length - 2];
        if (beta == 0) {
            return;
        }
        double s = 0;
        for (int i = k; i < c.length; i++) {
            s += v[i - k] * c[i];
        }
        s *= beta;
        for (int i = k; i < c.length; i++) {
            c[i] -= s * v[i - k];
        }
    }

    /** Stores R's diagonal element (alpha) and H below it in the pivot column. */
    private static void retire(double[] c, int k, double[] v) {
        c[k] = v[v.length - 1];
        for (int i = k + 1; i < c.length; i++) {
            c[i] = v[i - k];
        }
    }

    private static long checksum(double[] c, int j) {
        long sum = 0;
        for (int i = 0; i < c.length; i++) {
            sum += Inputs.term(i, j, c[i]);
        }
        return sum;
    }

    private static long pivotChecksum(int[] pivots) {
        long sum = 0;
        for (int k = 0; k < pivots.length; k++) {
            sum += Inputs.term(-1, k, (long) pivots[k]);
        }
        return sum;
    }

    /**
     * The sequential program, written out on its own (the reference the parallel ones must match):
     * scan every remaining column, reflect every remaining column with the best one.
     */
    static long sequential(AppSpec s) {
        int n = s.n();
        double[][] a = new double[n][];
        for (int j = 0; j < n; j++) {
            a[j] = column(s, j);
        }
        boolean[] retired = new boolean[n];
        int[] pivots = new int[steps(s)];
        for (int k = 0; k < pivots.length; k++) {
            int p = -1;
            double best = -1;
            for (int j = 0; j < n; j++) {
                if (!retired[j] && norm2(a[j], k) > best) {
                    best = norm2(a[j], k);
                    p = j;
                }
            }
            pivots[k] = p;
            double[] v = reflector(new QrColumn(p, best, java.util.Arrays.copyOfRange(a[p], k, n)));
            retired[p] = true;
            retire(a[p], k, v);
            for (int j = 0; j < n; j++) {
                if (!retired[j]) {
                    reflect(a[j], k, v);
                }
            }
        }
        long sum = pivotChecksum(pivots);
        for (int j = 0; j < n; j++) {
            sum += checksum(a[j], j);
        }
        return sum;
    }

    /** How the processes agree on the best column of step k. */
    private interface Selection {
        QrColumn best(int k, QrColumn mine) throws Exception;
    }

    /** Returns this process's part of the checksum of its columns; fills pivots. */
    private static long parallel(AppSpec s, int me, int size, int[] pivots, Selection select) throws Exception {
        int n = s.n();
        double[][] a = new double[(n - me + size - 1) / size][];
        boolean[] retired = new boolean[a.length];
        for (int j = me; j < n; j += size) {
            a[j / size] = column(s, j);
        }
        for (int k = 0; k < pivots.length; k++) {
            QrColumn h = select.best(k, candidate(a, retired, k, me, size));
            pivots[k] = h.index;
            double[] v = reflector(h);
            for (int j = me; j < n; j += size) {
                int local = j / size;
                if (j == h.index) {
                    retire(a[local], k, v);
                    retired[local] = true;
                } else if (!retired[local]) {
                    reflect(a[local], k, v);
                }
            }
        }
        long sum = 0;
        for (int j = me; j < n; j += size) {
            sum += checksum(a[j / size], j);
        }
        return sum;
    }

    /** GMI: one combined invocation of {@code select} per step picks and distributes H. */
    static long gmi(AppSpec s, Stopwatch clock) throws Exception {
        int me = Group.rank();
        int size = Group.size();
        QrGroup group = GmiAppMain.group("qr", QrGroup.class, new QrMember());
        Group.findMethod(group, "QrColumn select(QrColumn)").configure(new CombinedInvocation("qr-select", me, size,
                new QrMember.Best(), new SingleInvocation(0)), new ReturnReply(0));
        GmiAppMain.configureTotal(group, "qr");
        group.total(0);
        clock.start();
        int[] pivots = new int[steps(s)];
        long part = parallel(s, me, size, pivots, (k, mine) -> group.select(mine));
        return group.total(part) + pivotChecksum(pivots);
    }

    /**
     * MPI style: an allgather of every process's (norm, index), the best chosen alike everywhere,
     * then a broadcast of its rows from its owner.
     */
    static long mpi(AppSpec s, MessagePassing mp, Stopwatch clock) throws Exception {
        int me = mp.rank();
        int size = mp.size();
        int n = s.n();
        double[] pair = new double[2];
        double[] pairs = new double[2 * size];
        mp.barrier();
        clock.start();
        int[] pivots = new int[steps(s)];
        long part = parallel(s, me, size, pivots, (k, mine) -> {
            pair[0] = mine.norm2;
            pair[1] = mine.index;
            mp.allGather(pair, pairs);
            QrColumn best = new QrColumn(-1, -1, null);
            for (int r = 0; r < size; r++) {
                best = QrColumn.better(best, new QrColumn((int) pairs[2 * r + 1], pairs[2 * r], null));
            }
            double[] rows = best.index % size == me ? mine.rows : new double[n - k];
            mp.broadcast(rows, best.index % size);
            return new QrColumn(best.index, best.norm2, rows);
        });
        long[] sum = { part };
        mp.allReduceSum(sum);
        return sum[0] + pivotChecksum(pivots);
    }
}
