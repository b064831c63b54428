package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public interface SendPort extends Manageable {
    PortType getPortType();

    WriteMessage newMessage() throws IOException;

    SendPortIdentifier identifier();

    String name();

    void connect(ReceivePortIdentifier receiver) throws ConnectionFailedException;

    void connect(ReceivePortIdentifier receiver, long timeoutMillis, boolean fillTimeout) throws ConnectionFailedException;

    ReceivePortIdentifier connect(IbisIdentifier ibisIdentifier, String receivePortName) throws ConnectionFailedException;

    ReceivePortIdentifier connect(IbisIdentifier ibisIdentifier, String receivePortName, long timeoutMillis, boolean fillTimeout) throws ConnectionFailedException;

    void connect(ibis.ipl.ReceivePortIdentifier[] receivePortIdentifiers) throws ConnectionsFailedException;

    void connect(ibis.ipl.ReceivePortIdentifier[] receivePortIdentifiers, long timeoutMillis, boolean fillTimeout) throws ConnectionsFailedException;

    ibis.ipl.ReceivePortIdentifier[] connect(Map<ibis.ipl.IbisIdentifier, String> ports) throws ConnectionsFailedException;

    ibis.ipl.ReceivePortIdentifier[] connect(Map<ibis.ipl.IbisIdentifier, String> ports, long timeoutMillis, boolean fillTimeout) throws ConnectionsFailedException;

    void disconnect(ReceivePortIdentifier receiver) throws IOException;

    void disconnect(IbisIdentifier ibisIdentifier, String receivePortName) throws IOException;

    void close() throws IOException;

    ReceivePortIdentifier[] connectedTo();

    ReceivePortIdentifier[] lostConnections();
}
