package ibis.rmi;

import ibis.rmi.registry.LocateRegistry;
import ibis.rmi.registry.Registry;

import java.net.MalformedURLException;
import java.rmi.AlreadyBoundException;
import java.rmi.NotBoundException;
import java.rmi.Remote;
import java.rmi.RemoteException;

/**
 * Binds and finds remote objects by URL, as {@code java.rmi.Naming}. A URL has the form
 * {@code [rmi:][//host[:port]/]name}. Because the registries are those of the Ibis pool (see
 * {@link LocateRegistry}), the host is accepted and ignored, and the port (default
 * {@link Registry#REGISTRY_PORT}) only selects which of the pool's registries is meant.
 *
 * <p>{@link #bind} and {@link #rebind} serve the registry in this JVM when no member of the pool
 * serves it yet (the first member to bind serves it); {@link #lookup}, {@link #unbind} and
 * {@link #list} wait at most {@code ibis.rmi.registry.timeout} ms for a member serving it.
 */
public final class Naming {

    private Naming() {
    }

    /**
     * Returns the remote object bound to a URL.
     *
     * @param name the URL
     * @return a stub of the object
     * @throws NotBoundException when nothing is bound to the name
     * @throws MalformedURLException when the URL is malformed
     * @throws RemoteException when the registry cannot be reached
     */
    public static Remote lookup(String name) throws NotBoundException, MalformedURLException, RemoteException {
        ParsedName n = parse(name);
        return LocateRegistry.getRegistry(n.host, n.port).lookup(n.name);
    }

    /**
     * Binds a URL to a remote object.
     *
     * @param name the URL
     * @param obj the object
     * @throws AlreadyBoundException when the name is bound already
     * @throws MalformedURLException when the URL is malformed
     * @throws RemoteException when the registry cannot be reached
     */
    public static void bind(String name, Remote obj) throws AlreadyBoundException, MalformedURLException,
            RemoteException {
        ParsedName n = parse(name);
        LocateRegistry.getOrCreateRegistry(n.port).bind(n.name, obj);
    }

    /**
     * Removes the binding of a URL.
     *
     * @param name the URL
     * @throws NotBoundException when nothing is bound to the name
     * @throws MalformedURLException when the URL is malformed
     * @throws RemoteException when the registry cannot be reached
     */
    public static void unbind(String name) throws RemoteException, NotBoundException, MalformedURLException {
        ParsedName n = parse(name);
        LocateRegistry.getRegistry(n.host, n.port).unbind(n.name);
    }

    /**
     * Binds a URL to a remote object, replacing any earlier binding.
     *
     * @param name the URL
     * @param obj the object
     * @throws MalformedURLException when the URL is malformed
     * @throws RemoteException when the registry cannot be reached
     */
    public static void rebind(String name, Remote obj) throws RemoteException, MalformedURLException {
        ParsedName n = parse(name);
        LocateRegistry.getOrCreateRegistry(n.port).rebind(n.name, obj);
    }

    /**
     * Lists the names bound in the registry named by a URL.
     *
     * @param name the URL of the registry ({@code //host:port/}; a name part is ignored)
     * @return the bound names as URLs {@code //host:port/name}
     * @throws MalformedURLException when the URL is malformed
     * @throws RemoteException when the registry cannot be reached
     */
    public static String[] list(String name) throws RemoteException, MalformedURLException {
        ParsedName n = parse(name);
        String[] names = LocateRegistry.getRegistry(n.host, n.port).list();
        String prefix = "//" + (n.host == null ? "" : n.host) + ":" + n.port + "/";
        for (int i = 0; i < names.length; i++) {
            names[i] = prefix + names[i];
        }
        return names;
    }

    /** A parsed URL. */
    static final class ParsedName {
        final String host;
        final int port;
        final String name;

        ParsedName(String host, int port, String name) {
            this.host = host;
            this.port = port;
            this.name = name;
        }
    }

    static ParsedName parse(String url) throws MalformedURLException {
        if (url == null) {
            throw new NullPointerException("RMI URL is null");
        }
        String s = url;
        if (s.startsWith("rmi:")) {
            s = s.substring(4);
        }
        String host = null;
        int port = Registry.REGISTRY_PORT;
        if (s.startsWith("//")) {
            int slash = s.indexOf('/', 2);
            String authority = slash < 0 ? s.substring(2) : s.substring(2, slash);
            s = slash < 0 ? "" : s.substring(slash + 1);
            int colon = authority.lastIndexOf(':');
            if (colon >= 0 && authority.indexOf(']') < colon) {
                String p = authority.substring(colon + 1);
                authority = authority.substring(0, colon);
                if (!p.isEmpty()) {
                    try {
                        port = Integer.parseInt(p);
                    } catch (NumberFormatException e) {
                        throw new MalformedURLException("invalid port number in RMI URL " + url);
                    }
                    if (port <= 0 || port > 65535) {
                        throw new MalformedURLException("port out of range in RMI URL " + url);
                    }
                }
            }
            host = authority.isEmpty() ? null : authority;
        } else if (s.startsWith("/")) {
            s = s.substring(1);
        } else if (url.startsWith("rmi:")) {
            throw new MalformedURLException("RMI URL " + url + " must continue with // after rmi:");
        }
        if (s.indexOf('/') >= 0 || s.indexOf('#') >= 0 || s.indexOf('?') >= 0) {
            throw new MalformedURLException("invalid name in RMI URL " + url);
        }
        return new ParsedName(host, port, s);
    }
}
