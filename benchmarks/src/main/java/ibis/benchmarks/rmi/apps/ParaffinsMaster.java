package ibis.benchmarks.rmi.apps;

import java.rmi.RemoteException;

/** The remote interface of the Paraffins master, rank 0 ({@link Paraffins}). */
public interface ParaffinsMaster extends AppPeer {
    /**
     * Hands in a finished task and takes the next one.
     *
     * @param done the molecules of the worker's last task, or null at the first call
     * @return the next task, or null when there are no more
     * @throws RemoteException when the call fails
     */
    Paraffins.Task next(Paraffins.Result done) throws RemoteException;
}
