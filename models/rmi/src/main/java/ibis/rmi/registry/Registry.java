package ibis.rmi.registry;

import java.rmi.AccessException;
import java.rmi.AlreadyBoundException;
import java.rmi.NotBoundException;
import java.rmi.Remote;
import java.rmi.RemoteException;

/**
 * A name service for remote objects, with the methods and exceptions of
 * {@code java.rmi.registry.Registry}. An Ibis RMI registry is itself a remote object, served by one
 * member of the pool (see {@link LocateRegistry}).
 */
public interface Registry extends Remote {

    /** The default registry "port": the number that selects a registry when none is given. */
    int REGISTRY_PORT = 1099;

    /**
     * Returns the remote object bound to a name.
     *
     * @param name the name
     * @return a stub of the object
     * @throws NotBoundException when nothing is bound to the name
     * @throws RemoteException when the registry cannot be reached
     * @throws AccessException never (kept for compatibility)
     */
    Remote lookup(String name) throws RemoteException, NotBoundException, AccessException;

    /**
     * Binds a name to a remote object.
     *
     * @param name the name
     * @param obj the object (an exported object is bound as its stub)
     * @throws AlreadyBoundException when the name is bound already
     * @throws RemoteException when the registry cannot be reached
     * @throws AccessException never (kept for compatibility)
     */
    void bind(String name, Remote obj) throws RemoteException, AlreadyBoundException, AccessException;

    /**
     * Removes the binding of a name.
     *
     * @param name the name
     * @throws NotBoundException when nothing is bound to the name
     * @throws RemoteException when the registry cannot be reached
     * @throws AccessException never (kept for compatibility)
     */
    void unbind(String name) throws RemoteException, NotBoundException, AccessException;

    /**
     * Binds a name to a remote object, replacing any earlier binding.
     *
     * @param name the name
     * @param obj the object
     * @throws RemoteException when the registry cannot be reached
     * @throws AccessException never (kept for compatibility)
     */
    void rebind(String name, Remote obj) throws RemoteException, AccessException;

    /**
     * Returns the bound names.
     *
     * @return the names, sorted
     * @throws RemoteException when the registry cannot be reached
     * @throws AccessException never (kept for compatibility)
     */
    String[] list() throws RemoteException, AccessException;
}
