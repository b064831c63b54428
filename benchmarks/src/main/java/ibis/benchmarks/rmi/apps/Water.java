package ibis.benchmarks.rmi.apps;

import java.rmi.RemoteException;
import java.util.SplittableRandom;

/**
 * An O(N^2) molecular dynamics step loop in the style of SPLASH-2 Water ("Efficient Java RMI for
 * Parallel Programming"): N molecules (Lennard-Jones point masses, velocity Verlet) split in blocks
 * over the ranks. Each pair is computed once (Newton's third law): molecule i interacts with the
 * next half of the molecules, cyclically, as in Water. Per force evaluation every rank receives, in
 * one RMI from each rank whose molecules it needs, their positions; computes; and sends each of
 * those ranks, in one RMI, the force updates for its molecules. At the end positions, velocities
 * and the potential energy go to rank 0, which compares them with a sequential all-pairs run.
 */
public final class Water extends AppNode implements WaterPeer {

    private static final long serialVersionUID = 1L;
    private static final double DT = 0.002;

    private final int n;
    private final int steps;
    private final int lo;
    private final int hi;
    /** Positions of all molecules (only those of this rank and of the ranks it needs are current). */
    private final double[] pos;
    private final double[] vel;
    private final double[] force;
    /** needs[r][q]: rank r computes pairs with molecules of rank q (q != r). */
    private final boolean[][] needs;
    private double potential;
    private transient double[] finalState;
    private transient WaterPeer[] peers;

    Water(int rank, int size, Problem problem) throws RemoteException {
        super(rank, size);
        n = problem.pick(64, 1728, 4096);
        steps = problem.pick(3, 12, 20);
        pos = new double[3 * n];
        vel = new double[3 * n];
        force = new double[3 * n];
        initial(n, pos, vel);
        lo = lo(rank, n, size);
        hi = lo(rank + 1, n, size);
        needs = new boolean[size][size];
        for (int r = 0; r < size; r++) {
            for (int i = lo(r, n, size); i < lo(r + 1, n, size); i++) {
                for (int d = 1; d <= reach(i, n); d++) {
                    int q = ownerOf((i + d) % n, n, size);
                    needs[r][q] |= q != r;
                }
            }
        }
    }

