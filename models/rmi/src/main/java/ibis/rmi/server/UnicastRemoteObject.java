package ibis.rmi.server;

import ibis.rmi.impl.RmiRuntime;

import java.io.ObjectStreamException;
import java.rmi.NoSuchObjectException;
import java.rmi.Remote;
import java.rmi.RemoteException;

/**
 * A remote object served by this JVM, as {@code java.rmi.server.UnicastRemoteObject}: a subclass
 * is exported by its constructor, any other remote object with {@link #exportObject(Remote)}.
 * Each exported object gets its own receive port on this JVM's Ibis instance, served by a
 * skeleton generated for its remote interfaces.
 *
 * <p>The {@code port} arguments are accepted for compatibility and ignored: the receive port of
 * an object is chosen by the Ibis implementation. A serialized {@code UnicastRemoteObject} (as a
 * parameter or result, or in any object graph) travels as its stub while it is exported.
 */
public class UnicastRemoteObject implements Remote, java.io.Serializable {

    private static final long serialVersionUID = 1L;

    /**
     * Exports this object.
     *
     * @throws RemoteException when it cannot be exported
     */
    protected UnicastRemoteObject() throws RemoteException {
        exportObject(this);
    }

    /**
     * Exports this object; the port is ignored.
     *
     * @param port ignored (see the class description)
     * @throws RemoteException when it cannot be exported
     */
    protected UnicastRemoteObject(int port) throws RemoteException {
        this();
    }

    /**
     * Exports a remote object.
     *
     * @param obj the object; its class must implement at least one public remote interface
     * @return the stub of the object
     * @throws RemoteException when it cannot be exported (for example it is exported already)
     */
    public static Remote exportObject(Remote obj) throws RemoteException {
        return RmiRuntime.get().export(obj);
    }

    /**
     * Exports a remote object; the port is ignored.
     *
     * @param obj the object
     * @param port ignored (see the class description)
     * @return the stub of the object
     * @throws RemoteException when it cannot be exported
     */
    public static Remote exportObject(Remote obj, int port) throws RemoteException {
        return exportObject(obj);
    }

    /**
     * Unexports a remote object: later calls through its stubs fail with
     * {@link NoSuchObjectException}.
     *
     * @param obj the object
     * @param force when false and calls to the object are running, the object stays exported
     * @return true when the object is no longer exported
     * @throws NoSuchObjectException when the object is not exported
     */
    public static boolean unexportObject(Remote obj, boolean force) throws NoSuchObjectException {
        try {
            return RmiRuntime.get().unexport(obj, force);
        } catch (NoSuchObjectException e) {
            throw e;
        } catch (RemoteException e) {
            throw new NoSuchObjectException("Ibis RMI is not running: " + e.getMessage());
        }
    }

    /**
     * Returns the stub of an exported object.
     *
     * @param obj the object
     * @return the stub
     * @throws NoSuchObjectException when the object is not exported
     */
    public static Remote toStub(Remote obj) throws NoSuchObjectException {
        if (obj instanceof RemoteStub) {
            return obj;
        }
        try {
            return RmiRuntime.get().stubOf(obj);
        } catch (NoSuchObjectException e) {
            throw e;
        } catch (RemoteException e) {
            throw new NoSuchObjectException("Ibis RMI is not running: " + e.getMessage());
        }
    }

    /**
     * An exported object travels as its stub.
     *
     * @return the stub, or this object when it is not exported
     * @throws ObjectStreamException never
     */
    protected Object writeReplace() throws ObjectStreamException {
        return RmiRuntime.replaceExported(this);
    }
}
