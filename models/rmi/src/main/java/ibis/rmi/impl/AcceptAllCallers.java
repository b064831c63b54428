package ibis.rmi.impl;

import ibis.ipl.ReceivePort;
import ibis.ipl.ReceivePortConnectUpcall;
import ibis.ipl.SendPortIdentifier;

/** The connections of exported objects: all callers are welcome. */
final class AcceptAllCallers implements ReceivePortConnectUpcall {
    @Override
    public boolean gotConnection(ReceivePort receiver, SendPortIdentifier applicant) {
        return true;
    }

    @Override
    public void lostConnection(ReceivePort receiver, SendPortIdentifier origin, Throwable cause) {
        // A caller went away; its replies (if any) fail and drop the reply port.
    }
}
