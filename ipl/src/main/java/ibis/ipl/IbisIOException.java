package ibis.ipl;

import java.io.IOException;

/**
 * The base class of the I/O exceptions thrown by Ibis: connection setup failures, lost
 * connections and receive time-outs. Because it is an {@link IOException}, code that only cares
 * whether communication failed can catch {@code IOException}.
 */
public class IbisIOException extends IOException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception without a message or cause. */
    public IbisIOException() {
        super();
    }

    /**
     * Creates the exception with a message.
     *
     * @param message what went wrong
     */
    public IbisIOException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a message and the exception that caused it.
     *
     * @param message what went wrong
     * @param cause the underlying exception (may be null)
     */
    public IbisIOException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Creates the exception for an underlying cause; the message is the cause's.
     *
     * @param cause the underlying exception (may be null)
     */
    public IbisIOException(Throwable cause) {
        super(cause);
    }
}
