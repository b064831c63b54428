package ibis.rmi.testing;

import java.rmi.RemoteException;

/** A subclass of a remote class adding a second remote interface. */
public class CountingCallback extends CallbackImpl implements Counter {
    private static final long serialVersionUID = 1L;
    private int count;

    public CountingCallback(int base) throws RemoteException {
        super(base);
    }

    @Override
    public synchronized int next() {
        return ++count;
    }
}
