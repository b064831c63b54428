package ibis.rmi.testing;

import ibis.rmi.Naming;

import java.rmi.Remote;
import java.rmi.RemoteException;

/**
 * Uses package-private remote interfaces from this package (code of other packages cannot name
 * them): serving a {@link TallyImpl} and calling one.
 */
public final class TallyUse {

    private TallyUse() {
    }

    /** Exports a tally starting at {@code start} and binds it. */
    public static void serve(String name, int start) throws Exception {
        Naming.rebind(name, new TallyImpl(start));
    }

    /**
     * Calls the tally bound as {@code name}: adds, passes a tally of this JVM for a call back, forks.
     *
     * @return {@code "PID add total callback local fork"}, and the stub's class name last
     */
    public static String exercise(String name) throws Exception {
        Tally t = (Tally) Naming.lookup(name);
        int added = t.add(5);
        int total = t.total();
        TallyImpl local = new TallyImpl(100);
        int callback = t.addTo(local, 7);
        Tally forked = t.fork(40);
        int fork = forked.add(2);
        return t.pid() + " " + added + " " + total + " " + callback + " " + local.total() + " " + fork + " "
                + t.getClass().getName();
    }

    /** Exports a {@link LedgerImpl} and binds it. */
    public static void serveLedger(String name) throws Exception {
        Naming.rebind(name, new LedgerImpl());
    }

    /**
     * Records two entries in the ledger bound as {@code name} (package-private parameter and result
     * class) and reads them back.
     *
     * @return {@code "balance all"}, and the stub's class name last
     */
    public static String exerciseLedger(String name) throws Exception {
        Ledger l = (Ledger) Naming.lookup(name);
        l.record(new Entry("a", 3));
        Entry balance = l.record(new Entry("b", 4));
        return balance + " " + java.util.Arrays.toString(l.all()).replace(" ", "") + " " + l.getClass().getName();
    }

    /** @return whether {@code r} is a stub implementing the package-private {@link Tally} */
    public static boolean isTally(Remote r) {
        return r instanceof Tally;
    }

    /** A tally served in this JVM, as a {@link TallyBase} other packages can hold only as {@link Remote}. */
    public static Remote newTally(int start) throws RemoteException {
        return new TallyImpl(start);
    }
}