    /** Molecules on a cubic lattice near the potential minimum, slightly displaced, small velocities. */
    static void initial(int n, double[] pos, double[] vel) {
        int side = (int) Math.ceil(Math.cbrt(n));
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < n; i++) {
            int[] cell = {i % side, (i / side) % side, i / (side * side)};
            for (int c = 0; c < 3; c++) {
                pos[3 * i + c] = 1.12 * cell[c] + random.nextDouble(-0.05, 0.05);
                vel[3 * i + c] = random.nextDouble(-0.1, 0.1);
            }
        }
    }

    /** How far (cyclically) molecule i reaches: pairs (i, i + d) for d = 1 .. reach, each pair once. */
    static int reach(int i, int n) {
        return (n - 1) / 2 + (n % 2 == 0 && i < n / 2 ? 1 : 0);
    }

    /** Adds the Lennard-Jones interaction of molecules i and j to f; returns its energy. */
    static double pair(double[] p, double[] f, int i, int j) {
        double dx = p[3 * i] - p[3 * j];
        double dy = p[3 * i + 1] - p[3 * j + 1];
        double dz = p[3 * i + 2] - p[3 * j + 2];
        double inv2 = 1 / (dx * dx + dy * dy + dz * dz);
        double inv6 = inv2 * inv2 * inv2;
        double s = 24 * inv2 * inv6 * (2 * inv6 - 1);
        f[3 * i] += s * dx;
        f[3 * i + 1] += s * dy;
        f[3 * i + 2] += s * dz;
        f[3 * j] -= s * dx;
        f[3 * j + 1] -= s * dy;
        f[3 * j + 2] -= s * dz;
        return 4 * inv6 * (inv6 - 1);
    }

    /** Half kick and drift for molecules [from, to). */
    static void kickDrift(double[] p, double[] v, double[] f, int from, int to) {
        for (int c = 3 * from; c < 3 * to; c++) {
            v[c] += 0.5 * DT * f[c];
            p[c] += DT * v[c];
        }
    }

    /** Half kick for molecules [from, to). */
    static void kick(double[] v, double[] f, int from, int to) {
        for (int c = 3 * from; c < 3 * to; c++) {
            v[c] += 0.5 * DT * f[c];
        }
    }

    /** The sequential reference: all pairs i < j; returns positions, velocities and potential energy. */
    static double[] sequential(int n, int steps) {
        double[] p = new double[3 * n];
        double[] v = new double[3 * n];
        double[] f = new double[3 * n];
        initial(n, p, v);
        double energy = 0;
        for (int e = 0; e <= steps; e++) {
            if (e > 0) {
                kickDrift(p, v, f, 0, n);
            }
            java.util.Arrays.fill(f, 0);
            energy = 0;
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    energy += pair(p, f, i, j);
                }
            }
            if (e > 0) {
                kick(v, f, 0, n);
            }
        }
        double[] out = new double[6 * n + 1];
        System.arraycopy(p, 0, out, 0, 3 * n);
        System.arraycopy(v, 0, out, 3 * n, 3 * n);
        out[6 * n] = energy;
        return out;
    }

    @Override
    protected void connect(AppPeer[] stubs) {
        peers = new WaterPeer[stubs.length];
        for (int r = 0; r < stubs.length; r++) {
            peers[r] = (WaterPeer) stubs[r];
        }
    }

    @Override
    public void putPositions(int evaluation, int from, double[] positions) throws RemoteException {
        mailbox.put(Mailbox.key(2 * evaluation, from), positions);
    }

    @Override
    public void putForces(int evaluation, int from, double[] forces) throws RemoteException {
        mailbox.put(Mailbox.key(2 * evaluation + 1, from), forces);
    }

    @Override
    public void putState(int from, double[] state) throws RemoteException {
        mailbox.put(Mailbox.key(-1, from), state);
    }

    @Override
    protected void run() throws Exception {
        for (int e = 0; e <= steps; e++) {
            if (e > 0) {
                kickDrift(pos, vel, force, lo, hi);
            }
            double[] mine = java.util.Arrays.copyOfRange(pos, 3 * lo, 3 * hi);
            for (int s = 1; s < size; s++) {
                int q = (rank + s) % size;
                if (needs[q][rank]) {
                    peers[q].putPositions(e, rank, mine);
                }
            }
            for (int s = 1; s < size; s++) {
                int q = (rank - s + size) % size;
                if (needs[rank][q]) {
                    double[] theirs = (double[]) mailbox.take(Mailbox.key(2 * e, q));
                    System.arraycopy(theirs, 0, pos, 3 * lo(q, n, size), theirs.length);
                }
            }
            java.util.Arrays.fill(force, 0);
            potential = 0;
            for (int i = lo; i < hi; i++) {
                for (int d = 1, reach = reach(i, n); d <= reach; d++) {
                    potential += pair(pos, force, i, (i + d) % n);
                }
            }
            for (int s = 1; s < size; s++) {
                int q = (rank + s) % size;
                if (needs[rank][q]) {
                    int qLo = lo(q, n, size);
                    double[] theirs = java.util.Arrays.copyOfRange(force, 3 * qLo, 3 * lo(q + 1, n, size));
                    peers[q].putForces(e, rank, theirs);
                }
            }
            for (int s = 1; s < size; s++) {
                int q = (rank - s + size) % size;
                if (needs[q][rank]) {
                    double[] add = (double[]) mailbox.take(Mailbox.key(2 * e + 1, q));
                    for (int c = 0; c < add.length; c++) {
                        force[3 * lo + c] += add[c];
                    }
                }
            }
            if (e > 0) {
                kick(vel, force, lo, hi);
            }
        }
        double[] state = new double[6 * (hi - lo) + 1];
        System.arraycopy(pos, 3 * lo, state, 0, 3 * (hi - lo));
        System.arraycopy(vel, 3 * lo, state, 3 * (hi - lo), 3 * (hi - lo));
        state[state.length - 1] = potential;
        if (rank != 0) {
            peers[0].putState(rank, state);
            return;
        }
        finalState = new double[6 * n + 1];
        collect(0, state);
        for (int r = 1; r < size; r++) {
            collect(r, (double[]) mailbox.take(Mailbox.key(-1, r)));
        }
    }

    private void collect(int from, double[] state) {
        int rLo = lo(from, n, size);
        int count = lo(from + 1, n, size) - rLo;
        System.arraycopy(state, 0, finalState, 3 * rLo, 3 * count);
        System.arraycopy(state, 3 * count, finalState, 3 * n + 3 * rLo, 3 * count);
        finalState[6 * n] += state[6 * count];
    }

    @Override
    protected boolean verify() {
        double[] expected = sequential(n, steps);
        for (int c = 0; c < 6 * n; c++) {
            if (!(Math.abs(expected[c] - finalState[c]) <= 1e-9 * (1 + Math.abs(expected[c])))) {
                return false;
            }
        }
        double e = expected[6 * n];
        return Math.abs(e - finalState[6 * n]) <= 1e-9 * Math.abs(e);
    }
}
