package ibis.ipl;

/**
 * Thrown to a reader (or writer) when the connection it uses was closed or lost while it was
 * being used: for example when the sender of a message being read dies, or when a port is closed
 * underneath a blocked {@code receive()}. A graceful disconnect between messages is not an error;
 * losing a connection in the middle of a message, or without the sender's goodbye, is.
 */
public class ConnectionClosedException extends IbisIOException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception without a message or cause. */
    public ConnectionClosedException() {
        super();
    }

    /**
     * Creates the exception with a message.
     *
     * @param detailMessage what went wrong
     */
    public ConnectionClosedException(String detailMessage) {
        super(detailMessage);
    }

    /**
     * Creates the exception with a message and the exception that caused it.
     *
     * @param detailMessage what went wrong
     * @param cause the underlying exception (may be null)
     */
    public ConnectionClosedException(String detailMessage, Throwable cause) {
        super(detailMessage, cause);
    }

    /**
     * Creates the exception for an underlying cause; the message is the cause's.
     *
     * @param cause the underlying exception (may be null)
     */
    public ConnectionClosedException(Throwable cause) {
        super(cause);
    }
}
