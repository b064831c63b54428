package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public class PortMismatchException extends ConnectionFailedException {
    public PortMismatchException(String detailMessage, ReceivePortIdentifier receivePortIdentifier, Throwable cause) {
        super(detailMessage, receivePortIdentifier, cause);
    }

    public PortMismatchException(String detailMessage, ReceivePortIdentifier receivePortIdentifier) {
        super(detailMessage, receivePortIdentifier);
    }

    public PortMismatchException(String detailMessage, IbisIdentifier ibisIdentifier, String receivePortName, Throwable cause) {
        super(detailMessage, ibisIdentifier, receivePortName, cause);
    }

    public PortMismatchException(String detailMessage, IbisIdentifier ibisIdentifier, String receivePortName) {
        super(detailMessage, ibisIdentifier, receivePortName);
    }
}
