package ibis.rmi.server;

import java.io.Serializable;
import java.rmi.NoSuchObjectException;
import java.rmi.Remote;

/**
 * The remote-object identity of stubs and exported objects, as {@code java.rmi.server.RemoteObject}:
 * {@link #equals}, {@link #hashCode} and {@link #toString} follow the object's {@link RemoteRef},
 * so a stub equals every other stub of the same remote object, and an exported
 * {@link UnicastRemoteObject} equals its stubs. An object without a ref (a
 * {@code UnicastRemoteObject} whose export failed) is equal only to itself.
 */
public abstract class RemoteObject implements Remote, Serializable {

    private static final long serialVersionUID = 1L;

    /** The ref; not serialized (a stub travels as its handle, an exported object as its stub). */
    private transient RemoteRef ref;

    /** An object whose ref is set when it is exported. */
    protected RemoteObject() {
    }

    /**
     * An object with the given ref.
     *
     * @param ref the ref, may be null
     */
    protected RemoteObject(RemoteRef ref) {
        this.ref = ref;
    }

    /**
     * The ref of this remote object: for a stub, the remote object it calls; for an exported
     * object, the ref its stubs carry (it stays after {@code unexportObject}, as in the JDK).
     *
     * @return the ref, or null when this object was never exported
     */
    public RemoteRef getRef() {
        return ref;
    }

    /** Set by {@link UnicastRemoteObject#exportObject(Remote)} (also for a clone, which gets its own). */
    void setRef(RemoteRef ref) {
        this.ref = ref;
    }

    /**
     * The stub of an exported object, as the JDK's {@code RemoteObject.toStub}.
     *
     * @param obj an exported object or a stub (returned as is)
     * @return the stub
     * @throws NoSuchObjectException when the object is not exported
     */
    public static Remote toStub(Remote obj) throws NoSuchObjectException {
        return UnicastRemoteObject.toStub(obj);
    }

    /** @return the ref's {@link RemoteRef#remoteHashCode()}, or the identity hash code without a ref */
    @Override
    public int hashCode() {
        return ref == null ? super.hashCode() : ref.remoteHashCode();
    }

    /**
     * @param obj another object
     * @return true when {@code obj} is a remote object whose ref is remote-equal to this one's
     *         (without a ref: only this object itself)
     */
    @Override
    public boolean equals(Object obj) {
        if (obj == this) {
            return true;
        }
        if (!(obj instanceof RemoteObject) || ref == null) {
            return false;
        }
        return ref.remoteEquals(((RemoteObject) obj).ref);
    }

    /** @return the class name and, with a ref, {@code [}{@link RemoteRef#remoteToString()}{@code ]} */
    @Override
    public String toString() {
        return ref == null ? getClass().getName() : getClass().getName() + "[" + ref.remoteToString() + "]";
    }
}
