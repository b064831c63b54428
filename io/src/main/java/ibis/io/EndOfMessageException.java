package ibis.io;

import java.io.EOFException;

/**
 * Thrown when a read goes past the end of the current message. Nothing of the next message has
 * been consumed: after {@code endMessage()} the stream is usable again. A plain
 * {@link EOFException} from a stream means instead that the connection itself ended.
 */
public final class EndOfMessageException extends EOFException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception with the message "past end of message". */
    public EndOfMessageException() {
        super("past end of message");
    }
}
