package ibis.rmi.server;

import ibis.rmi.impl.RemoteReference;

import java.io.ObjectStreamException;

/**
 * Base class of the stubs Ibis RMI generates. A stub implements the remote interfaces of its
 * remote object and forwards every call to it. It is serializable: it travels as the address of
 * the remote object (member and receive port) plus the names of its remote interfaces, and the
 * receiving JVM makes a stub of its own from that. Two stubs are equal when they refer to the
 * same remote object ({@link RemoteObject}); {@link #getRef()} returns the remote object's
 * {@link RemoteRef}.
 */
public abstract class RemoteStub extends RemoteObject {

    private static final long serialVersionUID = 1L;

    /** The client side of the remote object; used by the generated methods. */
    protected final transient RemoteReference ref;

    /**
     * For generated subclasses.
     *
     * @param ref the remote object this stub calls
     */
    protected RemoteStub(RemoteReference ref) {
        super(ref);
        this.ref = ref;
    }

    /**
     * The stub travels as its handle.
     *
     * @return the serialized form
     * @throws ObjectStreamException never
     */
    protected Object writeReplace() throws ObjectStreamException {
        return ref.handle();
    }

    /** @return {@code INTERFACE_Stub[PORT@MEMBER]}: the first remote interface and the ref's address */
    @Override
    public String toString() {
        return getClass().getInterfaces()[0].getName() + "_Stub[" + ref.remoteToString() + "]";
    }
}
