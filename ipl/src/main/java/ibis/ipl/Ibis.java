package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public interface Ibis extends Manageable {
    void end() throws IOException;

    Registry registry();

    void poll() throws IOException;

    IbisIdentifier identifier();

    String getVersion();

    Properties properties();

    SendPort createSendPort(PortType portType) throws IOException;

    SendPort createSendPort(PortType portType, String sendPortName) throws IOException;

    SendPort createSendPort(PortType portType, String sendPortName, SendPortDisconnectUpcall sendPortDisconnectUpcall, Properties properties) throws IOException;

    ReceivePort createReceivePort(PortType portType, String receivePortName) throws IOException;

    ReceivePort createReceivePort(PortType portType, String receivePortName, MessageUpcall messageUpcall) throws IOException;

    ReceivePort createReceivePort(PortType portType, String receivePortName, ReceivePortConnectUpcall receivePortConnectUpcall) throws IOException;

    ReceivePort createReceivePort(PortType portType, String receivePortName, MessageUpcall messageUpcall, ReceivePortConnectUpcall receivePortConnectUpcall, Properties properties) throws IOException;
}
