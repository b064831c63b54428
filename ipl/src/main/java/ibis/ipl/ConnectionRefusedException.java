package ibis.ipl;

/**
 * Thrown when a receive port refuses a connection: it does not exist, it has not enabled
 * connections (yet), its {@link ReceivePortConnectUpcall#gotConnection} said no, or its port type
 * allows no more senders (one-to-one or one-to-many receive port that already has one).
 */
public class ConnectionRefusedException extends ConnectionFailedException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for a receive port given by its identifier, with a cause.
     *
     * @param detailMessage what went wrong
     * @param receivePortIdentifier the receive port the connection was meant for
     * @param cause the underlying exception (may be null)
     */
    public ConnectionRefusedException(String detailMessage, ReceivePortIdentifier receivePortIdentifier,
            Throwable cause) {
        super(detailMessage, receivePortIdentifier, cause);
    }

    /**
     * Creates the exception for a receive port given by its identifier.
     *
     * @param detailMessage what went wrong
     * @param receivePortIdentifier the receive port the connection was meant for
     */
    public ConnectionRefusedException(String detailMessage, ReceivePortIdentifier receivePortIdentifier) {
        super(detailMessage, receivePortIdentifier);
    }

    /**
     * Creates the exception for a receive port given by Ibis instance and name, with a cause.
     *
     * @param detailMessage what went wrong
     * @param ibisIdentifier the Ibis instance the receive port lives in
     * @param receivePortName the name of the receive port
     * @param cause the underlying exception (may be null)
     */
    public ConnectionRefusedException(String detailMessage, IbisIdentifier ibisIdentifier, String receivePortName,
            Throwable cause) {
        super(detailMessage, ibisIdentifier, receivePortName, cause);
    }

    /**
     * Creates the exception for a receive port given by Ibis instance and name.
     *
     * @param detailMessage what went wrong
     * @param ibisIdentifier the Ibis instance the receive port lives in
     * @param receivePortName the name of the receive port
     */
    public ConnectionRefusedException(String detailMessage, IbisIdentifier ibisIdentifier, String receivePortName) {
        super(detailMessage, ibisIdentifier, receivePortName);
    }
}
