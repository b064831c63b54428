package ibis.rmi.testing;

import ibis.rmi.server.UnicastRemoteObject;

import java.rmi.RemoteException;

/** A callback adding a base to its argument. */
public class CallbackImpl extends UnicastRemoteObject implements Callback {
    private static final long serialVersionUID = 1L;
    private final int base;

    public CallbackImpl(int base) throws RemoteException {
        this.base = base;
    }

    @Override
    public int call(int x) {
        return base + x;
    }

    @Override
    public long pid() {
        return ProcessHandle.current().pid();
    }
}
