package ibis.ipl.impl;

import java.io.IOException;
import java.nio.ByteOrder;

/** One connection of a send port to a receive port, after a successful handshake. */
final class SendConnection {

    final ReceivePortId target;
    final ConnectionEnds ends;
    /** Byte order the receiver reported (informational: payload is always in the sender's order). */
    final ByteOrder receiverOrder;

    /**
     * Set by the writing thread when a write to this connection failed; the connection is then
     * skipped by later writes and dropped when the message is finished.
     */
    IOException failure;

    SendConnection(ReceivePortId target, ConnectionEnds ends, ByteOrder receiverOrder) {
        this.target = target;
        this.ends = ends;
        this.receiverOrder = receiverOrder;
    }

    @Override
    public String toString() {
        return "connection to " + target + " (" + ends.peerDescription() + ")";
    }
}
