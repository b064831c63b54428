package ibis.ipl.impl;

import ibis.ipl.ConnectionClosedException;
import ibis.ipl.ReadMessage;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;

/**
 * Explicit receipt on a port with many senders over a transport without a {@link SourceWaitSet}:
 * each connection has a pooled reader thread that reads the message header and hands the message
 * to a {@code receive()} caller through the port's ready queue; the reader then parks until that
 * message is finished.
 */
final class HandedOffReceipt implements MessageDelivery {

    private final AbstractReceivePort port;
    /** Poll-then-block policy of the receive calls. */
    private final SpinWait receiveSpin;
    /** Connections whose next message is ready for a receive call (guarded by the port's lock). */
    private final ArrayDeque<ReceiveConnection> ready = new ArrayDeque<>();
    /** Size of {@code ready}, readable without the lock for spinning receivers. */
    private volatile int readyCount;

    HandedOffReceipt(AbstractReceivePort port, SpinWait receiveSpin) {
        this.port = port;
        this.receiveSpin = receiveSpin;
    }

    @Override
    public void connectionAccepted(ReceiveConnection c) {
        handOffReader(c);
    }

    /** The reader loop of one connection, on the pooled thread that admitted it. */
    private void handOffReader(ReceiveConnection c) {
        Object lock = port.lock;
        while (true) {
            int kind;
            try {
                kind = c.readHeader();
            } catch (IOException | RuntimeException e) {
                port.connectionEnded(c, e);
                return;
            }
            if (kind == ReceiveConnection.CLOSED) {
                port.connectionEnded(c, null);
                return;
            }
            synchronized (lock) {
                if (c.removed || port.closed) {
                    return;
                }
                c.readerThread = Thread.currentThread();
                c.queued = true;
                c.released = false;
                ready.addLast(c);
                readyCount = ready.size();
                port.notifyWaitersLocked(); // receive() callers wait on the lock
            }
            // Park until a receive() caller took the message and finished it.
            while (true) {
                synchronized (lock) {
                    if (c.removed || port.closed) {
                        return;
                    }
                    if (c.released) {
                        break;
                    }
                }
                LockSupport.park(port);
                Thread.interrupted();
            }
        }
    }

    @Override
    public void connectionRemovedLocked(ReceiveConnection c) {
        if (c.queued) {
            c.queued = false;
            ready.remove(c);
            readyCount = ready.size();
        }
    }

    /** Takes a message that a connection reader has made ready. */
    @Override
    public ReadMessage receive(long deadline, boolean poll) throws IOException {
        if (!poll && readyCount == 0 && receiveSpin.start()) {
            // Poll the ready count briefly (no lock) before waiting on the lock; yield between
            // polls so that a connection reader on this processor can make the message ready.
            while (receiveSpin.next()) {
                if (readyCount != 0) {
                    receiveSpin.succeeded();
                    break;
                }
            }
        }
        synchronized (port.lock) {
            while (true) {
                if (port.closed || port.closing) {
                    throw new ConnectionClosedException(port + " is closed");
                }
                if (port.live == null && !ready.isEmpty()) {
                    break;
                }
                if (poll) {
                    return null;
                }
                port.waitLocked(port.millisLeft(deadline, "waiting for a message"));
            }
            return takeReadyLocked();
        }
    }

    /** Makes the first ready message the port's live message. */
    private IncomingMessage takeReadyLocked() {
        ReceiveConnection c = ready.pollFirst();
        readyCount = ready.size();
        c.queued = false;
        c.message.setLive(true);
        port.live = c.message;
        return c.message;
    }

    @Override
    public void messageFinishedLocked(ReceiveConnection c) {
        c.released = true; // its reader may read on now
        if (c.readerThread != null) {
            LockSupport.unpark(c.readerThread);
        }
        port.notifyWaitersLocked();
    }

    /**
     * Waits until the senders disconnected. Messages handed to the ready queue that nobody will
     * receive any more are dropped, so their readers can go on to the CLOSE message.
     */
    @Override
    public void drain(long deadline) throws IOException {
        while (true) {
            IncomingMessage drop = null;
            synchronized (port.lock) {
                if (port.connections.isEmpty() || AbstractReceivePort.passed(deadline)) {
                    return;
                }
                if (port.live == null && !ready.isEmpty()) {
                    drop = takeReadyLocked();
                } else {
                    port.waitLocked(AbstractReceivePort.millisUntil(deadline));
                }
            }
            if (drop != null) {
                port.dropWhileClosing(drop);
            }
        }
    }
}
