package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public class IbisConfigurationException extends IbisRuntimeException {
    public IbisConfigurationException() {
        // TODO
    }

    public IbisConfigurationException(String detailMessage) {
        super(detailMessage);
    }

    public IbisConfigurationException(String detailMessage, Throwable cause) {
        super(detailMessage, cause);
    }

    public IbisConfigurationException(Throwable cause) {
        super(cause);
    }
}
