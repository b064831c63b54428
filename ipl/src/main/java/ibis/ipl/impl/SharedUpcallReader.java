package ibis.ipl.impl;

import java.io.IOException;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Upcalls made by one reader for all connections of a port (port type with receive.autoupcalls)
 * over a transport whose waits all go through one engine ({@link Transport#sharedUpcallReading()}):
 * the reader waits for every connection at once in a {@link SourceWaitSet} (polling them briefly
 * first), reads the message of the connection it finds and runs the upcall in its own thread, as
 * {@link UpcallDelivery} does per connection. Over UCX every waiting thread waits on the same
 * worker, where only one can block in its event descriptor and every other one is woken by it: a
 * reader per connection made most messages cost two thread wake-ups instead of one (the thread in
 * the descriptor, then the connection's reader), and the readers' polls and probes contended for
 * the worker's lock. GMI's LUFact on two processes, whose invocation port has three to five
 * connections per process, took 2.8-3.0 s over ucx against 1.3 s over tcp.
 *
 * <p>The reading is a role that one thread holds at a time: the pooled thread that admitted the
 * first connection takes it; later connections join the wait set. If an upcall calls
 * {@code finish()} and runs on, the role goes to a pooled thread after the hand-off delay
 * ({@link UpcallHandOffs}, through the connection of that message), unless the upcall returns first
 * and its thread reads on, exactly as a connection's reading is handed off by {@link UpcallDelivery}.
 * The role ends when the port has no connections left (the next admitted connection takes it
 * again) or is closed.
 */
final class SharedUpcallReader implements MessageDelivery, UpcallReaders {

    private static final Logger LOG = LoggerFactory.getLogger(SharedUpcallReader.class);

    private final AbstractReceivePort port;
    /** Finds the connection whose next message arrived (its snapshot, polling and wait set). */
    private final ManySenderReceipt finder;
    /** How long the reader polls for the next message after an upcall (the reading thread's only). */
    private final SpinWait spin;

    /** A thread holds the reading role, or a hand-off of it is pending (guarded by the port's lock). */
    private boolean roleTaken;
    /** The role holder while it waits for the message slot (upcalls disabled), or null (port's lock). */
    private Thread slotWaiter;

    SharedUpcallReader(AbstractReceivePort port, SpinWait spin, SourceWaitSet waitSet) {
        this.port = port;
        this.spin = spin;
        this.finder = new ManySenderReceipt(port, spin, waitSet);
    }

    @Override
    public void connectionAddedLocked(ReceiveConnection c) {
        finder.connectionAddedLocked(c); // a reader blocked in the wait set watches it from now on
    }

    /** The first connection's admitting thread becomes the reader; later ones go back to the pool. */
    @Override
    public void connectionAccepted(ReceiveConnection c) {
        synchronized (port.lock) {
            if (roleTaken) {
                return;
            }
            roleTaken = true;
        }
        read();
    }

    @Override
    public void continueReading(ReceiveConnection c) {
        synchronized (port.lock) {
            if (!c.handOffPending) {
                return; // the upcall's thread took the role back
            }
            c.handOffPending = false;
        }
        read();
    }

    @Override
    public void handOff(ReceiveConnection c) {
        synchronized (port.lock) {
            c.handOffPending = true;
        }
        port.ibis.upcallHandOffs().handOff(c);
    }

    /** The reading role: finds, reads and delivers messages until the role passes on or ends. */
    private void read() {
        boolean afterUpcall = false;
        while (true) {
            ReceiveConnection[] snapshot;
            int n;
            synchronized (port.lock) {
                if (port.closed || port.connections.isEmpty()) {
                    roleTaken = false;
                    return;
                }
                n = finder.snapshotLocked();
                snapshot = finder.snapshot();
            }
            ReceiveConnection c = null;
            try {
                // After an upcall the next message often follows soon (the reply to a request the
                // upcall sent): poll briefly before blocking, as the per-connection readers do,
                // with as many readers polling per Ibis at a time: the only connection natively,
                // several through the wait set (over UCX one progress and a probe per source a
                // round, where polling each connection progresses once per connection).
                if (afterUpcall && port.ibis.tryStartUpcallSpin()) {
                    boolean mayHave;
                    try {
                        if (n == 1) {
                            c = spinOn(snapshot[0]) ? snapshot[0] : null; // (its message, or its end)
                            mayHave = false;
                        } else {
                            c = finder.look(snapshot, n, false);
                            mayHave = c == null && finder.pollWaitSet(snapshot, n, spin);
                        }
                    } finally {
                        port.ibis.endUpcallSpin();
                    }
                    if (mayHave) {
                        c = finder.lookIncludingEnds(snapshot, n);
                        if (c == null) {
                            continue; // a wake-up (a new connection, closing): look again from the top
                        }
                    }
                }
                afterUpcall = false;
                if (c == null) {
                    c = finder.findMessage(snapshot, n, 0, false, false);
                }
            } catch (IOException | RuntimeException e) {
                if (!waitFailed(e)) {
                    return;
                }
                continue;
            }
            if (c == null) {
                continue; // woken without a message (a new connection, closing): look again
            }
            int kind;
            try {
                kind = c.readHeader();
            } catch (IOException | RuntimeException e) {
                port.connectionEnded(c, e);
                continue;
            }
            if (kind == ReceiveConnection.CLOSED) {
                port.connectionEnded(c, null);
                continue;
            }
            long delivery = awaitSlot(c);
            if (delivery < 0) {
                continue; // that connection ended, or the port closed: the message is dropped
            }
            afterUpcall = true;
            if (UpcallDelivery.runUpcall(port, c, delivery) == UpcallDelivery.PASSED_ON) {
                return; // finish() in the upcall handed the role to a pooled thread, which reads on
            }
            // (CONNECTION_GONE: that connection is gone, reported; the others are read on)
        }
    }

    /**
     * Polls the port's only connection for the spin time, as a reader per connection does (over
     * UCX a native loop of progress and probe, tighter than a poll of the wait set).
     *
     * @return whether its next message (or end) may be there; false also when it broke (ended here)
     */
    private boolean spinOn(ReceiveConnection c) {
        if (c == null) {
            return false;
        }
        try {
            return c.awaitSpinning(spin);
        } catch (IOException | RuntimeException e) {
            port.connectionEnded(c, e);
            return false;
        }
    }

    /**
     * The wait set failed: closed with the port (the role ends), or the transport broke. Then no
     * connection of the port can be read any more: each ends with that cause (their senders and the
     * connect upcall learn of it) rather than waiting silently.
     *
     * @return whether the role goes on
     */
    private boolean waitFailed(Exception e) {
        ReceiveConnection[] left;
        synchronized (port.lock) {
            if (port.closed) {
                roleTaken = false;
                return false;
            }
            if (e instanceof java.io.InterruptedIOException) {
                Thread.interrupted(); // pooled threads are not interrupted for us; never spin on a stale flag
                return true;
            }
            left = port.connections.toArray(new ReceiveConnection[0]);
        }
        LOG.warn("{}: waiting for messages on all connections failed; ending them", port, e);
        for (ReceiveConnection c : left) {
            port.connectionEnded(c, e);
        }
        return true;
    }

    /**
     * Parks until the message slot may be taken (upcalls enabled and no live message) and takes
     * it. Returns the delivery number of the message, or -1 when the connection or port was closed
     * meanwhile.
     */
    private long awaitSlot(ReceiveConnection c) {
        Thread me = Thread.currentThread();
        while (true) {
            synchronized (port.lock) {
                if (c.removed || port.closed) {
                    slotWaiter = null;
                    return -1;
                }
                if (port.upcallsEnabled && port.live == null) {
                    slotWaiter = null;
                    IncomingMessage m = c.message;
                    m.delivery++;
                    m.upcallThread = me;
                    m.setLive(true);
                    port.live = m;
                    return m.delivery;
                }
                slotWaiter = me;
                c.readerThread = me;
            }
            LockSupport.park(port);
            Thread.interrupted(); // pooled threads are not interrupted for us; never spin on a stale flag
        }
    }

    private void wakeSlotWaiterLocked() {
        if (slotWaiter != null) {
            LockSupport.unpark(slotWaiter);
        }
    }

    @Override
    public void upcallsEnabledLocked() {
        wakeSlotWaiterLocked();
    }

    @Override
    public void messageFinishedLocked(ReceiveConnection c) {
        wakeSlotWaiterLocked();
    }

    /** Only poll() comes here: the reader delivers without polling. */
    @Override
    public ibis.ipl.ReadMessage receive(long deadline, boolean poll) {
        return null;
    }

    @Override
    public void closing() {
        finder.closing(); // a reader blocked in the wait set looks at the port again
    }

    /** The reader goes on reading and delivering; waits until the senders disconnected. */
    @Override
    public void drain(long deadline) throws IOException {
        UpcallDelivery.awaitDisconnected(port, deadline);
    }

    @Override
    public void closedLocked() {
        wakeSlotWaiterLocked();
        finder.closing();
    }

    @Override
    public void closed() {
        finder.closed();
    }
}
