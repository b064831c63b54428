package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public class IbisRuntimeException extends RuntimeException {
    public IbisRuntimeException() {
        // TODO
    }

    public IbisRuntimeException(String message) {
        super(message);
    }

    public IbisRuntimeException(Throwable cause) {
        super(cause);
    }

    public IbisRuntimeException(String message, Throwable cause) {
        super(message, cause);
    }
}
