package ibis.ipl;

/**
 * Thrown by {@link IbisFactory#createIbis} when no Ibis instance could be created: no
 * implementation matches the requested capabilities and port types, the requested implementation
 * is not installed, or the selected implementation failed to start (for example because the
 * registry server could not be reached). The message says which and why.
 */
public class IbisCreationFailedException extends IbisException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception without a message or cause. */
    public IbisCreationFailedException() {
        super();
    }

    /**
     * Creates the exception with a message.
     *
     * @param detailMessage what went wrong
     */
    public IbisCreationFailedException(String detailMessage) {
        super(detailMessage);
    }

    /**
     * Creates the exception with a message and the exception that caused it.
     *
     * @param detailMessage what went wrong
     * @param cause the underlying exception (may be null)
     */
    public IbisCreationFailedException(String detailMessage, Throwable cause) {
        super(detailMessage, cause);
    }

    /**
     * Creates the exception for an underlying cause; the message is the cause's.
     *
     * @param cause the underlying exception (may be null)
     */
    public IbisCreationFailedException(Throwable cause) {
        super(cause);
    }
}
