package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public interface ReceivePortConnectUpcall {
    boolean gotConnection(ReceivePort receiver, SendPortIdentifier applicant);

    void lostConnection(ReceivePort receiver, SendPortIdentifier origin, Throwable cause);
}
