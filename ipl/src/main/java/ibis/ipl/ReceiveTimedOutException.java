package ibis.ipl;

/**
 * Thrown by {@link ReceivePort#receive(long)} when no message arrived within the given time.
 */
public class ReceiveTimedOutException extends IbisIOException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception without a message or cause. */
    public ReceiveTimedOutException() {
        super();
    }

    /**
     * Creates the exception with a message.
     *
     * @param detailMessage what went wrong
     */
    public ReceiveTimedOutException(String detailMessage) {
        super(detailMessage);
    }

    /**
     * Creates the exception with a message and the exception that caused it.
     *
     * @param detailMessage what went wrong
     * @param cause the underlying exception (may be null)
     */
    public ReceiveTimedOutException(String detailMessage, Throwable cause) {
        super(detailMessage, cause);
    }

    /**
     * Creates the exception for an underlying cause; the message is the cause's.
     *
     * @param cause the underlying exception (may be null)
     */
    public ReceiveTimedOutException(Throwable cause) {
        super(cause);
    }
}
