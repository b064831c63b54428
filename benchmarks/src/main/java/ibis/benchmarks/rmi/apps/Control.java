package ibis.benchmarks.rmi.apps;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** The per-process remote object of a run: barrier (served by rank 0) and the end of the run. */
public interface Control extends Remote {

    /**
     * Waits until all ranks have called the barrier with this epoch (served by rank 0).
     *
     * @param epoch the barrier's number; epochs are used in increasing order
     * @throws RemoteException when the barrier is not complete within the run's time limit
     */
    void barrier(int epoch) throws RemoteException;

    /**
     * Tells a worker that rank 0 has everything and it may exit.
     *
     * @param allVerified whether every result was right (the worker's exit status follows it)
     * @throws RemoteException when the call fails
     */
    void quit(boolean allVerified) throws RemoteException;
}
