package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public class ReceiveTimedOutException extends IbisIOException {
    public ReceiveTimedOutException() {
        // TODO
    }

    public ReceiveTimedOutException(String detailMessage) {
        super(detailMessage);
    }

    public ReceiveTimedOutException(String detailMessage, Throwable cause) {
        super(detailMessage, cause);
    }

    public ReceiveTimedOutException(Throwable cause) {
        super(cause);
    }
}
