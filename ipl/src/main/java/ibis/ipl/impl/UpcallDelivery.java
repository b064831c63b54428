package ibis.ipl.impl;

import ibis.ipl.ReadMessage;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;

/**
 * Upcalls made by pooled connection readers (port type with receive.autoupcalls): each connection
 * has a reader on a pooled thread (one per connection, not one per message). It reads the next
 * message header, queues for the port's message slot (in arrival order), runs the upcall and
 * continues with the next message, polling briefly for it first
 * ({@link ImplPropertyTable#UPCALL_SPIN_MICROS}, {@link SpinWait}). If the upcall calls
 * {@code finish()}, the slot is released at once and the connection is released to be read on by
 * another pooled thread, so the next message can be delivered while the first upcall still runs:
 * at once when that message is buffered already, else only if the upcall is still running a
 * little later ({@link UpcallHandOffs}); usually the upcall returns first and its own thread takes
 * the connection back, which saves a thread wake-up per message.
 */
final class UpcallDelivery implements MessageDelivery, UpcallReaders {

    private final AbstractReceivePort port;
    private final long upcallSpinMicros;
    /** Connections whose next message waits for the slot, in arrival order (guarded by the port's lock). */
    private final ArrayDeque<ReceiveConnection> waitingForSlot = new ArrayDeque<>();

    UpcallDelivery(AbstractReceivePort port, long upcallSpinMicros) {
        this.port = port;
        this.upcallSpinMicros = upcallSpinMicros;
    }

    /** The reader loop of a new connection, on the pooled thread that admitted it. */
    @Override
    public void connectionAccepted(ReceiveConnection c) {
        upcallReader(c);
    }

    @Override
    public void continueReading(ReceiveConnection c) {
        synchronized (port.lock) {
            if (!c.handOffPending) {
                return;
            }
            c.handOffPending = false;
        }
        upcallReader(c);
    }

    private void upcallReader(ReceiveConnection c) {
        AbstractIbis ibis = port.ibis;
        boolean afterUpcall = false;
        while (true) {
            int kind;
            try {
                if (afterUpcall && upcallSpinMicros > 0 && ibis.tryStartUpcallSpin()) {
                    // An upcall often sends a request whose reply comes back on this connection
                    // soon: poll briefly before blocking, as an explicit receive does (a bounded
                    // number of readers per Ibis at a time).
                    try {
                        if (c.upcallSpin == null) {
                            c.upcallSpin = new SpinWait(upcallSpinMicros);
                        }
                        c.awaitSpinning(c.upcallSpin);
                    } finally {
                        ibis.endUpcallSpin();
                    }
                }
                afterUpcall = true;
                kind = c.readHeader();
            } catch (IOException | RuntimeException e) {
                port.connectionEnded(c, e);
                return;
            }
            if (kind == ReceiveConnection.CLOSED) {
                port.connectionEnded(c, null);
                return;
            }
            long delivery = awaitSlot(c);
            if (delivery < 0) {
                return;
            }
            int after = runUpcall(port, c, delivery);
            if (after != READ_ON) {
                return; // another thread reads on, or the connection is gone (already reported)
            }
        }
    }

    /** After {@link #runUpcall}: this thread goes on reading. */
    static final int READ_ON = 0;
    /** After {@link #runUpcall}: another thread reads on (the hand-off after finish() started). */
    static final int PASSED_ON = 1;
    /** After {@link #runUpcall}: finishing the message found its connection broken (reported). */
    static final int CONNECTION_GONE = 2;

