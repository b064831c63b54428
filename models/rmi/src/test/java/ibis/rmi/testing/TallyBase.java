package ibis.rmi.testing;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** A package-private remote interface (as many java.rmi programs declare them), extended by {@link Tally}. */
interface TallyBase extends Remote {
    int add(int x) throws RemoteException;
}
