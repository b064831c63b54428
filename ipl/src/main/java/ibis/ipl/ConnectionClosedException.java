package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public class ConnectionClosedException extends IbisIOException {
    public ConnectionClosedException() {
        // TODO
    }

    public ConnectionClosedException(String detailMessage) {
        super(detailMessage);
    }

    public ConnectionClosedException(String detailMessage, Throwable cause) {
        super(detailMessage, cause);
    }

    public ConnectionClosedException(Throwable cause) {
        super(cause);
    }
}
