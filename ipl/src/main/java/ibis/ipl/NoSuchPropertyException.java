package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public class NoSuchPropertyException extends IbisException {
    public NoSuchPropertyException() {
        // TODO
    }

    public NoSuchPropertyException(String detailMessage) {
        super(detailMessage);
    }

    public NoSuchPropertyException(String detailMessage, Throwable cause) {
        super(detailMessage, cause);
    }

    public NoSuchPropertyException(Throwable cause) {
        super(cause);
    }
}
