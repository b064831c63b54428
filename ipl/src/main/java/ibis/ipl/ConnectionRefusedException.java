package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public class ConnectionRefusedException extends ConnectionFailedException {
    public ConnectionRefusedException(String detailMessage, ReceivePortIdentifier receivePortIdentifier, Throwable cause) {
        super(detailMessage, receivePortIdentifier, cause);
    }

    public ConnectionRefusedException(String detailMessage, ReceivePortIdentifier receivePortIdentifier) {
        super(detailMessage, receivePortIdentifier);
    }

    public ConnectionRefusedException(String detailMessage, IbisIdentifier ibisIdentifier, String receivePortName, Throwable cause) {
        super(detailMessage, ibisIdentifier, receivePortName, cause);
    }

    public ConnectionRefusedException(String detailMessage, IbisIdentifier ibisIdentifier, String receivePortName) {
        super(detailMessage, ibisIdentifier, receivePortName);
    }
}
