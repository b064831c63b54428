package ibis.ipl;

/**
 * Told about connections to a receive port as they come and go; given when the receive port is
 * created. Its port type must have {@link PortType#CONNECTION_UPCALLS}. Calls are made by Ibis
 * threads, one at a time per port, only while connections are enabled (see
 * {@link ReceivePort#enableConnections()}); they should return quickly and must not block on
 * communication through the same port.
 */
public interface ReceivePortConnectUpcall {

    /**
     * Asked when a send port wants to connect. The connection is made only when this returns true;
     * otherwise the send port gets a {@link ConnectionRefusedException} at once (its connect does
     * not ask again, whatever its time-out or {@code fillTimeout}).
     *
     * @param receiver the receive port being connected to
     * @param applicant the send port that asks to connect
     * @return whether to accept the connection
     */
    boolean gotConnection(ReceivePort receiver, SendPortIdentifier applicant);

    /**
     * Told when a connection from a send port is gone: the sender disconnected or closed its port
     * ({@code cause} is null), or the connection broke ({@code cause} says why).
     *
     * @param receiver the receive port that lost the connection
     * @param origin the send port at the other end
     * @param cause why the connection was lost, or null for a regular disconnect
     */
    void lostConnection(ReceivePort receiver, SendPortIdentifier origin, Throwable cause);
}
