package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public interface SendPortDisconnectUpcall {
    void lostConnection(SendPort origin, ReceivePortIdentifier receiver, Throwable cause);
}
