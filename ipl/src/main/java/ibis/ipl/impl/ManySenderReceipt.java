package ibis.ipl.impl;

import ibis.ipl.ConnectionClosedException;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceiveTimedOutException;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Explicit receipt on a port with many senders over a transport that offers a
 * {@link SourceWaitSet}: the {@code receive()} caller waits for all connections itself, polling
 * them (round robin, so that no sender starves) for a short time ({@link SpinWait}) before it
 * blocks in the wait set, and reads the message of the connection it finds in its own thread: no
 * thread hand-off per message, as for one sender. A connection that breaks or closes is removed
 * and the call waits on for the others.
 *
 * <p>Turns: after a message, the next receive call stays with the same connection while that
 * connection's next message has arrived already, for up to {@link #STAY_NANOS}, and while its
 * messages are large ({@link #BULK_MESSAGE_BYTES} on average in this turn) for up to
 * {@link #BULK_STAY_NANOS}, before it goes on round robin. Taking one message per connection in
 * turn keeps every connection's socket queue full when the senders together outpace the receiver:
 * over TCP the senders then wait for window updates, and the receiver's own reads end up doing the
 * senders' transmission work (their segments go out from the acknowledgements it sends), which
 * halved many-to-one throughput with 4 and 8 senders on loopback. Emptying one connection's queue
 * at a time, as a plain selector loop does, keeps the windows open and that work on the senders.
 * Each change of connection in a stream of large messages also starts on a queue that filled while
 * the receiver was elsewhere (megabytes, long out of the processor's caches), while the current
 * connection's bytes are read as its sender writes them: with turns of at most 1 ms, 4 senders of
 * 100 KB messages reached 3.0-3.6 GB/s on loopback, with turns of 10-20 ms 4.0-5.0 (one sender:
 * 4.0-5.3). The time limits bound how long a sender whose message has arrived can be passed over:
 * 1 ms for small messages, whose queues are cheap to change to, 20 ms in a bulk stream.
 */
final class ManySenderReceipt implements MessageDelivery {

    private static final Logger LOG = LoggerFactory.getLogger(ManySenderReceipt.class);

    /** How long the receive calls stay with one connection while it has messages waiting. */
    static final long STAY_NANOS = 1_000_000;
    /** How long they stay with one connection while its messages are large (a bulk stream). */
    static final long BULK_STAY_NANOS = 20_000_000;
    /** Bytes per message, on average over a turn, from which a turn may last {@link #BULK_STAY_NANOS}. */
    static final long BULK_MESSAGE_BYTES = 32 * 1024;

    private final AbstractReceivePort port;
    /** Poll-then-block policy of the receive calls (one reads at a time). */
    private final SpinWait receiveSpin;
    /** Where the receive() caller blocks for all connections at once. */
    private final SourceWaitSet waitSet;

    /** The connections as the reading receive call last saw them (guarded by the port's {@code reading}). */
    private ReceiveConnection[] readSnapshot = new ReceiveConnection[4];
    /** Connections whose sources are in the wait set (guarded by the port's {@code reading}). */
    private final List<ReceiveConnection> watched = new ArrayList<>();
    /** Where the next search for a message starts, so that no sender starves. */
    private int nextConnection;
    /** The connection the last message came from, and its index in the snapshot then (or -1). */
    private ReceiveConnection current;
    private int currentIndex = -1;
    /** When the receive calls started reading {@link #current} (System.nanoTime()). */
    private long currentSince;
    /** The bytes {@link #current} had received when its turn started, and the turn's messages so far. */
    private long turnStartBytes;
    private long turnMessages;

    ManySenderReceipt(AbstractReceivePort port, SpinWait receiveSpin, SourceWaitSet waitSet) {
        this.port = port;
        this.receiveSpin = receiveSpin;
        this.waitSet = waitSet;
    }

    @Override
    public void connectionAddedLocked(ReceiveConnection c) {
        waitSet.wakeup(); // a receive() blocked in it watches the new connection from now on
    }

    /**
     * Looks at every connection (what is buffered, then one poll of each), polls them all briefly,
     * then blocks in the wait set, and reads the header of the message it found in this thread.
     */
    @Override
    public ReadMessage receive(long deadline, boolean poll) throws IOException {
        while (true) {
            ReceiveConnection[] snapshot;
            int n;
            ReceiveConnection c = null;
            synchronized (port.lock) {
                if (!port.claimReadingLocked(deadline, poll)) {
                    return null;
                }
                n = snapshotLocked();
                snapshot = readSnapshot;
                for (int i = 0; i < n; i++) {
                    if (snapshot[i].headerReady) { // read by the idle check
                        snapshot[i].headerReady = false;
                        return port.deliver(snapshot[i]);
                    }
                }
            }
            boolean delivered = false;
            boolean awaiting = true; // nothing consumed yet
            try {
                c = findMessage(snapshot, n, deadline, poll, true);
                if (c == null) {
                    if (poll) {
                        return null;
                    }
                    continue; // woken without a message: look at the connections again
                }
                awaiting = false;
                if (c.readHeader() == ReceiveConnection.CLOSED) {
                    port.connectionEnded(c, null);
                    continue; // that sender left regularly; wait for the others
                }
                delivered = true;
                return port.deliver(c);
            } catch (ReceiveTimedOutException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                if (awaiting && e instanceof InterruptedIOException interrupted) {
                    throw interrupted; // nothing was consumed: the connections stay; the interrupt is the caller's
                }
                if (c == null) {
                    // The wait set failed: closed with the port, or the transport broke.
                    synchronized (port.lock) {
                        if (port.closed || port.closing) {
                            throw new ConnectionClosedException(port + " was closed while receiving", e);
                        }
                    }
                    throw e instanceof IOException io ? io : new IOException(e);
                }
                port.connectionEnded(c, e); // that sender's connection broke; wait for the others
            } finally {
                if (!delivered) {
                    port.releaseReading();
                }
            }
        }
    }

    /** The snapshot {@link #snapshotLocked()} made (for the thread that reads). */
    ReceiveConnection[] snapshot() {
        return readSnapshot;
    }

    /**
     * Copies the connections into {@code readSnapshot} and stops watching the sources of those
     * that ended; called by the reading thread with the lock held.
     *
     * @return the number of connections
     */
    int snapshotLocked() {
        List<ReceiveConnection> connections = port.connections;
        int n = connections.size();
        if (readSnapshot.length < n) {
            readSnapshot = new ReceiveConnection[Math.max(n, readSnapshot.length * 2)];
        }
        for (int i = 0; i < n; i++) {
            readSnapshot[i] = connections.get(i);
        }
        for (int i = watched.size() - 1; i >= 0; i--) {
            ReceiveConnection w = watched.get(i);
            if (w.removed) {
                waitSet.remove(w.ends.source());
                w.watched = false;
                watched.remove(i);
            }
        }
        return n;
    }

    /**
     * Looks for a connection whose next message has arrived, without blocking: the current turn's
     * connection (see the class comment), what the connections buffered, one poll of each, and, with
     * {@code spin}, polling all of them for the spin time.
     *
     * @return the connection, or null
     */
    ReceiveConnection look(ReceiveConnection[] snapshot, int n, boolean spin) throws IOException {
        // Stay with the connection of the last message while its next one has arrived already,
        // for up to STAY_NANOS, or BULK_STAY_NANOS in a bulk stream (turnGoesOn): see the class comment.
        int k0 = currentIndex;
        if (k0 >= 0 && k0 < n && snapshot[k0] == current && turnGoesOn(current)
                && (snapshot[k0].messageBuffered() || arrived(snapshot, k0, false))) {
            turnMessages++;
            return snapshot[k0];
        }
        int start = nextConnection < n ? nextConnection : 0;
        for (int i = 0; i < n; i++) {
            int k = (start + i) % n;
            if (snapshot[k] != null && snapshot[k].messageBuffered()) {
                return found(snapshot, k);
            }
        }
        for (int i = 0; i < n; i++) {
            int k = (start + i) % n;
            if (arrived(snapshot, k, false)) {
                return found(snapshot, k);
            }
        }
        if (spin && receiveSpin.start()) {
            while (receiveSpin.next()) {
                for (int i = 0; i < n; i++) {
                    int k = (start + i) % n;
                    if (arrived(snapshot, k, false)) {
                        receiveSpin.succeeded();
                        return found(snapshot, k);
                    }
                }
            }
        }
        return null;
    }

    /**
     * Finds a connection whose next message (or end) has arrived: first among what the
     * connections buffered, then by polling each once, then (with {@code spin}, unless {@code poll})
     * polling all for the spin time, then (unless {@code poll}) blocking in the wait set until the
     * deadline.
     *
     * @return the connection, or null when polling found nothing or a blocking wait was woken
     *         without one (a new connection, a close, a spurious wake-up)
     */
    ReceiveConnection findMessage(ReceiveConnection[] snapshot, int n, long deadline, boolean poll, boolean spin)
            throws IOException {
        ReceiveConnection found = look(snapshot, n, spin && !poll);
        if (found != null) {
            return found;
        }
        if (!poll) {
            watchAll(snapshot, n);
            waitSet.await(port.millisLeft(deadline, "waiting for a message"));
        }
        return lookIncludingEnds(snapshot, n);
    }

    /**
     * After a wake-up, a poll of the wait set, or for {@code poll()}: one poll of each connection
     * for its next message or its end.
     *
     * @return the connection, or null
     */
    ReceiveConnection lookIncludingEnds(ReceiveConnection[] snapshot, int n) throws IOException {
        int start = nextConnection < n ? nextConnection : 0;
        for (int i = 0; i < n; i++) {
            int k = (start + i) % n;
            if (arrived(snapshot, k, true)) {
                return found(snapshot, k);
            }
        }
        return null;
    }

    /**
     * Polls all connections of the snapshot through the wait set for up to {@code spin}'s time
     * ({@link SourceWaitSet#poll}), without blocking.
     *
     * @return whether one may have a message (or its end, or the set was woken): look again
     */
    boolean pollWaitSet(ReceiveConnection[] snapshot, int n, SpinWait spin) throws IOException {
        watchAll(snapshot, n);
        return waitSet.poll(spin);
    }

    /** Adds the sources of the snapshot's connections that are not in the wait set yet. */
    private void watchAll(ReceiveConnection[] snapshot, int n) {
        for (int k = 0; k < n; k++) {
            ReceiveConnection c = snapshot[k];
            if (c != null && !c.watched) {
                try {
                    waitSet.add(c.ends.source());
                } catch (IOException e) {
                    end(snapshot, k, e); // (its source closed: the connection ended)
                    continue;
                }
                c.watched = true;
                watched.add(c);
            }
        }
    }

    /**
     * Polls connection {@code k} of the snapshot once: whether its next message (or, with
     * {@code orEnd}, its end) has arrived. A connection whose poll fails is ended and dropped
     * from the snapshot.
     */
    private boolean arrived(ReceiveConnection[] snapshot, int k, boolean orEnd) throws InterruptedIOException {
        ReceiveConnection c = snapshot[k];
        if (c == null) {
            return false;
        }
        try {
            return c.in.awaitMessage(-1) || (orEnd && c.source.awaitData(-1));
        } catch (InterruptedIOException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            end(snapshot, k, e);
            return false;
        }
    }

    private void end(ReceiveConnection[] snapshot, int k, Exception cause) {
        port.connectionEnded(snapshot[k], cause);
        snapshot[k] = null;
    }

    private ReceiveConnection found(ReceiveConnection[] snapshot, int k) {
        nextConnection = k + 1;
        current = snapshot[k];
        currentIndex = k;
        currentSince = System.nanoTime();
        turnStartBytes = current.source.received();
        turnMessages = 1;
        return snapshot[k];
    }

    /** Whether the turn of connection {@code c} (the current one) may go on: see the class comment. */
    private boolean turnGoesOn(ReceiveConnection c) {
        long lasted = System.nanoTime() - currentSince;
        if (lasted < STAY_NANOS) {
            return true;
        }
        return lasted < BULK_STAY_NANOS && c.source.received() - turnStartBytes >= turnMessages * BULK_MESSAGE_BYTES;
    }

    @Override
    public void checkIdleConnections() {
        port.readIdleConnections(true);
    }

    @Override
    public void messageFinishedLocked(ReceiveConnection c) {
        port.notifyWaitersLocked(); // the next receive call may read now
    }

    @Override
    public void closing() {
        waitSet.wakeup(); // (a receive call blocked there fails now too)
    }

    /**
     * Nobody else reads the connections while the port closes, so read them here until the
     * senders disconnected; messages nobody received are dropped.
     */
    @Override
    public void drain(long deadline) throws InterruptedIOException {
        while (true) {
            ReceiveConnection[] snapshot;
            int n;
            ReceiveConnection c = null;
            synchronized (port.lock) {
                if (!port.claimForDrainLocked(deadline)) {
                    return;
                }
                n = snapshotLocked();
                snapshot = readSnapshot;
                for (int i = 0; i < n && c == null; i++) {
                    if (snapshot[i].headerReady) {
                        snapshot[i].headerReady = false;
                        c = snapshot[i];
                    }
                }
            }
            try {
                boolean headerRead = c != null;
                if (c == null) {
                    c = findMessage(snapshot, n, deadline == Long.MAX_VALUE ? 0 : deadline, false, true);
                }
                if (c == null) {
                    continue;
                }
                if (!headerRead && c.readHeader() == ReceiveConnection.CLOSED) {
                    port.connectionEnded(c, null);
                } else {
                    port.dropWhileClosing(c);
                }
            } catch (ReceiveTimedOutException e) {
                return;
            } catch (InterruptedIOException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                if (c == null) {
                    LOG.debug("{}: waiting for the senders to disconnect failed: {}", port, e.toString());
                    return;
                }
                port.connectionEnded(c, e);
            } finally {
                port.releaseReading();
            }
        }
    }

    @Override
    public void closed() {
        try {
            waitSet.close();
        } catch (IOException e) {
            LOG.debug("{}: closing the wait set failed: {}", port, e.toString());
        }
    }
}
