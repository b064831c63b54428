package ibis.rmi.registry;

import ibis.ipl.Ibis;
import ibis.ipl.IbisIdentifier;
import ibis.rmi.impl.RegistryImpl;
import ibis.rmi.impl.RmiRuntime;

import java.io.IOException;
import java.rmi.ConnectException;
import java.rmi.RemoteException;
import java.rmi.server.ExportException;
import java.rmi.server.RMIClientSocketFactory;
import java.rmi.server.RMIServerSocketFactory;
import java.util.HashMap;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates and finds registries, as {@code java.rmi.registry.LocateRegistry}, but without a
 * registry process: a registry is a remote object served by one member of the Ibis pool, found
 * through the pool's IPL registry. The "port" number names one of several independent registries
 * of the pool (the election {@code ibis.rmi.registry.PORT} decides which member serves it); the
 * host is accepted and ignored, because every member of the pool reaches the same registries.
 *
 * <ul>
 * <li>{@link #createRegistry(int)} makes this member the server of that registry: it stands in
 * the election and exports the registry when it wins; when another member already won it throws
 * {@link ExportException}.</li>
 * <li>{@link #getRegistry(String, int)} waits (at most {@code ibis.rmi.registry.timeout} ms) for the
 * election's winner and returns a stub of its registry; without a winner it throws
 * {@link ConnectException}.</li>
 * <li>{@link #getOrCreateRegistry(int)} (used by {@code Naming.bind} and {@code Naming.rebind})
 * stands in the election: the first member to bind serves the registry.</li>
 * </ul>
 * A registry lives as long as the member serving it.
 */
public final class LocateRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(LocateRegistry.class);

    private static final String NAME_PREFIX = "ibis.rmi.registry.";

    /** The registries this JVM serves, by port. */
    private static final Map<Integer, Registry> LOCAL = new HashMap<>();

    private LocateRegistry() {
    }

    /**
     * Returns the default registry ({@link Registry#REGISTRY_PORT}).
     *
     * @return a stub of the registry
     * @throws RemoteException when no member serves it
     */
    public static Registry getRegistry() throws RemoteException {
        return getRegistry(null, Registry.REGISTRY_PORT);
    }

    /**
     * Returns a registry by number.
     *
     * @param port the registry number (0 or less: the default)
     * @return a stub of the registry
     * @throws RemoteException when no member serves it
     */
    public static Registry getRegistry(int port) throws RemoteException {
        return getRegistry(null, port);
    }

    /**
     * Returns the default registry; the host is ignored (see the class description).
     *
     * @param host ignored
     * @return a stub of the registry
     * @throws RemoteException when no member serves it
     */
    public static Registry getRegistry(String host) throws RemoteException {
        return getRegistry(host, Registry.REGISTRY_PORT);
    }

    /**
     * Returns a registry; the host is ignored (see the class description).
     *
     * @param host ignored
     * @param port the registry number (0 or less: the default)
     * @return a stub of the registry, or the registry itself when this JVM serves it
     * @throws RemoteException when no member serves it within {@code ibis.rmi.registry.timeout}
     */
    public static Registry getRegistry(String host, int port) throws RemoteException {
        int p = port <= 0 ? Registry.REGISTRY_PORT : port;
        synchronized (LOCAL) {
            Registry local = LOCAL.get(p);
            if (local != null) {
                return local;
            }
        }
        RmiRuntime runtime = RmiRuntime.get();
        IbisIdentifier winner;
        try {
            winner = runtime.ibis().registry().getElectionResult(NAME_PREFIX + p, runtime.registryTimeout());
        } catch (IOException e) {
            throw new ConnectException("cannot reach the pool registry to find RMI registry " + p + ": " + e, e);
        }
        if (winner == null) {
            throw new ConnectException("no member of pool " + runtime.ibis().registry().getPoolName()
                    + " serves RMI registry " + p + " (nobody called createRegistry or Naming.bind/rebind within "
                    + runtime.registryTimeout() + " ms)");
        }
        return stubAt(runtime, winner, p);
    }

    /**
     * Returns a registry, as {@link #getRegistry(String, int)}: Ibis RMI does not use sockets of
     * its own, so the client socket factory is accepted and ignored (as by
     * {@code UnicastRemoteObject}'s overloads).
     *
     * @param host ignored
     * @param port the registry number (0 or less: the default)
     * @param csf ignored
     * @return a stub of the registry, or the registry itself when this JVM serves it
     * @throws RemoteException when no member serves it within {@code ibis.rmi.registry.timeout}
     */
    public static Registry getRegistry(String host, int port, RMIClientSocketFactory csf) throws RemoteException {
        ignoredFactories(csf, null);
        return getRegistry(host, port);
    }

    /**
     * Creates the registry with a number in this JVM, as {@link #createRegistry(int)}: the socket
     * factories are accepted and ignored.
     *
     * @param port the registry number (0 or less: the default)
     * @param csf ignored
     * @param ssf ignored
     * @return the registry
     * @throws ExportException when another member already serves it, or this JVM does
     * @throws RemoteException when Ibis cannot be reached
     */
    public static Registry createRegistry(int port, RMIClientSocketFactory csf, RMIServerSocketFactory ssf)
            throws RemoteException {
        ignoredFactories(csf, ssf);
        return createRegistry(port);
    }

    private static void ignoredFactories(RMIClientSocketFactory csf, RMIServerSocketFactory ssf) {
        if ((csf != null || ssf != null) && LOG.isDebugEnabled()) {
            LOG.debug("ibis rmi: registry socket factories ignored (client {}, server {}): Ibis uses its own transport",
                    csf, ssf);
        }
    }

    /**
     * Creates the registry with a number in this JVM.
     *
     * @param port the registry number (0 or less: the default)
     * @return the registry
     * @throws ExportException when another member already serves it, or this JVM does
     * @throws RemoteException when Ibis cannot be reached
     */
    public static Registry createRegistry(int port) throws RemoteException {
        int p = port <= 0 ? Registry.REGISTRY_PORT : port;
        synchronized (LOCAL) {
            if (LOCAL.containsKey(p)) {
                throw new ExportException("RMI registry " + p + " is already served by this JVM");
            }
            Registry r = elect(p);
            if (r == null) {
                throw new ExportException("RMI registry " + p + " is already served by another member of the pool");
            }
            return r;
        }
    }

    /**
     * Returns the registry with a number, serving it in this JVM when no member serves it yet.
     *
     * @param port the registry number (0 or less: the default)
     * @return the registry, or a stub of it
     * @throws RemoteException when Ibis cannot be reached
     */
    public static Registry getOrCreateRegistry(int port) throws RemoteException {
        int p = port <= 0 ? Registry.REGISTRY_PORT : port;
        synchronized (LOCAL) {
            Registry local = LOCAL.get(p);
            if (local != null) {
                return local;
            }
            Registry r = elect(p);
            if (r != null) {
                return r;
            }
        }
        return getRegistry(null, p);
    }

    /**
     * Stands in the election; returns the registry when this member wins, else null. The registry is
     * exported before the election: a member that learns the result may connect at once (members
     * that start together, as the ranks of an MPI job, do), so the winner's port must be there by
     * then. A loser withdraws it again.
     */
    private static Registry elect(int p) throws RemoteException {
        RmiRuntime runtime = RmiRuntime.get();
        Ibis ibis = runtime.ibis();
        RegistryImpl impl = new RegistryImpl();
        runtime.exportNamed(impl, NAME_PREFIX + p);
        IbisIdentifier winner;
        try {
            winner = ibis.registry().elect(NAME_PREFIX + p);
        } catch (IOException e) {
            runtime.withdraw(impl);
            throw new ConnectException("cannot reach the pool registry to elect RMI registry " + p + ": " + e, e);
        }
        if (!ibis.identifier().equals(winner)) {
            runtime.withdraw(impl);
            return null;
        }
        LOCAL.put(p, impl);
        return impl;
    }

    private static Registry stubAt(RmiRuntime runtime, IbisIdentifier member, int p) throws RemoteException {
        return (Registry) runtime.stubFor(member, NAME_PREFIX + p, Registry.class);
    }
}
