package ibis.ipl.tck;

import ibis.ipl.ReceivePort;
import ibis.ipl.ReceivePortConnectUpcall;
import ibis.ipl.ReceivePortIdentifier;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortDisconnectUpcall;
import ibis.ipl.SendPortIdentifier;
import ibis.testsupport.Waits;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Records the connection upcalls of a receive port and/or a send port. */
final class ConnectionEvents implements ReceivePortConnectUpcall, SendPortDisconnectUpcall {

    /** One lost-connection upcall: whose connection, and the cause (null for a regular close). */
    static final class Lost {
        final Object peer;
        final Throwable cause;

        Lost(Object peer, Throwable cause) {
            this.peer = peer;
            this.cause = cause;
        }

        @Override
        public String toString() {
            return "lost " + peer + " cause " + cause;
        }
    }

    private final boolean accept;
    final BlockingQueue<SendPortIdentifier> accepted = new LinkedBlockingQueue<>();
    /** Every applicant gotConnection was asked about, accepted or not. */
    final BlockingQueue<SendPortIdentifier> asked = new LinkedBlockingQueue<>();
    final BlockingQueue<Lost> lost = new LinkedBlockingQueue<>();

    ConnectionEvents() {
        this(true);
    }

    ConnectionEvents(boolean accept) {
        this.accept = accept;
    }

    @Override
    public boolean gotConnection(ReceivePort receiver, SendPortIdentifier applicant) {
        asked.add(applicant);
        if (accept) {
            accepted.add(applicant);
        }
        return accept;
    }

    @Override
    public void lostConnection(ReceivePort receiver, SendPortIdentifier origin, Throwable cause) {
        lost.add(new Lost(origin, cause));
    }

    @Override
    public void lostConnection(SendPort origin, ReceivePortIdentifier receiver, Throwable cause) {
        lost.add(new Lost(receiver, cause));
    }

    /** Waits for the next lost-connection upcall; fails when none comes. */
    Lost nextLost() throws InterruptedException {
        Lost l = lost.poll(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS);
        if (l == null) {
            throw new AssertionError("no lostConnection upcall");
        }
        return l;
    }
}
