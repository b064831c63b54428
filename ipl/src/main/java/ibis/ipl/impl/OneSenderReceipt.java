package ibis.ipl.impl;

import ibis.ipl.ConnectionClosedException;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceiveTimedOutException;

import java.io.IOException;
import java.io.InterruptedIOException;

/**
 * Explicit receipt on a port with at most one sender (port type without manytoone/manytomany):
 * the {@code receive()} caller reads the connection in its own thread. It polls the connection
 * for a short, configurable time ({@link ImplPropertyTable#RECEIVE_SPIN_MICROS}) before it
 * blocks, the "poll briefly, then block" idea of the Ibis paper (section 3.2.2): a thread that
 * asks for a message usually expects one soon, and catching it while polling saves the wake-up.
 * Between polls it pauses and now and then yields the processor ({@link SpinWait}), so that a
 * sender on the same processor is not kept waiting by the poll.
 */
final class OneSenderReceipt implements MessageDelivery {

    private final AbstractReceivePort port;
    /** Poll-then-block policy of the receive calls (one at a time). */
    private final SpinWait receiveSpin;

    OneSenderReceipt(AbstractReceivePort port, SpinWait receiveSpin) {
        this.port = port;
        this.receiveSpin = receiveSpin;
    }

    @Override
    public ReadMessage receive(long deadline, boolean poll) throws IOException {
        while (true) {
            ReceiveConnection c;
            boolean headerReady;
            synchronized (port.lock) {
                if (!port.claimReadingLocked(deadline, poll)) {
                    return null;
                }
                c = port.connections.get(0);
                headerReady = c.headerReady;
                c.headerReady = false;
            }
            boolean delivered = false;
            boolean awaiting = false; // waiting for the next message to start: nothing consumed yet
            try {
                int kind = ReceiveConnection.DATA;
                if (!headerReady) {
                    awaiting = true;
                    if (!awaitDirect(c, deadline, poll)) {
                        return null; // poll: nothing there
                    }
                    awaiting = false;
                    kind = c.readHeader();
                }
                if (kind == ReceiveConnection.CLOSED) {
                    port.connectionEnded(c, null);
                    continue; // the sender left regularly; wait for the next one
                }
                delivered = true;
                return port.deliver(c);
            } catch (ReceiveTimedOutException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                if (awaiting && e instanceof InterruptedIOException interrupted) {
                    // Interrupted before the next message started: nothing was consumed, so the
                    // connection stays; the interrupt is the caller's (its status stays set).
                    throw interrupted;
                }
                boolean byPort;
                synchronized (port.lock) {
                    byPort = c.closedByPort;
                }
                if (!byPort && c.nothingArrived()) {
                    // A withdrawn connection attempt (see ReceiveConnection.nothingArrived): not a
                    // byte arrived, so nothing is lost; wait for the next sender, as after a CLOSE.
                    port.connectionEnded(c, e);
                    continue;
                }
                port.connectionEnded(c, e);
                throw new ConnectionClosedException(byPort ? port + " was closed while receiving"
                        : port + " lost its connection from " + c.origin + ": " + e, e);
            } finally {
                if (!delivered) {
                    port.releaseReading();
                }
            }
        }
    }

    /**
     * Waits until the next message of the connection starts: polls for the spin time, then blocks
     * (until the deadline).
     *
     * @return false when polling found nothing
     */
    private boolean awaitDirect(ReceiveConnection c, long deadline, boolean poll) throws IOException {
        if (poll) {
            return c.in.awaitMessage(-1);
        }
        if (c.awaitSpinning(receiveSpin)) {
            return true;
        }
        long left = port.millisLeft(deadline, "waiting for data");
        if (!c.in.awaitMessage(left)) {
            throw new ReceiveTimedOutException(port + ": no message arrived in time");
        }
        return true;
    }

    @Override
    public void checkIdleConnections() {
        port.readIdleConnections(true);
    }

    @Override
    public void messageFinishedLocked(ReceiveConnection c) {
        port.notifyWaitersLocked(); // the next receive call may read now
    }

    /**
     * Nobody else reads the connection while the port closes, so read it here until the sender
     * disconnects; messages nobody received are dropped.
     */
    @Override
    public void drain(long deadline) throws InterruptedIOException {
        while (true) {
            ReceiveConnection c;
            boolean headerReady;
            synchronized (port.lock) {
                if (!port.claimForDrainLocked(deadline)) {
                    return;
                }
                c = port.connections.get(0);
                headerReady = c.headerReady;
                c.headerReady = false;
            }
            try {
                if (headerReady) {
                    port.dropWhileClosing(c);
                    continue;
                }
                if (!c.in.awaitMessage(AbstractReceivePort.millisUntil(deadline))) {
                    return;
                }
                if (c.readHeader() == ReceiveConnection.CLOSED) {
                    port.connectionEnded(c, null);
                } else {
                    port.dropWhileClosing(c);
                }
            } catch (IOException | RuntimeException e) {
                port.connectionEnded(c, e);
            } finally {
                port.releaseReading();
            }
        }
    }
}
