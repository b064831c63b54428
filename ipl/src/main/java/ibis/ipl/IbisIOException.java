package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public class IbisIOException extends IOException {
    public IbisIOException() {
        // TODO
    }

    public IbisIOException(String message) {
        super(message);
    }

    public IbisIOException(Throwable cause) {
        super(cause);
    }

    public IbisIOException(String message, Throwable cause) {
        super(message, cause);
    }
}
