package ibis.benchmarks.rmi.apps;

import java.rmi.RemoteException;
import java.util.SplittableRandom;

/**
 * All-pairs shortest paths, Floyd-Warshall ("Efficient Java RMI for Parallel Programming"): the
 * distance table is split rowwise in blocks over the ranks. In iteration k the owner of row k
 * broadcasts it along a binary spanning tree rooted at the owner: every rank forwards the row to
 * its (at most two) children by RMI before relaxing its own rows with it. At the end the rows are
 * gathered at rank 0.
 */
public final class Asp extends AppNode implements AspPeer {

    private static final long serialVersionUID = 1L;
    /** No edge; small enough that two of them added do not overflow. */
    static final int INFINITE = Integer.MAX_VALUE / 4;

    private final int n;
    private final int lo;
    private final int hi;
    private final int[][] mine;
    private final transient int[][] table;
    private transient AspPeer[] peers;

    Asp(int rank, int size, Problem problem) throws RemoteException {
        super(rank, size);
        n = problem.pick(60, 800, 1500);
        int[][] graph = graph(n, 42);
        lo = lo(rank, n, size);
        hi = lo(rank + 1, n, size);
        mine = new int[hi - lo][];
        System.arraycopy(graph, lo, mine, 0, hi - lo);
        table = rank == 0 ? graph : null;
    }

    /** A random directed graph: about a quarter of the possible edges, weights 1..100. */
    static int[][] graph(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[][] d = new int[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                d[i][j] = i == j ? 0 : random.nextInt(4) == 0 ? 1 + random.nextInt(100) : INFINITE;
            }
        }
        return d;
    }

    /** Relaxes rows through node k, given row k. */
    static void relax(int[][] rows, int k, int[] rowK) {
        int n = rowK.length;
        for (int[] row : rows) {
            int dik = row[k];
            if (dik >= INFINITE) {
                continue;
            }
            for (int j = 0; j < n; j++) {
                int through = dik + rowK[j];
                if (through < row[j]) {
                    row[j] = through;
                }
            }
        }
    }

    /** The sequential reference: Floyd-Warshall on a copy of the whole table. */
    static int[][] sequential(int[][] graph) {
        int n = graph.length;
        int[][] d = new int[n][];
        for (int i = 0; i < n; i++) {
            d[i] = graph[i].clone();
        }
        for (int k = 0; k < n; k++) {
            int[] rowK = d[k].clone();
            relax(d, k, rowK);
        }
        return d;
    }

    @Override
    protected void connect(AppPeer[] stubs) {
        peers = new AspPeer[stubs.length];
        for (int r = 0; r < stubs.length; r++) {
            peers[r] = (AspPeer) stubs[r];
        }
    }

    @Override
    public void putRow(int k, int[] row) throws RemoteException {
        mailbox.put(k, row);
    }

    @Override
    public void putRows(int from, int[][] rows) throws RemoteException {
        mailbox.put(Mailbox.key(-1, from), rows);
    }

    @Override
    protected void run() throws Exception {
        for (int k = 0; k < n; k++) {
            int owner = ownerOf(k, n, size);
            // Row k does not change in iteration k (d[k][k] = 0), so the owner may send it as it is.
            int[] rowK = owner == rank ? mine[k - lo] : (int[]) mailbox.take(k);
            int relative = (rank - owner + size) % size;
            for (int child = 2 * relative + 1; child <= 2 * relative + 2 && child < size; child++) {
                peers[(child + owner) % size].putRow(k, rowK);
            }
            relax(mine, k, rowK);
        }
        if (rank != 0) {
            peers[0].putRows(rank, mine);
            return;
        }
        System.arraycopy(mine, 0, table, lo, hi - lo);
        for (int r = 1; r < size; r++) {
            int[][] rows = (int[][]) mailbox.take(Mailbox.key(-1, r));
            System.arraycopy(rows, 0, table, lo(r, n, size), rows.length);
        }
    }

    @Override
    protected boolean verify() {
        int[][] expected = sequential(graph(n, 42));
        for (int i = 0; i < n; i++) {
            if (!java.util.Arrays.equals(expected[i], table[i])) {
                return false;
            }
        }
        return true;
    }
}
