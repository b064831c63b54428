package ibis.rmi.server;

import ibis.rmi.impl.RemoteReference;

import java.io.ObjectStreamException;
import java.io.Serializable;
import java.rmi.Remote;

/**
 * Base class of the stubs Ibis RMI generates. A stub implements the remote interfaces of its
 * remote object and forwards every call to it. It is serializable: it travels as the address of
 * the remote object (member and receive port) plus the names of its remote interfaces, and the
 * receiving JVM makes a stub of its own from that. Two stubs are equal when they refer to the
 * same remote object.
 */
public abstract class RemoteStub implements Remote, Serializable {

    private static final long serialVersionUID = 1L;

    /** The client side of the remote object; used by the generated methods. */
    protected final transient RemoteReference ref;

    /**
     * For generated subclasses.
     *
     * @param ref the remote object this stub calls
     */
    protected RemoteStub(RemoteReference ref) {
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

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof RemoteStub)) {
            return false;
        }
        RemoteReference o = ((RemoteStub) other).ref;
        return o.portName().equals(ref.portName()) && o.member().equals(ref.member());
    }

    @Override
    public int hashCode() {
        return ref.portName().hashCode() * 31 + ref.member().hashCode();
    }

    @Override
    public String toString() {
        return getClass().getInterfaces()[0].getName() + "_Stub[" + ref.portName() + "@" + ref.member() + "]";
    }
}
