package ibis.benchmarks.rmi.apps;

import java.rmi.RemoteException;

/** The remote interface of one rank of SOR ({@link Sor}). */
public interface SorPeer extends AppPeer {
    /**
     * Delivers a neighbour's border row for a half-iteration.
     *
     * @param phase the half-iteration (2 * iteration + colour)
     * @param fromAbove whether the sender is the rank above (its last row) or below (its first row)
     * @param row the row
     * @throws RemoteException when the call fails
     */
    void putRow(int phase, boolean fromAbove, double[] row) throws RemoteException;

    /**
     * Delivers a rank's final rows to rank 0.
     *
     * @param from the sender's rank
     * @param rows its interior rows
     * @throws RemoteException when the call fails
     */
    void putBlock(int from, double[][] rows) throws RemoteException;
}