    /**
     * Runs the upcall for the live message of {@code c} ({@code delivery}: its delivery number) and
     * finishes the message unless finish() was called during the upcall. That call handed the
     * reading to a pooled thread: if that thread has not started yet, the reading is taken back,
     * which saves a thread wake-up on the critical path of request/reply.
     *
     * @return {@link #READ_ON}, {@link #PASSED_ON} or {@link #CONNECTION_GONE}
     */
    static int runUpcall(AbstractReceivePort port, ReceiveConnection c, long delivery) {
        IncomingMessage m = c.message;
        Throwable failure = null;
        try {
            port.upcall.upcall(m);
        } catch (Throwable t) {
            failure = t;
        }
        boolean finishHere = port.claimAfterUpcall(m, delivery);
        if (failure != null) {
            port.logUpcallFailure(c, failure);
        }
        if (!finishHere) {
            synchronized (port.lock) {
                if (!c.handOffPending) {
                    return PASSED_ON;
                }
                c.handOffPending = false;
            }
            return READ_ON;
        }
        try {
            port.completeFinish(m, false);
        } catch (IOException e) {
            return CONNECTION_GONE;
        }
        return READ_ON;
    }

    /**
     * Queues the connection for the port's message slot and parks until it is granted. Returns
     * the delivery number of the granted message, or -1 when the connection or port was closed
     * meanwhile (the message is dropped).
     */
    private long awaitSlot(ReceiveConnection c) {
        synchronized (port.lock) {
            if (c.removed || port.closed) {
                return -1;
            }
            c.readerThread = Thread.currentThread();
            waitingForSlot.addLast(c);
            grantSlotLocked();
        }
        while (true) {
            synchronized (port.lock) {
                if (port.live == c.message) {
                    return c.message.delivery;
                }
                if (c.removed || port.closed) {
                    waitingForSlot.remove(c);
                    return -1;
                }
            }
            LockSupport.park(port);
            Thread.interrupted(); // pooled threads are not interrupted for us; never spin on a stale flag
        }
    }

    /** Gives the free slot to the first waiting connection. */
    private void grantSlotLocked() {
        if (port.live != null || !port.upcallsEnabled || port.closed) {
            return;
        }
        ReceiveConnection next = waitingForSlot.pollFirst();
        if (next == null) {
            return;
        }
        IncomingMessage m = next.message;
        m.delivery++;
        m.upcallThread = next.readerThread;
        m.setLive(true);
        port.live = m;
        if (next.readerThread != Thread.currentThread()) {
            LockSupport.unpark(next.readerThread); // (a reader granting itself the slot does not park)
        }
    }

    @Override
    public void connectionRemovedLocked(ReceiveConnection c) {
        waitingForSlot.remove(c);
    }

    @Override
    public void upcallsEnabledLocked() {
        grantSlotLocked();
    }

    /** Only poll() comes here: the connection readers deliver without polling. */
    @Override
    public ReadMessage receive(long deadline, boolean poll) {
        return null;
    }

    @Override
    public void messageFinishedLocked(ReceiveConnection c) {
        grantSlotLocked();
    }

    /**
     * finish() was called inside the upcall: the next message may be delivered while this upcall
     * runs on. The hand-off is deferred (see {@link UpcallHandOffs}), also when the next message is
     * here already: usually the upcall returns first and its thread reads on, which saves a thread
     * wake-up per message. (A hand-off at once whenever the next message was buffered made a stream
     * of short upcalls start pooled threads faster than the finished ones went back to the pool: a
     * GMI process receiving a burst of group invocations had 1,650 reader threads after 5 s.)
     */
    @Override
    public void handOff(ReceiveConnection c) {
        synchronized (port.lock) {
            c.handOffPending = true;
        }
        port.ibis.upcallHandOffs().handOff(c);
    }

    /** The readers go on reading and delivering; wait until the senders disconnected. */
    @Override
    public void drain(long deadline) throws IOException {
        awaitDisconnected(port, deadline);
    }

    /** Waits until the port has no connections left or the deadline ({@link System#nanoTime()}) passed. */
    static void awaitDisconnected(AbstractReceivePort port, long deadline) throws IOException {
        synchronized (port.lock) {
            while (!port.connections.isEmpty() && !AbstractReceivePort.passed(deadline)) {
                port.waitLocked(AbstractReceivePort.millisUntil(deadline));
            }
        }
    }

    @Override
    public void closedLocked() {
        for (ReceiveConnection c : waitingForSlot) {
            LockSupport.unpark(c.readerThread);
        }
    }
}
