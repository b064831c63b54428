package ibis.rmi.impl;

import ibis.ipl.IbisIdentifier;

import java.io.InvalidObjectException;
import java.io.ObjectStreamException;
import java.io.Serializable;

/**
 * The serialized form of a stub: the receive port of the remote object's skeleton, the names of
 * its remote interfaces and the name of the remote object's class (so the reading JVM can use the
 * build-time stub of that class when it has one). Reading it back gives a stub in the reading JVM.
 */
public final class StubHandle implements Serializable {

    private static final long serialVersionUID = 1L;

    private final IbisIdentifier member;
    private final String portName;
    private final String[] interfaceNames;
    private final String remoteClass;

    /**
     * @param member the member serving the object
     * @param portName the name of the skeleton's receive port
     * @param interfaceNames the remote interfaces of the object
     * @param remoteClass binary name of the remote object's class, or null when unknown
     */
    public StubHandle(IbisIdentifier member, String portName, String[] interfaceNames, String remoteClass) {
        this.member = member;
        this.portName = portName;
        this.interfaceNames = interfaceNames.clone();
        this.remoteClass = remoteClass;
    }

    /** @return binary name of the remote object's class, or null when unknown */
    public String remoteClass() {
        return remoteClass;
    }

    /** @return the member serving the object */
    public IbisIdentifier member() {
        return member;
    }

    /** @return the name of the skeleton's receive port */
    public String portName() {
        return portName;
    }

    /** @return the remote interface names */
    public String[] interfaceNames() {
        return interfaceNames.clone();
    }

    private Object readResolve() throws ObjectStreamException {
        if (member == null || portName == null || interfaceNames == null || interfaceNames.length == 0) {
            throw new InvalidObjectException("malformed RMI stub: no target or no interfaces");
        }
        try {
            return RmiRuntime.get().stubFor(this);
        } catch (Exception e) {
            InvalidObjectException ex = new InvalidObjectException(
                    "cannot create the RMI stub for " + portName + " at " + member + ": " + e);
            ex.initCause(e);
            throw ex;
        }
    }
}
