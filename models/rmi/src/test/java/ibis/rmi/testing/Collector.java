package ibis.rmi.testing;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** Where the client ranks of {@link RmiMpiRank} report how their checks went. */
public interface Collector extends Remote {

    /** One client's result: {@code OK ...} or {@code FAILED reason}. */
    void report(int rank, String result) throws RemoteException;

    /**
     * A client's last call, after its report returned: rank 0 ends when every client made it, so its
     * reply may be lost (the caller ignores that), never a report's.
     */
    void done(int rank) throws RemoteException;
}
