package ibis.benchmarks.rmi.apps;

import java.rmi.RemoteException;

/** The remote interface of one rank of ASP ({@link Asp}). */
public interface AspPeer extends AppPeer {
    /**
     * Delivers row k of the distance table (broadcast along the spanning tree).
     *
     * @param k the iteration, which is also the row number
     * @param row the row
     * @throws RemoteException when the call fails
     */
    void putRow(int k, int[] row) throws RemoteException;

    /**
     * Delivers a rank's final rows to rank 0.
     *
     * @param from the sender's rank
     * @param rows its rows
     * @throws RemoteException when the call fails
     */
    void putRows(int from, int[][] rows) throws RemoteException;
}
