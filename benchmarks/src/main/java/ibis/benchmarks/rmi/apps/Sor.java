package ibis.benchmarks.rmi.apps;

import java.rmi.RemoteException;

/**
 * Red/black successive overrelaxation on an n x n grid ("More Efficient Serialization and RMI for
 * Java", section 6.1; "Efficient Java RMI for Parallel Programming"): the interior rows are split
 * in blocks over the ranks; before each half-iteration (red, then black) every rank sends its first
 * row to the rank above and its last row to the rank below (one RMI each), which are the ghost rows
 * the neighbours need. At the end the blocks are gathered at rank 0. The boundary is u(i, j) =
 * i * j / n^2, a discrete harmonic function, so the iteration converges to that function everywhere
 * (the known answer the tests use).
 */
public final class Sor extends AppNode implements SorPeer {

    private static final long serialVersionUID = 1L;
    private static final double OMEGA = 1.5;

    private final int n;
    private final int iterations;
    /** Grid rows lo-1 .. hi (ghost rows included); local index = global row - (lo - 1). */
    private final double[][] rows;
    private final int lo;
    private final int hi;
    private final transient double[][] all;
    private transient SorPeer[] peers;

    Sor(int rank, int size, Problem problem) throws RemoteException {
        super(rank, size);
        n = problem.pick(34, 1002, 1602);
        iterations = problem.pick(20, 250, 300);
        double[][] grid = initialGrid(n);
        lo = 1 + lo(rank, n - 2, size);
        hi = 1 + lo(rank + 1, n - 2, size);
        rows = new double[hi - lo + 2][];
        for (int i = lo - 1; i <= hi; i++) {
            rows[i - lo + 1] = grid[i];
        }
        all = rank == 0 ? grid : null;
    }

    /** The starting grid: harmonic boundary, zero inside. */
    static double[][] initialGrid(int n) {
        double[][] g = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (i == 0 || j == 0 || i == n - 1 || j == n - 1) {
                    g[i][j] = (double) i * j / ((double) n * n);
                }
            }
        }
        return g;
    }

    /**
     * Updates the points of one colour ((i + j) % 2 == colour) of grid rows [from, to); row r of
     * the grid is {@code g[r - offset]}.
     */
    static void sweep(double[][] g, int offset, int from, int to, int colour) {
        for (int i = from; i < to; i++) {
            double[] up = g[i - 1 - offset];
            double[] row = g[i - offset];
            double[] down = g[i + 1 - offset];
            int n = row.length;
            for (int j = 1 + ((i + 1 + colour) & 1); j < n - 1; j += 2) {
                row[j] += OMEGA * ((up[j] + down[j] + row[j - 1] + row[j + 1]) * 0.25 - row[j]);
            }
        }
    }

    /** The sequential reference: the same iterations on the whole grid. */
    static double[][] sequential(int n, int iterations) {
        double[][] g = initialGrid(n);
        for (int it = 0; it < iterations; it++) {
            sweep(g, 0, 1, n - 1, 0);
            sweep(g, 0, 1, n - 1, 1);
        }
        return g;
    }

    @Override
    protected void connect(AppPeer[] stubs) {
        peers = new SorPeer[stubs.length];
        for (int r = 0; r < stubs.length; r++) {
            peers[r] = (SorPeer) stubs[r];
        }
    }

    @Override
    public void putRow(int phase, boolean fromAbove, double[] row) throws RemoteException {
        mailbox.put(Mailbox.key(phase, fromAbove ? 0 : 1), row);
    }

    @Override
    public void putBlock(int from, double[][] block) throws RemoteException {
        mailbox.put(Mailbox.key(-1, from), block);
    }

    @Override
    protected void run() throws Exception {
        int offset = lo - 1;
        int last = rows.length - 1;
        for (int it = 0; it < iterations; it++) {
            for (int colour = 0; colour < 2; colour++) {
                int phase = 2 * it + colour;
                if (rank > 0) {
                    peers[rank - 1].putRow(phase, false, rows[1]);
                }
                if (rank < size - 1) {
                    peers[rank + 1].putRow(phase, true, rows[last - 1]);
                }
                if (rank > 0) {
                    rows[0] = (double[]) mailbox.take(Mailbox.key(phase, 0));
                }
                if (rank < size - 1) {
                    rows[last] = (double[]) mailbox.take(Mailbox.key(phase, 1));
                }
                sweep(rows, offset, lo, hi, colour);
            }
        }
        double[][] mine = new double[hi - lo][];
        System.arraycopy(rows, 1, mine, 0, hi - lo);
        if (rank != 0) {
            peers[0].putBlock(rank, mine);
            return;
        }
        System.arraycopy(mine, 0, all, lo, hi - lo);
        for (int r = 1; r < size; r++) {
            double[][] block = (double[][]) mailbox.take(Mailbox.key(-1, r));
            System.arraycopy(block, 0, all, 1 + lo(r, n - 2, size), block.length);
        }
    }

    @Override
    protected boolean verify() {
        double[][] expected = sequential(n, iterations);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (Math.abs(expected[i][j] - all[i][j]) > 1e-12) {
                    return false;
                }
            }
        }
        return true;
    }
}
