package ibis.ipl;

/**
 * Thrown when a send port could not set up a connection to one receive port. It says which
 * receive port was meant: either by its {@link ReceivePortIdentifier}, or (when the port was named
 * but not found) by the Ibis instance and the port name. When the exception is built from a
 * receive port identifier, the Ibis identifier and port name are taken from it.
 *
 * <p>Subclasses tell why: {@link ConnectionRefusedException} (the receiver said no, or does not
 * exist), {@link ConnectionTimedOutException}, {@link AlreadyConnectedException} and
 * {@link PortMismatchException} (the two ports have different port types).
 */
public class ConnectionFailedException extends IbisIOException {

    private static final long serialVersionUID = 1L;

    /** The receive port meant, when it was given by identifier. */
    private final ReceivePortIdentifier receivePortIdentifier;
    /** The Ibis instance of the receive port meant. */
    private final IbisIdentifier ibisIdentifier;
    /** The name of the receive port meant. */
    private final String receivePortName;

    /**
     * Creates the exception for a receive port given by Ibis instance and name.
     *
     * @param detailMessage what went wrong
     * @param ibisIdentifier the Ibis instance the receive port lives in
     * @param receivePortName the name of the receive port
     */
    public ConnectionFailedException(String detailMessage, IbisIdentifier ibisIdentifier, String receivePortName) {
        this(detailMessage, ibisIdentifier, receivePortName, null);
    }

    /**
     * Creates the exception for a receive port given by Ibis instance and name, with a cause.
     *
     * @param detailMessage what went wrong
     * @param ibisIdentifier the Ibis instance the receive port lives in
     * @param receivePortName the name of the receive port
     * @param cause the underlying exception (may be null)
     */
    public ConnectionFailedException(String detailMessage, IbisIdentifier ibisIdentifier, String receivePortName,
            Throwable cause) {
        super(detailMessage, cause);
        this.receivePortIdentifier = null;
        this.ibisIdentifier = ibisIdentifier;
        this.receivePortName = receivePortName;
    }

    /**
     * Creates the exception for a receive port given by its identifier, with a cause.
     *
     * @param detailMessage what went wrong
     * @param receivePortIdentifier the receive port the connection was meant for
     * @param cause the underlying exception (may be null)
     */
    public ConnectionFailedException(String detailMessage, ReceivePortIdentifier receivePortIdentifier,
            Throwable cause) {
        super(detailMessage, cause);
        this.receivePortIdentifier = receivePortIdentifier;
        this.ibisIdentifier = receivePortIdentifier == null ? null : receivePortIdentifier.ibisIdentifier();
        this.receivePortName = receivePortIdentifier == null ? null : receivePortIdentifier.name();
    }

    /**
     * Creates the exception for a receive port given by its identifier.
     *
     * @param detailMessage what went wrong
     * @param receivePortIdentifier the receive port the connection was meant for
     */
    public ConnectionFailedException(String detailMessage, ReceivePortIdentifier receivePortIdentifier) {
        this(detailMessage, receivePortIdentifier, null);
    }

    /**
     * Returns the Ibis instance of the receive port the connection was meant for.
     *
     * @return the Ibis identifier, or null when not known
     */
    public IbisIdentifier ibisIdentifier() {
        return ibisIdentifier;
    }

    /**
     * Returns the identifier of the receive port the connection was meant for. It is null when the
     * exception was created from an Ibis identifier and a port name (for example because no port of
     * that name was found).
     *
     * @return the receive port identifier, or null
     */
    public ReceivePortIdentifier receivePortIdentifier() {
        return receivePortIdentifier;
    }

    /**
     * Returns the name of the receive port the connection was meant for.
     *
     * @return the receive port name, or null when not known
     */
    public String receivePortName() {
        return receivePortName;
    }
}
