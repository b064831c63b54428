package ibis.ipl;

/**
 * The base class of the checked Ibis exceptions that are not I/O errors, for example a
 * failure to create an Ibis instance or an unknown management property.
 */
public class IbisException extends Exception {

    private static final long serialVersionUID = 1L;

    /** Creates the exception without a message or cause. */
    public IbisException() {
        super();
    }

    /**
     * Creates the exception with a message.
     *
     * @param message what went wrong
     */
    public IbisException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a message and the exception that caused it.
     *
     * @param message what went wrong
     * @param cause the underlying exception (may be null)
     */
    public IbisException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Creates the exception for an underlying cause; the message is the cause's.
     *
     * @param cause the underlying exception (may be null)
     */
    public IbisException(Throwable cause) {
        super(cause);
    }
}
