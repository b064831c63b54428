package ibis.benchmarks.rmi.apps;

import java.rmi.RemoteException;

/** The remote interface of one rank of Radix ({@link Radix}). */
public interface RadixPeer extends AppPeer {
    /**
     * Delivers a histogram table: upwards the rows of the sender's subtree, downwards the
     * complete table.
     *
     * @param pass the pass
     * @param from the sender's rank
     * @param table one histogram row per rank (rows outside the subtree are zero)
     * @throws RemoteException when the call fails
     */
    void putTable(int pass, int from, int[][] table) throws RemoteException;

    /**
     * Delivers keys: runs[2m] is the global position of run m, runs[2m + 1] its length; the
     * keys of the runs follow each other in {@code keys}.
     *
     * @param pass the pass ({@code PASSES} for the final gather at rank 0)
     * @param from the sender's rank
     * @param runs start and length of each run
     * @param keys the keys
     * @throws RemoteException when the call fails
     */
    void putKeys(int pass, int from, int[] runs, int[] keys) throws RemoteException;
}
