package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public class ConnectionsFailedException extends IbisIOException {
    public ConnectionsFailedException(String detailMessage) {
        super(detailMessage);
    }

    public ConnectionsFailedException() {
        // TODO
    }

    public void add(ConnectionFailedException exception) {
        throw new UnsupportedOperationException("not yet");
    }

    public void setObtainedConnections(ReceivePortIdentifier[] receivePortIdentifiers) {
        throw new UnsupportedOperationException("not yet");
    }

    public ReceivePortIdentifier[] getObtainedConnections() {
        throw new UnsupportedOperationException("not yet");
    }

    public ConnectionFailedException[] getFailures() {
        throw new UnsupportedOperationException("not yet");
    }
}
