package ibis.rmi.testing;

import java.rmi.RemoteException;

/** A package-private remote interface whose methods also take and return package-private remote types. */
interface Tally extends TallyBase {
    int total() throws RemoteException;

    /** Adds {@code x} to {@code other} (a call back to the caller's JVM) and returns its total. */
    int addTo(Tally other, int x) throws RemoteException;

    /** A new tally served in this JVM, starting at {@code start}. */
    Tally fork(int start) throws RemoteException;

    long pid() throws RemoteException;
}
