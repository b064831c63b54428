package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public class IbisCreationFailedException extends IbisException {
    public IbisCreationFailedException() {
        // TODO
    }

    public IbisCreationFailedException(String detailMessage) {
        super(detailMessage);
    }

    public IbisCreationFailedException(String detailMessage, Throwable cause) {
        super(detailMessage, cause);
    }

    public IbisCreationFailedException(Throwable cause) {
        super(cause);
    }
}
