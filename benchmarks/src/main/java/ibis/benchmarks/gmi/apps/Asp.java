package ibis.benchmarks.gmi.apps;

import ibis.gmi.DiscardReply;
import ibis.gmi.Group;
import ibis.gmi.GroupInvocation;

/**
 * All-pairs shortest paths, Floyd's algorithm on an n x n matrix of int distances, rows split in
 * blocks. In iteration k the owner of row k sends it to every process, which relaxes its rows
 * through vertex k. Ints: every process count gives the same matrix.
 */
final class Asp {

    private Asp() {
    }

    /** Distance from i to j: 0 on the diagonal, else 1..1000. */
    static int distance(AppSpec s, int i, int j) {
        return i == j ? 0 : 1 + (int) (Inputs.uniform(s.seed(), i, j) * 1000);
    }

    /** Relaxes the rows through vertex k with its row. */
    private static void relax(int[][] rows, int k, int[] rowK) {
        for (int[] row : rows) {
            int dik = row[k];
            for (int j = 0; j < row.length; j++) {
                int via = dik + rowK[j];
                if (via < row[j]) {
                    row[j] = via;
                }
            }
        }
    }

    private static int[][] rows(AppSpec s, int lo, int hi) {
        int[][] rows = new int[hi - lo][s.n()];
        for (int i = lo; i < hi; i++) {
            for (int j = 0; j < s.n(); j++) {
                rows[i - lo][j] = distance(s, i, j);
            }
        }
        return rows;
    }

    private static long checksum(int[][] rows, int lo) {
        long sum = 0;
        for (int i = 0; i < rows.length; i++) {
            for (int j = 0; j < rows[i].length; j++) {
                sum += Inputs.term(lo + i, j, (long) rows[i][j]);
            }
        }
        return sum;
    }

    /** The sequential program. */
    static long sequential(AppSpec s) {
        int n = s.n();
        int[][] d = rows(s, 0, n);
        for (int k = 0; k < n; k++) {
            relax(d, k, d[k].clone());
        }
        return checksum(d, 0);
    }

    /** GMI: row k is multicast by invoking {@code put} on the group. */
    static long gmi(AppSpec s, Stopwatch clock) throws Exception {
        int me = Group.rank();
        int size = Group.size();
        int n = s.n();
        AspMember member = new AspMember();
        AspGroup group = GmiAppMain.group("asp", AspGroup.class, member);
        Group.findMethod(group, "void put(int, int[])").configure(new GroupInvocation(), new DiscardReply());
        GmiAppMain.configureTotal(group, "asp");
        group.total(0);
        clock.start();
        int lo = Inputs.lo(n, size, me);
        int[][] d = rows(s, lo, Inputs.lo(n, size, me + 1));
        for (int k = 0; k < n; k++) {
            if (Inputs.blockOwner(n, size, k) == me) {
                group.put(k, d[k - lo].clone());
            }
            relax(d, k, member.rows.take(k));
        }
        return group.total(checksum(d, lo));
    }

    /** MPI style: row k is broadcast from its owner. */
    static long mpi(AppSpec s, MessagePassing mp, Stopwatch clock) throws Exception {
        int me = mp.rank();
        int size = mp.size();
        int n = s.n();
        mp.barrier();
        clock.start();
        int lo = Inputs.lo(n, size, me);
        int[][] d = rows(s, lo, Inputs.lo(n, size, me + 1));
        int[] rowK = new int[n];
        for (int k = 0; k < n; k++) {
            int owner = Inputs.blockOwner(n, size, k);
            if (owner == me) {
                System.arraycopy(d[k - lo], 0, rowK, 0, n);
            }
            mp.broadcast(rowK, owner);
            relax(d, k, rowK);
        }
        long[] sum = { checksum(d, lo) };
        mp.allReduceSum(sum);
        return sum[0];
    }
}
