package ibis.benchmarks.gmi.apps;

import ibis.gmi.CombinedInvocation;
import ibis.gmi.Group;
import ibis.gmi.ReturnReply;
import ibis.gmi.SingleInvocation;

/**
 * A MolDyn-style kernel: n particles under a Lennard-Jones potential (cut off at 2.5) in a periodic
 * cube of density 0.8, integrated with a simple Euler step. Positions and velocities are replicated;
 * each process computes the force on, and the potential energy of, the particles of its block, summing
 * over all other particles in index order (no Newton's third law, so each particle's force has one
 * author); an allreduce of the force arrays gives every process all forces. Every other process adds
 * exact zeros to a particle's force, so the sums are bit-identical for any process count. The checksum
 * covers the final positions, velocities and each step's total potential energy (summed in index order).
 */
final class MolDyn {

    private static final double CUTOFF2 = 2.5 * 2.5;
    private static final double DT = 0.002;

    private MolDyn() {
    }

    /** Replicated state. */
    private static final class State {
        final int n;
        final double side;
        final double[][] pos;
        final double[][] vel;
        long checksum;

        State(AppSpec s) {
            n = s.n();
            side = Math.cbrt(n / 0.8);
            int m = (int) Math.ceil(Math.cbrt(n));
            double spacing = side / m;
            pos = new double[3][n];
            vel = new double[3][n];
            for (int i = 0; i < n; i++) {
                int[] cell = { i % m, (i / m) % m, i / (m * m) };
                for (int d = 0; d < 3; d++) {
                    pos[d][i] = (cell[d] + 0.5 + 0.2 * (Inputs.uniform(s.seed(), i, d) - 0.5)) * spacing;
                    vel[d][i] = Inputs.uniform(s.seed(), i, 3 + d) - 0.5;
                }
            }
        }

        /** Forces on, and energies of, particles [lo, hi). */
        Forces forces(int lo, int hi) {
            Forces f = new Forces(n);
            double[] x = pos[0];
            double[] y = pos[1];
            double[] z = pos[2];
            for (int i = lo; i < hi; i++) {
                double fx = 0;
                double fy = 0;
                double fz = 0;
                double e = 0;
                for (int j = 0; j < n; j++) {
                    if (j == i) {
                        continue;
                    }
                    double dx = image(x[i] - x[j]);
                    double dy = image(y[i] - y[j]);
                    double dz = image(z[i] - z[j]);
                    double r2 = dx * dx + dy * dy + dz * dz;
                    if (r2 < CUTOFF2) {
                        double r2i = 1 / r2;
                        double r6i = r2i * r2i * r2i;
                        double ff = 48 * r2i * r6i * (r6i - 0.5);
                        fx += ff * dx;
                        fy += ff * dy;
                        fz += ff * dz;
                        e += 2 * r6i * (r6i - 1);
                    }
                }
                f.x[i] = fx;
                f.y[i] = fy;
                f.z[i] = fz;
                f.energy[i] = e;
            }
            return f;
        }

        private double image(double d) {
            return d - side * Math.rint(d / side);
        }

        /** Moves every particle with all forces; adds the step's energy to the checksum. */
        void move(int step, Forces f) {
            double[][] force = { f.x, f.y, f.z };
            for (int d = 0; d < 3; d++) {
                for (int i = 0; i < n; i++) {
                    vel[d][i] += DT * force[d][i];
                    double p = pos[d][i] + DT * vel[d][i];
                    pos[d][i] = p - side * Math.floor(p / side);
                }
            }
            double energy = 0;
            for (int i = 0; i < n; i++) {
                energy += f.energy[i];
            }
            checksum += Inputs.term(-1, step, energy);
        }

        long checksum() {
            long sum = checksum;
            for (int d = 0; d < 3; d++) {
                for (int i = 0; i < n; i++) {
                    sum += Inputs.term(i, d, pos[d][i]) + Inputs.term(i, 3 + d, vel[d][i]);
                }
            }
            return sum;
        }
    }

    /** The sequential program. */
    static long sequential(AppSpec s) {
        State st = new State(s);
        for (int step = 0; step < s.steps(); step++) {
            st.move(step, st.forces(0, s.n()));
        }
        return st.checksum();
    }

    /** GMI: each process's {@link Forces} object goes into a combined invocation of {@code sum}. */
    static long gmi(AppSpec s, Stopwatch clock) throws Exception {
        int me = Group.rank();
        int size = Group.size();
        MolDynGroup group = GmiAppMain.group("moldyn", MolDynGroup.class, new MolDynMember());
        Group.findMethod(group, "Forces sum(Forces)").configure(new CombinedInvocation("moldyn-forces", me, size,
                new MolDynMember.Add(), new SingleInvocation(0)), new ReturnReply(0));
        group.sum(new Forces(1));
        clock.start();
        State st = new State(s);
        int lo = Inputs.lo(s.n(), size, me);
        int hi = Inputs.lo(s.n(), size, me + 1);
        for (int step = 0; step < s.steps(); step++) {
            st.move(step, group.sum(st.forces(lo, hi)));
        }
        return st.checksum();
    }

    /** MPI style: four in-place allreduce (sum) calls, one per array. */
    static long mpi(AppSpec s, MessagePassing mp, Stopwatch clock) throws Exception {
        int me = mp.rank();
        int size = mp.size();
        mp.barrier();
        clock.start();
        State st = new State(s);
        int lo = Inputs.lo(s.n(), size, me);
        int hi = Inputs.lo(s.n(), size, me + 1);
        for (int step = 0; step < s.steps(); step++) {
            Forces f = st.forces(lo, hi);
            mp.allReduceSum(f.x);
            mp.allReduceSum(f.y);
            mp.allReduceSum(f.z);
            mp.allReduceSum(f.energy);
            st.move(step, f);
        }
        return st.checksum();
    }
}
