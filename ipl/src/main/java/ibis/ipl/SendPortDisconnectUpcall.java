package ibis.ipl;

/**
 * Told when a send port loses a connection to a receive port; given when the send port is
 * created. Its port type must have {@link PortType#CONNECTION_UPCALLS}. Calls are made by Ibis
 * threads; they should return quickly.
 */
public interface SendPortDisconnectUpcall {

    /**
     * Told when a connection of the send port is gone: the receiver closed its port, or the
     * connection broke ({@code cause} says why). Not called for connections the send port itself
     * disconnects.
     *
     * @param origin the send port that lost the connection
     * @param receiver the receive port at the other end
     * @param cause why the connection was lost (may be null)
     */
    void lostConnection(SendPort origin, ReceivePortIdentifier receiver, Throwable cause);
}
