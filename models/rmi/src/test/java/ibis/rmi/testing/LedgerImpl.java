package ibis.rmi.testing;

import ibis.rmi.server.UnicastRemoteObject;

import java.rmi.RemoteException;
import java.util.ArrayList;
import java.util.List;

/** Keeps the entries it is given; answers each with the running balance. */
final class LedgerImpl extends UnicastRemoteObject implements Ledger {
    private static final long serialVersionUID = 1L;
    private final List<Entry> entries = new ArrayList<>();
    private int balance;

    LedgerImpl() throws RemoteException {
    }

    @Override
    public synchronized Entry record(Entry e) {
        entries.add(e);
        balance += e.amount;
        return new Entry("balance", balance);
    }

    @Override
    public synchronized Entry[] all() {
        return entries.toArray(new Entry[0]);
    }
}
