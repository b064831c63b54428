package ibis.benchmarks.gmi.apps;

import java.io.Serializable;

/**
 * All of a MolDyn process's data of one step in a single object: the force on every particle and
 * its share of the potential energy, zero for the particles other processes own.
 */
public final class Forces implements Serializable {

    private static final long serialVersionUID = 1L;

    final double[] x;
    final double[] y;
    final double[] z;
    final double[] energy;

    Forces(int n) {
        x = new double[n];
        y = new double[n];
        z = new double[n];
        energy = new double[n];
    }

    /** Adds {@code other} element by element (exact here: one of each pair of operands is zero). */
    void add(Forces other) {
        for (int i = 0; i < x.length; i++) {
            x[i] += other.x[i];
            y[i] += other.y[i];
            z[i] += other.z[i];
            energy[i] += other.energy[i];
        }
    }
}
