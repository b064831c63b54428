package ibis.ipl;

/**
 * Thrown when Ibis is used in a way its configuration does not allow: for example a
 * {@link PortType} without a connection cardinality or serialization, or a port used for a
 * kind of communication its port type did not declare (explicit receive on an upcall-only port,
 * a second connection on a one-to-one port, ...).
 */
public class IbisConfigurationException extends IbisRuntimeException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception without a message or cause. */
    public IbisConfigurationException() {
        super();
    }

    /**
     * Creates the exception with a message.
     *
     * @param detailMessage what went wrong
     */
    public IbisConfigurationException(String detailMessage) {
        super(detailMessage);
    }

    /**
     * Creates the exception with a message and the exception that caused it.
     *
     * @param detailMessage what went wrong
     * @param cause the underlying exception (may be null)
     */
    public IbisConfigurationException(String detailMessage, Throwable cause) {
        super(detailMessage, cause);
    }

    /**
     * Creates the exception for an underlying cause; the message is the cause's.
     *
     * @param cause the underlying exception (may be null)
     */
    public IbisConfigurationException(Throwable cause) {
        super(cause);
    }
}
