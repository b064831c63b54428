package ibis.ipl;

/**
 * Thrown when a connection could not be set up within the time-out given to
 * {@link SendPort#connect(ReceivePortIdentifier, long, boolean)} or one of its relatives.
 */
public class ConnectionTimedOutException extends ConnectionFailedException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for a receive port given by its identifier, with a cause.
     *
     * @param detailMessage what went wrong
     * @param receivePortIdentifier the receive port the connection was meant for
     * @param cause the underlying exception (may be null)
     */
    public ConnectionTimedOutException(String detailMessage, ReceivePortIdentifier receivePortIdentifier,
            Throwable cause) {
        super(detailMessage, receivePortIdentifier, cause);
    }

    /**
     * Creates the exception for a receive port given by its identifier.
     *
     * @param detailMessage what went wrong
     * @param receivePortIdentifier the receive port the connection was meant for
     */
    public ConnectionTimedOutException(String detailMessage, ReceivePortIdentifier receivePortIdentifier) {
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
    public ConnectionTimedOutException(String detailMessage, IbisIdentifier ibisIdentifier, String receivePortName,
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
    public ConnectionTimedOutException(String detailMessage, IbisIdentifier ibisIdentifier, String receivePortName) {
        super(detailMessage, ibisIdentifier, receivePortName);
    }
}
