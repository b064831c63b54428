package ibis.rmi.testing;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** A third remote interface, implemented together with {@link Callback} by one object. */
public interface Counter extends Remote {
    int next() throws RemoteException;
}
