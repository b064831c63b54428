package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public interface ReceivePort extends Manageable {
    PortType getPortType();

    ReadMessage receive() throws IOException;

    ReadMessage receive(long timeoutMillis) throws IOException;

    ReadMessage poll() throws IOException;

    ReceivePortIdentifier identifier();

    String name();

    void enableConnections();

    void disableConnections();

    void enableMessageUpcalls();

    void disableMessageUpcalls();

    void close() throws IOException;

    void close(long timeoutMillis) throws IOException;

    SendPortIdentifier[] connectedTo();

    SendPortIdentifier[] lostConnections();

    SendPortIdentifier[] newConnections();
}
