package ibis.benchmarks.rmi.apps;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** What every application's remote interface has: a call that opens the connection before timing. */
public interface AppPeer extends Remote {

    /**
     * Does nothing; called once per peer before the timed part so that connections exist.
     *
     * @throws RemoteException when the call fails
     */
    void ping() throws RemoteException;
}
