package ibis.ipl.impl;

import ibis.ipl.ReadMessage;

import java.io.IOException;
import java.io.InterruptedIOException;

/**
 * Upcalls made by the thread that polls (port type with receive.poll.upcalls, without
 * receive.autoupcalls): {@code poll()} (or the Ibis's {@code poll()}) delivers the messages that
 * have arrived to the upcall in the calling thread, at most one per connection; nobody reads the
 * connections in between.
 */
final class PolledUpcallDelivery implements MessageDelivery {

    private final AbstractReceivePort port;
    /** Reused snapshot of the connections for polling (guarded by the port's lock). */
    private ReceiveConnection[] pollSnapshot = new ReceiveConnection[4];

    PolledUpcallDelivery(AbstractReceivePort port) {
        this.port = port;
    }

    /** poll(): the upcalls are made here; the poll itself returns no message. */
    @Override
    public ReadMessage receive(long deadline, boolean poll) {
        pollUpcalls();
        return null;
    }

    @Override
    public int pollUpcalls() {
        ReceiveConnection[] snapshot;
        int n;
        synchronized (port.lock) {
            if (port.closed || port.closing || !port.upcallsEnabled) {
                return 0;
            }
            n = port.connections.size();
            if (pollSnapshot.length < n) {
                pollSnapshot = new ReceiveConnection[Math.max(n, pollSnapshot.length * 2)];
            }
            snapshot = port.connections.toArray(pollSnapshot);
        }
        int delivered = 0;
        for (int i = 0; i < n; i++) {
            if (pollOne(snapshot[i], false)) {
                delivered++;
            }
        }
        return delivered;
    }

    /**
     * Delivers the next message of one connection to the upcall if it has arrived.
     *
     * @param whileClosing called by close(): waits a little for data, and delivers although the
     *        port is closing
     */
    private boolean pollOne(ReceiveConnection c, boolean whileClosing) {
        Object lock = port.lock;
        synchronized (lock) {
            if (c.removed || c.busy || port.live != null || !port.upcallsEnabled || port.closed
                    || (port.closing && !whileClosing)) {
                return false;
            }
            c.busy = true;
        }
        try {
            boolean ready;
            synchronized (lock) {
                ready = c.headerReady;
                c.headerReady = false;
            }
            if (!ready) {
                if (!c.in.awaitMessage(whileClosing ? 10 : -1)) {
                    return false;
                }
                if (c.readHeader() == ReceiveConnection.CLOSED) {
                    port.connectionEnded(c, null);
                    return false;
                }
            }
            IncomingMessage m = c.message;
            long delivery;
            synchronized (lock) {
                if (port.live != null || !port.upcallsEnabled || port.closed) {
                    c.headerReady = true; // another poller holds the slot: keep it for the next poll
                    return false;
                }
                delivery = ++m.delivery;
                m.upcallThread = Thread.currentThread();
                m.setLive(true);
                port.live = m;
            }
            try {
                port.upcall.upcall(m);
            } catch (Throwable t) {
                port.logUpcallFailure(c, t);
            }
            if (port.claimAfterUpcall(m, delivery)) {
                port.completeFinish(m, false);
            }
            return true;
        } catch (IOException | RuntimeException e) {
            port.connectionEnded(c, e);
            return false;
        } finally {
            synchronized (lock) {
                c.busy = false;
            }
        }
    }

    @Override
    public void checkIdleConnections() {
        port.readIdleConnections(false); // each connection has its own busy flag
    }

    @Override
    public void messageFinishedLocked(ReceiveConnection c) {
        port.notifyWaitersLocked();
    }

    /**
     * Nobody else reads the connections while the port closes, so deliver what arrives to the
     * upcall here (briefly waiting on each connection in turn) until the senders disconnected.
     */
    @Override
    public void drain(long deadline) throws InterruptedIOException {
        while (true) {
            ReceiveConnection[] current;
            synchronized (port.lock) {
                if (port.connections.isEmpty() || AbstractReceivePort.passed(deadline)) {
                    return;
                }
                current = port.connections.toArray(new ReceiveConnection[0]);
            }
            boolean progress = false;
            for (ReceiveConnection c : current) {
                progress |= pollOne(c, true);
            }
            if (!progress) {
                synchronized (port.lock) {
                    if (!port.upcallsEnabled && !port.connections.isEmpty() && !AbstractReceivePort.passed(deadline)) {
                        // Upcalls off: nothing to do but wait.
                        port.waitLocked(Math.min(100, AbstractReceivePort.millisUntil(deadline)));
                    }
                }
            }
        }
    }
}
