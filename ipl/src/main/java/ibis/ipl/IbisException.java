package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public class IbisException extends Exception {
    public IbisException() {
        // TODO
    }

    public IbisException(String message) {
        super(message);
    }

    public IbisException(Throwable cause) {
        super(cause);
    }

    public IbisException(String message, Throwable cause) {
        super(message, cause);
    }
}
