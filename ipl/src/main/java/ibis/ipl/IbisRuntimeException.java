package ibis.ipl;

/**
 * The base class of the unchecked Ibis exceptions; they signal programming or configuration
 * errors rather than communication failures.
 */
public class IbisRuntimeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception without a message or cause. */
    public IbisRuntimeException() {
        super();
    }

    /**
     * Creates the exception with a message.
     *
     * @param message what went wrong
     */
    public IbisRuntimeException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a message and the exception that caused it.
     *
     * @param message what went wrong
     * @param cause the underlying exception (may be null)
     */
    public IbisRuntimeException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Creates the exception for an underlying cause; the message is the cause's.
     *
     * @param cause the underlying exception (may be null)
     */
    public IbisRuntimeException(Throwable cause) {
        super(cause);
    }
}
