package ibis.registry.protocol;

import java.io.StreamCorruptedException;

/**
 * Thrown when bytes received on a registry connection do not form a valid message (bad magic,
 * unknown type, out-of-range length or count, truncated data). The connection is closed after it.
 */
public class MalformedMessageException extends StreamCorruptedException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception with a description of what was wrong. */
    public MalformedMessageException(String message) {
        super(message);
    }

    /** Creates the exception with a description and the lower-level cause. */
    public MalformedMessageException(String message, Throwable cause) {
        super(message);
        initCause(cause);
    }
}
