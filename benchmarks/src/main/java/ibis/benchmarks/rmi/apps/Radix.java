package ibis.benchmarks.rmi.apps;

import java.rmi.RemoteException;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Parallel LSD radix sort of non-negative ints (SPLASH-2 Radix, as in "Efficient Java RMI for
 * Parallel Programming"), 8 bits per pass. The keys are split in blocks over the ranks. Each pass:
 * a local histogram of the digit; a histogram merge over a binary combining tree (children send
 * their subtree's histograms to the parent, rank 0 sends the complete table back down the tree);
 * from the table every rank knows where each of its keys goes in the global order, sorts locally,
 * and sends every other rank the keys that land in its block (one RMI per pair of ranks, as runs of
 * consecutive global positions). At the end the blocks are gathered at rank 0, which checks that
 * they are the sorted input.
 */
public final class Radix extends AppNode implements RadixPeer {

    private static final long serialVersionUID = 1L;
    private static final int BITS = 8;
    private static final int RADIX = 1 << BITS;
    private static final int PASSES = 4;

    private final int n;
    private final int lo;
    private final int hi;
    private int[] keys;
    private int[] next;
    private final transient int[] input;
    private transient int[] result;
    private transient RadixPeer[] peers;

    Radix(int rank, int size, Problem problem) throws RemoteException {
        super(rank, size);
        n = problem.pick(5000, 4_000_000, 16_000_000);
        int[] all = input(n, 7);
        lo = lo(rank, n, size);
        hi = lo(rank + 1, n, size);
        keys = Arrays.copyOfRange(all, lo, hi);
        next = new int[hi - lo];
        input = rank == 0 ? all : null;
    }

    /** Random non-negative keys. */
    static int[] input(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = random.nextInt() >>> 1;
        }
        return a;
    }

    /** A sequential LSD radix sort with the same digits (the small known-answer tests use it). */
    static int[] sequential(int[] in) {
        int[] a = in.clone();
        int[] b = new int[a.length];
        for (int pass = 0; pass < PASSES; pass++) {
            int shift = pass * BITS;
            int[] start = new int[RADIX + 1];
            for (int k : a) {
                start[((k >>> shift) & (RADIX - 1)) + 1]++;
            }
            for (int v = 0; v < RADIX; v++) {
                start[v + 1] += start[v];
            }
            for (int k : a) {
                b[start[(k >>> shift) & (RADIX - 1)]++] = k;
            }
            int[] t = a;
            a = b;
            b = t;
        }
        return a;
    }

    @Override
    protected void connect(AppPeer[] stubs) {
        peers = new RadixPeer[stubs.length];
        for (int r = 0; r < stubs.length; r++) {
            peers[r] = (RadixPeer) stubs[r];
        }
    }

    @Override
    public void putTable(int pass, int from, int[][] table) throws RemoteException {
        mailbox.put(Mailbox.key(pass, from), table);
    }

    @Override
    public void putKeys(int pass, int from, int[] runs, int[] block) throws RemoteException {
        mailbox.put(Mailbox.key(pass, size + from), new int[][] {runs, block});
    }

    @Override
    protected void run() throws Exception {
        int[] localStart = new int[RADIX + 1];
        for (int pass = 0; pass < PASSES; pass++) {
            int shift = pass * BITS;
            // Local histogram and local stable counting sort into next.
            Arrays.fill(localStart, 0);
            for (int k : keys) {
                localStart[((k >>> shift) & (RADIX - 1)) + 1]++;
            }
            int[][] table = new int[size][];
            table[rank] = new int[RADIX];
            for (int v = 0; v < RADIX; v++) {
                table[rank][v] = localStart[v + 1];
                localStart[v + 1] += localStart[v];
            }
            int[] fill = localStart.clone();
            for (int k : keys) {
                next[fill[(k >>> shift) & (RADIX - 1)]++] = k;
            }
            table = mergeHistograms(pass, table);
            // Global position of this rank's run of digit v.
            int[] globalStart = new int[RADIX];
            int before = 0;
            for (int v = 0; v < RADIX; v++) {
                int mineAt = before;
                for (int r = 0; r < size; r++) {
                    if (r == rank) {
                        mineAt = before;
                    }
                    before += table[r][v];
                }
                globalStart[v] = mineAt;
            }
            int[] sorted = keys;
            for (int step = 0; step < size; step++) {
                int dest = (rank + step) % size;
                send(pass, dest, globalStart, localStart, sorted);
            }
            for (int step = 1; step < size; step++) {
                int from = (rank - step + size) % size;
                int[][] got = (int[][]) mailbox.take(Mailbox.key(pass, size + from));
                place(got[0], got[1], sorted);
            }
            keys = sorted;
        }
        if (rank != 0) {
            peers[0].putKeys(PASSES, rank, new int[] {lo, hi - lo}, keys);
            return;
        }
        result = new int[n];
        System.arraycopy(keys, 0, result, lo, hi - lo);
        for (int r = 1; r < size; r++) {
            int[][] got = (int[][]) mailbox.take(Mailbox.key(PASSES, size + r));
            System.arraycopy(got[1], 0, result, got[0][0], got[0][1]);
        }
    }

    /** Sends rank dest the keys (locally sorted in {@code next}) whose global positions are in its block. */
    private void send(int pass, int dest, int[] globalStart, int[] localStart, int[] target) throws RemoteException {
        int destLo = lo(dest, n, size);
        int destHi = lo(dest + 1, n, size);
        int[] runs = new int[2 * RADIX];
        int[] runDigit = new int[RADIX];
        int count = 0;
        int total = 0;
        for (int v = 0; v < RADIX; v++) {
            int from = Math.max(globalStart[v], destLo);
            int to = Math.min(globalStart[v] + localStart[v + 1] - localStart[v], destHi);
            if (from < to) {
                runs[2 * count] = from;
                runs[2 * count + 1] = to - from;
                runDigit[count] = v;
                count++;
                total += to - from;
            }
        }
        int[] block = new int[total];
        int at = 0;
        for (int m = 0; m < count; m++) {
            int from = runs[2 * m];
            int v = runDigit[m];
            System.arraycopy(next, localStart[v] + from - globalStart[v], block, at, runs[2 * m + 1]);
            at += runs[2 * m + 1];
        }
        int[] used = Arrays.copyOf(runs, 2 * count);
        if (dest == rank) {
            place(used, block, target);
        } else {
            peers[dest].putKeys(pass, rank, used, block);
        }
    }

    /** Copies received runs into this rank's block. */
    private void place(int[] runs, int[] block, int[] target) {
        int at = 0;
        for (int m = 0; m < runs.length; m += 2) {
            System.arraycopy(block, at, target, runs[m] - lo, runs[m + 1]);
            at += runs[m + 1];
        }
    }

    /** Combining tree up to rank 0 and the complete table back down. */
    private int[][] mergeHistograms(int pass, int[][] table) throws Exception {
        for (int child = 2 * rank + 1; child <= 2 * rank + 2 && child < size; child++) {
            int[][] sub = (int[][]) mailbox.take(Mailbox.key(pass, child));
            for (int r = 0; r < size; r++) {
                if (sub[r] != null) {
                    table[r] = sub[r];
                }
            }
        }
        if (rank > 0) {
            int parent = (rank - 1) / 2;
            peers[parent].putTable(pass, rank, table);
            table = (int[][]) mailbox.take(Mailbox.key(pass, parent));
        }
        for (int child = 2 * rank + 1; child <= 2 * rank + 2 && child < size; child++) {
            peers[child].putTable(pass, rank, table);
        }
        return table;
    }

    @Override
    protected boolean verify() {
        int[] expected = input.clone();
        Arrays.sort(expected);
        return Arrays.equals(expected, result);
    }
}
