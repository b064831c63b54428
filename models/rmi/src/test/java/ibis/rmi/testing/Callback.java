package ibis.rmi.testing;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** A second remote interface, passed as argument and returned as result. */
public interface Callback extends Remote {
    int call(int x) throws RemoteException;
    long pid() throws RemoteException;
}
