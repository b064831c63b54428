package ibis.rmi.impl;

import ibis.ipl.ReceivePortIdentifier;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortDisconnectUpcall;

import java.io.IOException;

/** A stub's send port lost its connection: its waiting calls fail. */
final class StubConnectionLost implements SendPortDisconnectUpcall {

    private final RmiRuntime runtime;

    StubConnectionLost(RmiRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public void lostConnection(SendPort origin, ReceivePortIdentifier receiver, Throwable cause) {
        RemoteReference ref = runtime.forgetPort(origin);
        if (ref != null) {
            ref.brokenAsync(origin);
            ref.channel().failCalls(ref, cause != null ? cause : new IOException("connection closed"));
        }
    }
}
