package ibis.benchmarks.gmi.apps;

import ibis.gmi.DiscardReply;
import ibis.gmi.Group;
import ibis.gmi.GroupInvocation;

/**
 * LU factorization with partial pivoting (LINPACK's {@code dgefa} order of operations) of an n x n
 * matrix stored by columns, the columns dealt out cyclically (column j on process j mod size). In
 * step k the owner of column k finds the pivot, swaps it up and scales the column into multipliers;
 * the pivot index and the column go to every process, which swaps and updates its columns right of
 * k. Every element is computed by one process with the same operations in the same order as the
 * sequential program, so results are bit-identical for any process count. The checksum covers the
 * factors and the pivot indices.
 */
final class LuFact {

    private LuFact() {
    }

    /** Column j of the input, values in [-1, 1). */
    private static double[] column(AppSpec s, int j) {
        double[] c = new double[s.n()];
        for (int i = 0; i < c.length; i++) {
            c[i] = 2 * Inputs.uniform(s.seed(), i, j) - 1;
        }
        return c;
    }

    /** Finds the pivot of column k, swaps it to row k and scales below it; returns the pivot row. */
    private static int eliminate(double[] col, int k) {
        int l = k;
        double max = Math.abs(col[k]);
        for (int i = k + 1; i < col.length; i++) {
            if (Math.abs(col[i]) > max) {
                max = Math.abs(col[i]);
                l = i;
            }
        }
        if (col[l] != 0) {
            double t = col[l];
            col[l] = col[k];
            col[k] = t;
            t = -1.0 / col[k];
            for (int i = k + 1; i < col.length; i++) {
                col[i] *= t;
            }
        }
        return l;
    }

    /** Swaps rows l and k of column c and adds the multipliers times its row-k element. */
    private static void update(double[] c, int k, int l, double[] multipliers) {
        double t = c[l];
        if (l != k) {
            c[l] = c[k];
            c[k] = t;
        }
        for (int i = k + 1; i < c.length; i++) {
            c[i] += t * multipliers[i];
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

    /** The sequential program. */
    static long sequential(AppSpec s) {
        int n = s.n();
        double[][] a = new double[n][];
        for (int j = 0; j < n; j++) {
            a[j] = column(s, j);
        }
        int[] pivots = new int[n];
        for (int k = 0; k < n - 1; k++) {
            int l = eliminate(a[k], k);
            pivots[k] = l;
            if (a[k][k] == 0) {
                continue;
            }
            for (int j = k + 1; j < n; j++) {
                update(a[j], k, l, a[k]);
            }
        }
        pivots[n - 1] = n - 1;
        long sum = pivotChecksum(pivots);
        for (int j = 0; j < n; j++) {
            sum += checksum(a[j], j);
        }
        return sum;
    }

    /** This process's columns (j mod size == me), by j / size. */
    private static double[][] mine(AppSpec s, int me, int size) {
        int n = s.n();
        double[][] a = new double[(n - me + size - 1) / size][];
        for (int j = me; j < n; j += size) {
            a[j / size] = column(s, j);
        }
        return a;
    }

    /** The parallel program around a broadcast of (pivot, multipliers) from the owner of column k. */
    private interface Broadcast {
        /** Sends (owner) or receives the column of step k and its pivot in {@code pivot[0]}. */
        double[] step(int k, int owner, double[] column, int[] pivot) throws Exception;
    }

    private static long parallel(AppSpec s, int me, int size, Broadcast broadcast) throws Exception {
        int n = s.n();
        double[][] a = mine(s, me, size);
        int[] pivot = new int[1];
        for (int k = 0; k < n - 1; k++) {
            int owner = k % size;
            double[] column = null;
            if (owner == me) {
                column = a[k / size];
                pivot[0] = eliminate(column, k);
            }
            column = broadcast.step(k, owner, column, pivot);
            int l = pivot[0];
            if (column[k] == 0) {
                continue;
            }
            for (int j = k + 1; j < n; j++) {
                if (j % size == me) {
                    update(a[j / size], k, l, column);
                }
            }
        }
        long sum = 0;
        for (int j = me; j < n; j += size) {
            sum += checksum(a[j / size], j);
        }
        return sum;
    }

    /** GMI: the owner invokes {@code put(k, pivot, column)} on the whole group. */
    static long gmi(AppSpec s, Stopwatch clock) throws Exception {
        LuMember member = new LuMember();
        LuGroup group = GmiAppMain.group("lufact", LuGroup.class, member);
        Group.findMethod(group, "void put(int, int, double[])").configure(new GroupInvocation(), new DiscardReply());
        GmiAppMain.configureTotal(group, "lufact");
        group.total(0);
        clock.start();
        int[] pivots = new int[s.n()];
        long part = parallel(s, Group.rank(), Group.size(), (k, owner, column, pivot) -> {
            if (owner == Group.rank()) {
                group.put(k, pivot[0], column.clone());
            }
            double[] c = member.columns.take(k);
            pivot[0] = member.pivots.take(k);
            pivots[k] = pivot[0];
            return c;
        });
        pivots[s.n() - 1] = s.n() - 1;
        return group.total(part) + pivotChecksum(pivots);
    }

    /** MPI style: one broadcast of n + 1 doubles, the pivot index in the spare last entry. */
    static long mpi(AppSpec s, MessagePassing mp, Stopwatch clock) throws Exception {
        int n = s.n();
        double[] buffer = new double[n + 1];
        int[] pivots = new int[n];
        mp.barrier();
        clock.start();
        long part = parallel(s, mp.rank(), mp.size(), (k, owner, column, pivot) -> {
            if (owner == mp.rank()) {
                System.arraycopy(column, 0, buffer, 0, n);
                buffer[n] = pivot[0];
            }
            mp.broadcast(buffer, owner);
            pivot[0] = (int) buffer[n];
            pivots[k] = pivot[0];
            return buffer;
        });
        pivots[n - 1] = n - 1;
        long[] sum = { part };
        mp.allReduceSum(sum);
        return sum[0] + pivotChecksum(pivots);
    }
}
