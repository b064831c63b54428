package ibis.rmi.testing;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** A public remote interface whose methods take and return a package-private class. */
public interface Ledger extends Remote {
    Entry record(Entry e) throws RemoteException;

    Entry[] all() throws RemoteException;
}
