package ibis.rmi.impl;

/**
 * The wire constants of Ibis RMI (see the module README for the message layout).
 */
public final class RmiProtocol {

    /**
     * Method number of the connection check a stub makes before its first call (and after its
     * caller's reply port for the server was replaced); an int follows: that port's epoch.
     */
    public static final int PING = -1;

    /** Reply status: the method returned; its value follows (nothing for void). */
    public static final byte RESULT = 0;

    /** Reply status: the method threw; the exception object follows. */
    public static final byte APPLICATION_EXCEPTION = 1;

    /** Reply status: the RMI layer at the server failed the call; a RemoteException object follows. */
    public static final byte SYSTEM_EXCEPTION = 2;

    /**
     * Prefix of the reply receive ports: a caller has one per server member,
     * {@code ibis.rmi.reply.SERVER.EPOCH} (see {@link ReplyChannel}).
     */
    public static final String REPLY_PORT = "ibis.rmi.reply";

    /** Prefix of the receive port name of an exported object; a JVM-unique number follows. */
    public static final String OBJECT_PORT_PREFIX = "ibis.rmi.object.";

    private RmiProtocol() {
    }
}
