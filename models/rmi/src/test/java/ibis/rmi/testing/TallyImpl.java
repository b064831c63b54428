package ibis.rmi.testing;

import ibis.rmi.server.UnicastRemoteObject;

import java.rmi.RemoteException;

/** A running sum, served through the package-private {@link Tally}. */
final class TallyImpl extends UnicastRemoteObject implements Tally {
    private static final long serialVersionUID = 1L;
    private int sum;

    TallyImpl(int start) throws RemoteException {
        sum = start;
    }

    @Override
    public synchronized int add(int x) {
        sum += x;
        return sum;
    }

    @Override
    public synchronized int total() {
        return sum;
    }

    @Override
    public int addTo(Tally other, int x) throws RemoteException {
        return other.add(x);
    }

    @Override
    public Tally fork(int start) throws RemoteException {
        return new TallyImpl(start);
    }

    @Override
    public long pid() {
        return ProcessHandle.current().pid();
    }
}
