package ibis.benchmarks.rmi;

import java.rmi.RemoteException;
import java.rmi.server.UnicastRemoteObject;

/**
 * A client's callback for {@link BenchService#pingpong}: exported by its constructor
 * ({@code extends UnicastRemoteObject}); counts the calls and keeps the last value.
 */
public final class CallbackImpl extends UnicastRemoteObject implements Callback {

    private static final long serialVersionUID = 1L;

    private volatile long pongs;
    private volatile Object last;

    /** Creates and exports the callback. */
    public CallbackImpl() throws RemoteException {
        super();
    }

    @Override
    public void pong(Object value) {
        last = value;
        pongs++;
    }

    /** @return the number of {@code pong} calls so far (they come one at a time from one server) */
    long pongs() {
        return pongs;
    }

    /** @return the last value received */
    Object last() {
        return last;
    }
}
