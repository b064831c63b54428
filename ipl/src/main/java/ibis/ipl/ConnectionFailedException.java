package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public class ConnectionFailedException extends IbisIOException {
    public ConnectionFailedException(String detailMessage, IbisIdentifier ibisIdentifier, String receivePortName) {
        // TODO
    }

    public ConnectionFailedException(String detailMessage, IbisIdentifier ibisIdentifier, String receivePortName, Throwable cause) {
        // TODO
    }

    public ConnectionFailedException(String detailMessage, ReceivePortIdentifier receivePortIdentifier, Throwable cause) {
        // TODO
    }

    public ConnectionFailedException(String detailMessage, ReceivePortIdentifier receivePortIdentifier) {
        // TODO
    }

    public IbisIdentifier ibisIdentifier() {
        throw new UnsupportedOperationException("not yet");
    }

    public ReceivePortIdentifier receivePortIdentifier() {
        throw new UnsupportedOperationException("not yet");
    }

    public String receivePortName() {
        throw new UnsupportedOperationException("not yet");
    }
}
