package ibis.rmi.server;

import ibis.ipl.IbisIdentifier;

/**
 * The handle of a remote object, as {@code java.rmi.server.RemoteRef}: what
 * {@link RemoteObject#getRef()} returns for a stub and for an exported object. It identifies the
 * object by the pool member serving it and the name of the object's receive port at that member,
 * and defines the identity of stubs: two stubs (in any JVM of the pool) are equal exactly when
 * their refs are {@link #remoteEquals remote-equal}, and their hash codes are the refs'
 * {@link #remoteHashCode}.
 *
 * <p>Of the JDK interface this has the identity methods; its invocation methods ({@code invoke},
 * the deprecated {@code newCall}/{@code done}) and {@code getRefClass} are not part of the Ibis
 * RMI model: calls go through the generated stub methods, and a ref travels inside its stub.
 */
public interface RemoteRef {

    /**
     * The member of the pool that serves the remote object.
     *
     * @return its Ibis identifier
     */
    IbisIdentifier member();

    /**
     * The name of the remote object's receive port at {@link #member()}, unique in that member.
     *
     * @return the port name
     */
    String portName();

    /**
     * Whether {@code other} refers to the same remote object (same member, same port).
     *
     * @param other another ref, may be null
     * @return true when both refer to the same remote object
     */
    boolean remoteEquals(RemoteRef other);

    /**
     * A hash code that is the same for every ref to the same remote object, in every JVM.
     *
     * @return the hash code
     */
    int remoteHashCode();

    /**
     * The remote object's address, {@code PORT@MEMBER}, as used in the stub's {@code toString}.
     *
     * @return the address
     */
    String remoteToString();
}
