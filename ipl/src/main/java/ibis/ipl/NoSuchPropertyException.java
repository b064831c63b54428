package ibis.ipl;

/**
 * Thrown by the {@link Manageable} methods when a management property is not known to the
 * object, or when it is read-only and cannot be set.
 */
public class NoSuchPropertyException extends IbisException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception without a message or cause. */
    public NoSuchPropertyException() {
        super();
    }

    /**
     * Creates the exception with a message.
     *
     * @param detailMessage what went wrong
     */
    public NoSuchPropertyException(String detailMessage) {
        super(detailMessage);
    }

    /**
     * Creates the exception with a message and the exception that caused it.
     *
     * @param detailMessage what went wrong
     * @param cause the underlying exception (may be null)
     */
    public NoSuchPropertyException(String detailMessage, Throwable cause) {
        super(detailMessage, cause);
    }

    /**
     * Creates the exception for an underlying cause; the message is the cause's.
     *
     * @param cause the underlying exception (may be null)
     */
    public NoSuchPropertyException(Throwable cause) {
        super(cause);
    }
}
