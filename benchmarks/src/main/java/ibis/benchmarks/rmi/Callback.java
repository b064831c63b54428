package ibis.benchmarks.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** The remote interface a client exports for {@link BenchService#pingpong}: the server calls it back. */
public interface Callback extends Remote {

    /** Receives the value of a {@code pingpong} call. */
    void pong(Object value) throws RemoteException;
}
