package ibis.rmi.server;

import ibis.ipl.IbisIdentifier;
import ibis.ipl.Location;
import ibis.rmi.impl.RmiRuntime;
import ibis.rmi.impl.ServerCall;

import java.io.ObjectInputFilter;
import java.io.ObjectStreamException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.rmi.NoSuchObjectException;
import java.rmi.Remote;
import java.rmi.RemoteException;
import java.rmi.server.RMIClientSocketFactory;
import java.rmi.server.RMIServerSocketFactory;
import java.rmi.server.ServerNotActiveException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A remote object served by this JVM, as {@code java.rmi.server.UnicastRemoteObject}: a subclass
 * is exported by its constructor, any other remote object with {@link #exportObject(Remote)}.
 * Each exported object gets its own receive port on this JVM's Ibis instance, served by a
 * skeleton generated for its remote interfaces.
 *
 * <p>Every constructor and {@code exportObject} overload of the JDK 17 class exists here with the
 * same parameter types, so a {@code java.rmi} program compiles against this class (and the
 * {@code --java-rmi} rewriter pass can map its compiled calls). The {@code port} and socket
 * factory arguments are accepted and ignored (logged at debug level): Ibis uses its own transport,
 * and the receive port of an object is chosen by the Ibis implementation. An
 * {@link ObjectInputFilter} is not applied either (a warning is logged): parameters are read by
 * Ibis serialization, whose class filter is the property {@code ibis.io.class.filter}. A
 * serialized {@code UnicastRemoteObject} (as a parameter or result, or in any object graph)
 * travels as its stub while it is exported. Once exported, the object has the {@link RemoteRef} of
 * its stubs ({@link #getRef()}) and equals them ({@link RemoteObject}).
 */
public class UnicastRemoteObject extends RemoteObject {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(UnicastRemoteObject.class);

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
        ignored(port, null, null);
    }

    /**
     * Exports this object; the port and the socket factories are ignored.
     *
     * @param port ignored (see the class description)
     * @param csf ignored
     * @param ssf ignored
     * @throws RemoteException when it cannot be exported
     */
    protected UnicastRemoteObject(int port, RMIClientSocketFactory csf, RMIServerSocketFactory ssf)
            throws RemoteException {
        this();
        ignored(port, csf, ssf);
    }

    /**
     * Exports a remote object. (Deprecated in the JDK, where it returns a {@code RemoteStub} made
     * by rmic; here it returns the Ibis stub, which is a {@link RemoteStub}.)
     *
     * @param obj the object; its class must implement at least one public remote interface
     * @return the stub of the object
     * @throws RemoteException when it cannot be exported (for example it is exported already)
     */
    public static RemoteStub exportObject(Remote obj) throws RemoteException {
        RemoteStub stub = RmiRuntime.get().export(obj);
        if (obj instanceof RemoteObject exported) {
            exported.setRef(stub.getRef());
        }
        return stub;
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
        ignored(port, null, null);
        return exportObject(obj);
    }

    /**
     * Exports a remote object; the port and the socket factories are ignored.
     *
     * @param obj the object
     * @param port ignored (see the class description)
     * @param csf ignored
     * @param ssf ignored
     * @return the stub of the object
     * @throws RemoteException when it cannot be exported
     */
    public static Remote exportObject(Remote obj, int port, RMIClientSocketFactory csf, RMIServerSocketFactory ssf)
            throws RemoteException {
        ignored(port, csf, ssf);
        return exportObject(obj);
    }

    /**
     * Exports a remote object; the port is ignored and the filter is not applied (see the class
     * description).
     *
     * @param obj the object
     * @param port ignored
     * @param filter not applied (a warning is logged when it is not null)
     * @return the stub of the object
     * @throws RemoteException when it cannot be exported
     */
    public static Remote exportObject(Remote obj, int port, ObjectInputFilter filter) throws RemoteException {
        ignored(port, null, null);
        ignored(filter);
        return exportObject(obj);
    }

    /**
     * Exports a remote object; the port and the socket factories are ignored and the filter is
     * not applied (see the class description).
     *
     * @param obj the object
     * @param port ignored
     * @param csf ignored
     * @param ssf ignored
     * @param filter not applied (a warning is logged when it is not null)
     * @return the stub of the object
     * @throws RemoteException when it cannot be exported
     */
    public static Remote exportObject(Remote obj, int port, RMIClientSocketFactory csf, RMIServerSocketFactory ssf,
            ObjectInputFilter filter) throws RemoteException {
        ignored(port, csf, ssf);
        ignored(filter);
        return exportObject(obj);
    }

    /**
     * The host of the client whose remote call this thread is serving, as
     * {@code java.rmi.server.RemoteServer.getClientHost}: the most specific level of the calling
     * member's Ibis location, which is its host name unless {@code ibis.location} set another.
     *
     * @return the client's host
     * @throws ServerNotActiveException when this thread is not serving a remote call (it is not
     *         the thread that runs a remote method, or the method has returned)
     */
    public static String getClientHost() throws ServerNotActiveException {
        IbisIdentifier caller = ServerCall.currentCaller();
        if (caller == null) {
            throw new ServerNotActiveException("not in a remote call");
        }
        Location location = caller.location();
        return location != null && location.numberOfLevels() > 0 ? location.getLevel(0) : caller.name();
    }

    /**
     * Logs the remote calls this JVM serves to {@code out}, one line per call (time, calling
     * member, object class and method), as {@code java.rmi.server.RemoteServer.setLog}.
     *
     * @param out the stream, or null to stop logging calls
     */
    public static void setLog(OutputStream out) {
        RmiRuntime.setCallLog(out);
    }

    /**
     * The stream remote calls are logged to, as {@code java.rmi.server.RemoteServer.getLog}.
     *
     * @return the stream given to {@link #setLog} (wrapped in a {@link PrintStream}), or null
     */
    public static PrintStream getLog() {
        return RmiRuntime.callLog();
    }

    private static void ignored(int port, RMIClientSocketFactory csf, RMIServerSocketFactory ssf) {
        if (port != 0 || csf != null || ssf != null) {
            LOG.debug("ignoring port {} and socket factories {} / {}: Ibis RMI uses the Ibis transport", port, csf,
                    ssf);
        }
    }

    private static void ignored(ObjectInputFilter filter) {
        if (filter != null) {
            LOG.warn("ObjectInputFilter {} is not applied: Ibis RMI reads parameters with Ibis serialization"
                    + " (whose class filter is the property ibis.io.class.filter)", filter);
        }
    }

    /**
     * A copy of this remote object, exported on its own (as the JDK's {@code clone}).
     *
     * @return the exported copy
     * @throws CloneNotSupportedException when the class does not implement {@link Cloneable}, or
     *         the copy cannot be exported (the cause tells why)
     */
    @Override
    public Object clone() throws CloneNotSupportedException {
        UnicastRemoteObject copy = (UnicastRemoteObject) super.clone();
        copy.setRef(null); // not this object's: the copy gets its own on export
        try {
            exportObject(copy);
        } catch (RemoteException e) {
            CloneNotSupportedException ex = new CloneNotSupportedException("cannot export the clone: " + e);
            ex.initCause(e);
            throw ex;
        }
        return copy;
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
