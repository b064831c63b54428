package ibis.ipl.impl;

import ibis.ipl.CapabilitySet;
import ibis.ipl.ConnectionClosedException;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.MessageUpcall;
import ibis.ipl.NoSuchPropertyException;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.ReceivePortConnectUpcall;
import ibis.ipl.ReceiveTimedOutException;
import ibis.ipl.SendPortIdentifier;
import ibis.ipl.impl.ConnectionHandshake.Reply;
import ibis.ipl.impl.ConnectionHandshake.Request;
import ibis.ipl.impl.ConnectionHandshake.Status;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receive port of the implementation base: admission of connections (the receiving half of
 * {@link ConnectionHandshake}), message delivery by upcall or explicit receipt, and the bookkeeping
 * of connections. A network implementation subclasses it without adding anything.
 *
 * <h2>Who reads a connection</h2>
 * One {@link MessageDelivery} per receive mode, chosen when the port is made:
 * <ul>
 * <li>{@link UpcallDelivery}: upcalls made by a pooled reader per connection (receive.autoupcalls);</li>
 * <li>{@link PolledUpcallDelivery}: upcalls made by the thread that polls;</li>
 * <li>{@link OneSenderReceipt}: explicit receipt with one sender, read by the {@code receive()} caller;</li>
 * <li>{@link ManySenderReceipt}: explicit receipt with many senders over a transport with a
 * {@link SourceWaitSet}, the {@code receive()} caller waiting for all connections and reading;</li>
 * <li>{@link HandedOffReceipt}: explicit receipt with many senders over other transports, pooled
 * readers handing messages to {@code receive()}.</li>
 * </ul>
 *
 * <h2>Concurrency</h2>
 * All state is guarded by {@code lock}. The port's <em>message slot</em> is {@code live} (the live
 * message, at most one) plus, for explicit ports whose receive calls read the connections,
 * {@code reading} (a receive call is reading). Waiting readers park on their own thread and are woken with
 * {@link LockSupport#unpark} by whoever grants them the slot, so a finish wakes exactly one thread;
 * upcall readers get the slot in arrival order. Nothing on the message path allocates once warm:
 * messages, queues and connection objects are reused, and waiting uses monitors and parking.
 */
public abstract class AbstractReceivePort implements ReceivePort {

    private static final Logger LOG = LoggerFactory.getLogger(AbstractReceivePort.class);

    /** The Ibis instance this port belongs to. */
    protected final AbstractIbis ibis;

    private final PortType type;
    private final String name;
    private final ReceivePortId identifier;
    /** Where messages go, or null for explicit receipt. */
    final MessageUpcall upcall;
    private final ReceivePortConnectUpcall connectUpcall;
    private final boolean manySenders;
    private final boolean downcalls;
    private final boolean numbered;
    private final String serializationName;
    /** How messages reach the application: one strategy per receive mode, chosen once. */
    private final MessageDelivery delivery;
    /** The same object as {@code delivery} on an auto-upcall port (finish() in an upcall hands off), else null. */
    private final UpcallReaders upcallReaders;

    /** Guards the port's state below and the delivery's. */
    final Object lock = new Object();
    /**
     * Threads in {@link #waitLocked} (guarded by lock): the only place that waits on it, so a change
     * with nobody waiting needs no {@code notifyAll} ({@link #notifyWaitersLocked}), a call into the
     * JVM per message otherwise.
     */
    private int waiters;
    /** Connect upcalls are made one at a time per port. */
    private final Object connectUpcallLock = new Object();

    // Guarded by lock.
    final List<ReceiveConnection> connections = new ArrayList<>();
    private final List<SendPortIdentifier> newConnections = new ArrayList<>();
    private final List<SendPortIdentifier> lostConnections = new ArrayList<>();
    private int admitting;
    /** The senders whose connections are being admitted now (guarded by the lock). */
    private final List<SendPortId> admittingOrigins = new ArrayList<>();
    private boolean connectionsEnabled;
    boolean upcallsEnabled;
    boolean closing;
    boolean closed;
    /** The live message of this port (the message slot), or null. */
    IncomingMessage live;
    /** One-sender and many-sender explicit ports: a receive/poll call is reading (the connections). */
    boolean reading;

    // Statistics, guarded by lock (counted where finishing takes it anyway: no fence of their own).
    private long messagesReceived;
    private long bytesReceived;

    /**
     * Creates the port; called by {@link AbstractIbis} after it checked the port type and the
     * upcalls against the Ibis's configuration.
     *
     * @param ibis the owning Ibis
     * @param type the port type (already validated)
     * @param name the port's name, unique within the Ibis
     * @param upcall where messages go, or null for explicit receipt
     * @param connectUpcall told about connections as they come and go (may be null)
     * @param properties port-specific properties (may be null): {@value ImplPropertyTable#RECEIVE_YIELD_EVERY}
     */
    protected AbstractReceivePort(AbstractIbis ibis, PortType type, String name, MessageUpcall upcall,
            ReceivePortConnectUpcall connectUpcall, Properties properties) {
        this.ibis = ibis;
        this.type = type;
        this.name = name;
        this.identifier = new ReceivePortId(ibis.identifier(), name);
        this.upcall = upcall;
        this.connectUpcall = connectUpcall;
        this.manySenders = PortTypeRules.manySenders(type);
        this.downcalls = type.hasCapability(PortType.CONNECTION_DOWNCALLS);
        this.numbered = type.hasCapability(PortType.COMMUNICATION_NUMBERED);
        this.serializationName = PortTypeRules.serializationName(type);
        int yieldEvery = ImplSettings.value(ImplPropertyTable.RECEIVE_YIELD_EVERY_PROPERTY, properties);
        UpcallReaders readers = null;
        if (upcall != null) {
            if (type.hasCapability(PortType.RECEIVE_AUTO_UPCALLS)) {
                SharedUpcallReader shared = sharedUpcallReader(ibis);
                if (shared != null) {
                    readers = shared;
                    this.delivery = shared;
                } else {
                    UpcallDelivery perConnection = new UpcallDelivery(this, ibis.settings().upcallSpinMicros());
                    readers = perConnection;
                    this.delivery = perConnection;
                }
            } else {
                this.delivery = new PolledUpcallDelivery(this);
            }
        } else if (manySenders) {
            SourceWaitSet set = null;
            try {
                set = ibis.transport().newSourceWaitSet();
            } catch (IOException e) {
                LOG.warn("{}: the transport could not make a wait set ({}); reading each connection on a thread "
                        + "of its own", name, e.toString());
            }
            SpinWait receiveSpin = new SpinWait(ibis.settings().receiveSpinMicros(), yieldEvery);
            this.delivery = set != null ? new ManySenderReceipt(this, receiveSpin, set)
                    : new HandedOffReceipt(this, receiveSpin);
        } else {
            this.delivery = new OneSenderReceipt(this, new SpinWait(ibis.settings().receiveSpinMicros(), yieldEvery));
        }
        this.upcallReaders = readers;
    }

    /**
     * One reader for all connections when the transport wants it ({@link Transport#sharedUpcallReading()})
     * and can make a wait set now; else null (a reader per connection).
     */
    private SharedUpcallReader sharedUpcallReader(AbstractIbis ibis) {
        if (!ibis.transport().sharedUpcallReading()) {
            return null;
        }
        try {
            SourceWaitSet set = ibis.transport().newSourceWaitSet();
            if (set != null) {
                return new SharedUpcallReader(this, new SpinWait(ibis.settings().upcallSpinMicros()), set);
            }
        } catch (IOException e) {
            LOG.warn("{}: the transport could not make a wait set ({}); reading each connection on a thread "
                    + "of its own", name, e.toString());
        }
        return null;
    }

    @Override
    public PortType getPortType() {
        return type;
    }

    @Override
    public ReceivePortId identifier() {
        return identifier;
    }

    @Override
    public String name() {
        return name;
    }
    // ------------------------------------------------------------------ admission

    /**
     * Answers a connection request for this port (on a pooled thread of the Ibis) and, when the
     * connection is accepted and the port reads connections on pooled threads, goes on reading it
     * in the calling thread ({@link MessageDelivery#connectionAccepted}).
     */
    void admit(Request request, ConnectionEnds ends) {
        SendPortId origin = new SendPortId(request.sender(), request.sendPortName());
        CapabilitySet senderType;
        try {
            senderType = new CapabilitySet(request.portType());
        } catch (IOException | RuntimeException e) {
            reject(ends, origin, Status.BAD_REQUEST, "malformed port type in the request: " + e);
            return;
        }
        String difference = PortTypeRules.difference(senderType, type);
        if (difference != null) {
            reject(ends, origin, Status.TYPE_MISMATCH, difference);
            return;
        }
        Status status = null;
        String text = null;
        synchronized (lock) {
            if (closing) {
                status = Status.REFUSED;
                text = this + " is closing";
            } else if (!connectionsEnabled) {
                status = Status.DISABLED;
                text = this + " does not accept connections (enableConnections() not called, or disabled)";
            } else if (isConnectedLocked(origin) || admittingOrigins.contains(origin)) {
                status = Status.ALREADY_CONNECTED;
                text = origin + " is already connected to " + this;
            } else if (!manySenders && connections.size() + admitting > 0) {
                status = Status.NOT_ALLOWED;
                text = this + " has port type " + PortTypeRules.describe(type)
                        + ", which allows one sender per receive port (many-to-one needs "
                        + PortType.CONNECTION_MANY_TO_ONE + " or " + PortType.CONNECTION_MANY_TO_MANY + ")";
            } else {
                admitting++;
                admittingOrigins.add(origin);
            }
        }
        if (status != null) {
            reject(ends, origin, status, text);
            return;
        }
        boolean accepted = true;
        if (connectUpcall != null) {
            synchronized (connectUpcallLock) {
                try {
                    accepted = connectUpcall.gotConnection(this, origin);
                } catch (Throwable t) {
                    LOG.warn("{}: ReceivePortConnectUpcall.gotConnection threw; refusing {}", this, origin, t);
                    accepted = false;
                }
            }
        }
        ReceiveConnection connection = null;
        RuntimeException setupFailure = null;
        synchronized (lock) {
            admitting--;
            admittingOrigins.remove(origin);
            if (!accepted) {
                status = Status.DENIED;
                text = this + " refused " + origin + " (ReceivePortConnectUpcall.gotConnection returned false)";
            } else if (closing) {
                status = Status.REFUSED;
                text = this + " is closing";
            } else {
                try {
                    connection = new ReceiveConnection(this, origin, ends, request.byteOrder(),
                            ibis.settings().bufferSize(), serializationName, numbered);
                    connections.add(connection);
                    if (downcalls) {
                        newConnections.add(origin);
                    }
                    notifyWaitersLocked();
                    delivery.connectionAddedLocked(connection);
                } catch (RuntimeException e) {
                    setupFailure = e;
                    status = Status.REFUSED;
                    text = this + " could not set up the connection: " + e;
                }
            }
        }
        if (setupFailure != null) {
            LOG.warn("{}: setting up the connection from {} failed", this, origin, setupFailure);
        }
        if (status != null) {
            reject(ends, origin, status, text);
            return;
        }
        try {
            ConnectionHandshake.writeReply(ends.sink(), new Reply(Status.ACCEPTED, ByteOrder.nativeOrder(), ""));
        } catch (IOException e) {
            // The sender never read our acceptance, so it cannot have sent anything on the
            // connection: it withdrew its attempt (its handshake timed out) or went away. An end,
            // not a lost connection; its CLOSE may or may not have arrived yet (a race whose
            // outcome must not decide how the end is reported).
            LOG.debug("{}: {} withdrew before our acceptance reached it: {}", this, origin, e.toString());
            connectionEnded(connection, null);
            return;
        }
        LOG.debug("{}: accepted {}", this, connection);
        delivery.connectionAccepted(connection);
    }

    private void reject(ConnectionEnds ends, SendPortId origin, Status status, String text) {
        LOG.debug("{}: answering {} to {}: {}", this, status, origin, text);
        try {
            ConnectionHandshake.writeReply(ends.sink(), new Reply(status, ByteOrder.nativeOrder(), text));
        } catch (IOException e) {
            LOG.debug("{}: could not send the {} answer to {}: {}", this, status, origin, e.toString());
        }
        ends.closeQuietly();
    }

    private boolean isConnectedLocked(SendPortIdentifier origin) {
        for (ReceiveConnection c : connections) {
            if (c.origin.equals(origin)) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ reader threads

    /**
     * Continues reading a connection on a pooled thread after finish() in an upcall, unless the
     * upcall's thread took the connection back first (auto-upcall ports only).
     */
    void continueReading(ReceiveConnection c) {
        upcallReaders.continueReading(c);
    }

    /**
     * Poll-upcall ports: delivers the messages that have arrived to the upcall, in the calling
     * thread, at most one per connection. Other ports: does nothing.
     *
     * @return the number of upcalls made
     */
    int pollUpcalls() {
        return delivery.pollUpcalls();
    }

    // ------------------------------------------------------------------ idle connections

    /**
     * Notices regular disconnects and broken connections on connections that no thread reads at
     * the moment (one-sender explicit ports and poll-upcall ports read only when asked). Called
     * periodically by the Ibis ({@link ImplPropertyTable#IDLE_CHECK_MILLIS}). A connection is
     * looked at only when it was idle for a whole period; it is then read for at most about a
     * millisecond: a CLOSE or the end of the stream is handled at once, the header of a data
     * message is kept for the next receive or poll.
     */
    void checkIdleConnections() {
        delivery.checkIdleConnections();
    }

    /**
     * The idle check of the ports whose connections are read only when asked.
     *
     * @param portWide explicit ports: one reading flag for all connections; else each
     *        connection's own busy flag (poll-upcall ports)
     */
    void readIdleConnections(boolean portWide) {
        ReceiveConnection[] candidates;
        synchronized (lock) {
            if (closed || closing || connections.isEmpty()) {
                return;
            }
            candidates = connections.toArray(new ReceiveConnection[0]);
        }
        for (ReceiveConnection c : candidates) {
            synchronized (lock) {
                boolean inUse = portWide ? (reading || live != null) : (c.busy || live == c.message);
                if (inUse || c.headerReady || c.removed || closed || closing) {
                    continue; // (headersRead is only looked at when no other thread reads the connection)
                }
                boolean active = c.idleMark != c.headersRead;
                c.idleMark = c.headersRead;
                if (active) {
                    continue;
                }
                if (portWide) {
                    reading = true;
                } else {
                    c.busy = true;
                }
            }
            try {
                if (c.in.awaitMessage(1)) {
                    if (c.readHeader() == ReceiveConnection.CLOSED) {
                        connectionEnded(c, null);
                    } else {
                        synchronized (lock) {
                            c.headerReady = true;
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                connectionEnded(c, e);
            } finally {
                synchronized (lock) {
                    if (portWide) {
                        reading = false;
                    } else {
                        c.busy = false;
                    }
                    c.idleMark = c.headersRead;
                    notifyWaitersLocked();
                }
            }
        }
    }
    // ------------------------------------------------------------------ explicit receipt

    @Override
    public ReadMessage receive() throws IOException {
        return receive(0);
    }

    @Override
    public ReadMessage receive(long timeoutMillis) throws IOException {
        if (upcall != null) {
            throw new IbisConfigurationException(this + " delivers its messages by upcalls; receive() is not allowed");
        }
        if (timeoutMillis > 0 && !type.hasCapability(PortType.RECEIVE_TIMEOUT)) {
            throw new IbisConfigurationException(this + ": receive(timeout) needs " + PortType.RECEIVE_TIMEOUT
                    + " in the port type");
        }
        if (timeoutMillis < 0) {
            throw new IllegalArgumentException("negative receive time-out " + timeoutMillis);
        }
        long deadline = timeoutMillis > 0 ? System.nanoTime() + timeoutMillis * 1_000_000L : 0;
        return delivery.receive(deadline, false);
    }

    @Override
    public ReadMessage poll() throws IOException {
        if (!type.hasCapability(PortType.RECEIVE_POLL) && !type.hasCapability(PortType.RECEIVE_POLL_UPCALLS)) {
            throw new IbisConfigurationException(this + ": poll() needs " + PortType.RECEIVE_POLL + " or "
                    + PortType.RECEIVE_POLL_UPCALLS + " in the port type");
        }
        return delivery.receive(0, true); // (upcall ports: delivered by their readers, or by this poll)
    }

    long millisLeft(long deadline, String what) throws ReceiveTimedOutException {
        if (deadline == 0) {
            return 0;
        }
        long left = (deadline - System.nanoTime()) / 1_000_000L;
        if (left <= 0) {
            throw new ReceiveTimedOutException(this + ": no message arrived in time (" + what + ")");
        }
        return left;
    }

    /**
     * Makes the message whose header was just read from {@code c} the port's live message: it
     * holds the slot from here on, so the reading call lets go of its claim.
     */
    IncomingMessage deliver(ReceiveConnection c) {
        synchronized (lock) {
            c.message.setLive(true);
            live = c.message;
            reading = false;
        }
        return c.message;
    }

    /**
     * Waits, with the lock held, until an explicit port may be read (no live message, no other
     * reading call, a connection), then claims reading it.
     *
     * @return false for a poll that would have to wait
     * @throws ConnectionClosedException when the port is closed or closing
     * @throws ReceiveTimedOutException when the deadline passed
     */
    boolean claimReadingLocked(long deadline, boolean poll) throws IOException {
        while (true) {
            if (closed || closing) {
                throw new ConnectionClosedException(this + " is closed");
            }
            if (live == null && !reading && !connections.isEmpty()) {
                reading = true;
                return true;
            }
            if (poll) {
                return false;
            }
            waitLocked(millisLeft(deadline, connections.isEmpty() ? "not connected" : "port busy"));
        }
    }

    /**
     * Closing an explicit port whose receive calls read the connections: waits until no message
     * is live and nobody reads, then claims reading (lock held).
     *
     * @return false when no connection is left or the deadline passed
     */
    boolean claimForDrainLocked(long deadline) throws InterruptedIOException {
        while (!connections.isEmpty() && (live != null || reading)) {
            if (passed(deadline)) {
                return false;
            }
            waitLocked(millisUntil(deadline));
        }
        if (connections.isEmpty() || passed(deadline)) {
            return false;
        }
        reading = true;
        return true;
    }

    /** A reading call lets go of its claim without delivering a message. */
    void releaseReading() {
        synchronized (lock) {
            reading = false;
            notifyWaitersLocked();
        }
    }

    void waitLocked(long millis) throws InterruptedIOException {
        waiters++;
        try {
            lock.wait(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting on " + this);
        } finally {
            waiters--;
        }
    }

    /** Wakes the threads in {@link #waitLocked}, if any; the caller holds the lock. */
    void notifyWaitersLocked() {
        if (waiters > 0) {
            lock.notifyAll();
        }
    }

    // ------------------------------------------------------------------ upcalls

    /**
     * After an upcall returned: claims its message for finishing unless finish() was called
     * during the upcall. The message object is reused: if finish() was called, another reader may
     * already be delivering the connection's next message in it.
     *
     * @param delivery the delivery number the upcall was made for
     * @return true when the caller must finish the message
     */
    boolean claimAfterUpcall(IncomingMessage m, long delivery) {
        synchronized (lock) {
            if (m.delivery != delivery) {
                return false;
            }
            m.upcallThread = null;
            if (!m.isLive()) {
                return false;
            }
            m.setLive(false); // claimed: nobody else may finish it now
            return true;
        }
    }

    void logUpcallFailure(ReceiveConnection c, Throwable failure) {
        if (failure instanceof IOException || failure instanceof ClassNotFoundException) {
            LOG.info("{}: upcall for a message from {} failed: {}", this, c.origin, failure.toString());
        } else {
            LOG.warn("{}: upcall for a message from {} threw", this, c.origin, failure);
        }
    }

    // ------------------------------------------------------------------ finishing messages

    /** {@link ReadMessage#finish()}: claims the message and completes it. */
    long finishMessage(IncomingMessage m, IOException abortCause) throws IOException {
        boolean inUpcall;
        synchronized (lock) {
            if (!m.isLive()) {
                throw new IOException(m + " is not live (already finished)");
            }
            m.setLive(false);
            // Only auto-upcall ports hand the connection to another thread; a poll upcall's
            // connection is read again by the next poll.
            inUpcall = m.upcallThread != null && upcallReaders != null;
        }
        if (abortCause != null) {
            LOG.debug("{}: message from {} finished after an error: {}", this, m.origin(), abortCause.toString());
        }
        long bytes = completeFinish(m, inUpcall);
        return bytes;
    }

    /**
     * Skips the rest of a claimed message, releases the slot, and lets the connection's reading go
     * on ({@link MessageDelivery#messageFinishedLocked}): on another pooled thread when finish was
     * called inside an upcall ({@code handOff}), by unparking the connection's reader on a
     * many-sender port, or by the next receive call.
     */
    long completeFinish(IncomingMessage m, boolean handOff) throws IOException {
        ReceiveConnection c = m.connection();
        IOException failure = null;
        try {
            c.endMessage();
        } catch (IOException e) {
            failure = e;
        } catch (RuntimeException e) {
            failure = new IOException(e);
        }
        long bytes = m.bytesSinceStart();
        synchronized (lock) {
            messagesReceived++;
            bytesReceived += bytes;
            if (live == m) {
                live = null;
            }
            delivery.messageFinishedLocked(c);
        }
        if (failure != null) {
            connectionEnded(c, failure);
            throw new ConnectionClosedException(this + " lost its connection from " + c.origin + ": " + failure,
                    failure);
        }
        if (handOff) {
            upcallReaders.handOff(c);
        }
        return bytes;
    }

    // ------------------------------------------------------------------ connections ending

    /**
     * Removes a connection that ended: regularly ({@code cause} null, the sender sent CLOSE) or
     * because it broke. Reports it to the connect upcall and {@link #lostConnections()} unless the
     * port itself closed it. Idempotent.
     */
    void connectionEnded(ReceiveConnection c, Throwable cause) {
        if (cause != null && c.nothingArrived()) {
            LOG.debug("{}: {} ended before its first message ({}): the sender withdrew it", this, c, cause.toString());
            cause = null;
        }
        boolean report;
        synchronized (lock) {
            if (c.removed) {
                return;
            }
            c.removed = true;
            connections.remove(c);
            delivery.connectionRemovedLocked(c);
            report = !c.closedByPort;
            if (report && downcalls) {
                lostConnections.add(c.origin); // broken or disconnected: both count (see ReceivePort)
            }
            notifyWaitersLocked();
            if (c.readerThread != null) {
                LockSupport.unpark(c.readerThread);
            }
        }
        c.ends.closeQuietly();
        if (!report) {
            LOG.debug("{}: closed {}", this, c);
            return;
        }
        if (cause == null) {
            LOG.debug("{}: {} disconnected", this, c);
        } else {
            LOG.info("{}: lost {}: {}", this, c, cause.toString());
        }
        if (connectUpcall != null) {
            synchronized (connectUpcallLock) {
                try {
                    connectUpcall.lostConnection(this, c.origin, cause);
                } catch (Throwable t) {
                    LOG.warn("{}: ReceivePortConnectUpcall.lostConnection threw", this, t);
                }
            }
        }
    }
    // ------------------------------------------------------------------ switches

    @Override
    public void enableConnections() {
        synchronized (lock) {
            connectionsEnabled = true;
        }
    }

    @Override
    public void disableConnections() {
        synchronized (lock) {
            connectionsEnabled = false;
        }
    }

    @Override
    public void enableMessageUpcalls() {
        synchronized (lock) {
            upcallsEnabled = true;
            delivery.upcallsEnabledLocked();
        }
    }

    @Override
    public void disableMessageUpcalls() {
        synchronized (lock) {
            upcallsEnabled = false;
        }
    }
    // ------------------------------------------------------------------ closing

    @Override
    public void close() throws IOException {
        close(ibis.settings().receiveCloseTimeout());
    }

    @Override
    public void close(long timeoutMillis) throws IOException {
        synchronized (lock) {
            if (closing) {
                return;
            }
            closing = true;
            connectionsEnabled = false;
            notifyWaitersLocked(); // blocked receive calls fail now
        }
        delivery.closing();
        try {
            if (timeoutMillis >= 0) {
                long deadline = timeoutMillis == 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutMillis * 1_000_000L;
                delivery.drain(deadline);
            }
        } finally {
            List<ReceiveConnection> broken;
            synchronized (lock) {
                closed = true;
                broken = new ArrayList<>(connections);
                for (ReceiveConnection c : broken) {
                    c.closedByPort = true;
                }
                notifyWaitersLocked();
                delivery.closedLocked();
            }
            for (ReceiveConnection c : broken) {
                if (timeoutMillis >= 0) {
                    LOG.info("{}: closing while {} is still connected; breaking the connection", this, c.origin);
                }
                connectionEnded(c, null);
            }
            delivery.closed();
            ibis.receivePortClosed(this);
            long dropped = droppedWhileClosing.get();
            if (dropped > 0) {
                // Not silent: the application closed the port while senders still sent.
                LOG.warn("{}: dropped {} message(s) that arrived while the port was closing and that nobody"
                        + " received; receive them before close(), or have the senders disconnect first", this,
                        dropped);
            }
            LOG.debug("{}: closed", this);
        }
    }

    /** Messages that arrived while the port was closing and were dropped unread. */
    private final java.util.concurrent.atomic.AtomicLong droppedWhileClosing =
            new java.util.concurrent.atomic.AtomicLong();

    static long millisUntil(long deadline) {
        if (deadline == Long.MAX_VALUE) {
            return 0;
        }
        return Math.max(1, (deadline - System.nanoTime()) / 1_000_000L);
    }

    static boolean passed(long deadline) {
        return deadline != Long.MAX_VALUE && deadline - System.nanoTime() <= 0;
    }

    /** Closing: skips a message that arrived and that nobody will receive (its header was read). */
    void dropWhileClosing(ReceiveConnection c) throws IOException {
        droppedWhileClosing.incrementAndGet();
        LOG.debug("{}: dropping a message from {} that arrived while closing", this, c.origin);
        c.endMessage();
    }

    /** Closing: finishes a message made live that nobody will receive any more. */
    void dropWhileClosing(IncomingMessage m) {
        droppedWhileClosing.incrementAndGet();
        LOG.debug("{}: dropping a message from {} that arrived while closing", this, m.origin());
        try {
            finishMessage(m, null);
        } catch (IOException e) {
            // connection lost; already handled
        }
    }

    boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }
    // ------------------------------------------------------------------ queries

    @Override
    public SendPortIdentifier[] connectedTo() {
        synchronized (lock) {
            SendPortIdentifier[] result = new SendPortIdentifier[connections.size()];
            for (int i = 0; i < result.length; i++) {
                result[i] = connections.get(i).origin;
            }
            return result;
        }
    }

    @Override
    public SendPortIdentifier[] lostConnections() {
        checkDowncalls("lostConnections()");
        synchronized (lock) {
            SendPortIdentifier[] result = lostConnections.toArray(new SendPortIdentifier[0]);
            lostConnections.clear();
            return result;
        }
    }

    @Override
    public SendPortIdentifier[] newConnections() {
        checkDowncalls("newConnections()");
        synchronized (lock) {
            SendPortIdentifier[] result = newConnections.toArray(new SendPortIdentifier[0]);
            newConnections.clear();
            return result;
        }
    }

    private void checkDowncalls(String what) {
        if (!downcalls) {
            throw new IbisConfigurationException(this + ": " + what + " needs " + PortType.CONNECTION_DOWNCALLS
                    + " in the port type");
        }
    }

    // ------------------------------------------------------------------ management

    long messagesReceived() {
        synchronized (lock) {
            return messagesReceived;
        }
    }

    long bytesReceived() {
        synchronized (lock) {
            return bytesReceived;
        }
    }

    @Override
    public Map<String, String> managementProperties() {
        Map<String, String> m = new LinkedHashMap<>();
        int connected;
        long messages;
        long bytes;
        synchronized (lock) {
            connected = connections.size();
            messages = messagesReceived;
            bytes = bytesReceived;
        }
        m.put("messages", Long.toString(messages));
        m.put("bytes", Long.toString(bytes));
        m.put("connections", Integer.toString(connected));
        // The same counters under their IPL 2.x names.
        m.put("Messages", Long.toString(messages));
        m.put("MessageBytes", Long.toString(bytes));
        m.put("Bytes", Long.toString(bytes));
        m.put("Connections", Integer.toString(connected));
        return m;
    }

    @Override
    public String getManagementProperty(String key) throws NoSuchPropertyException {
        return ReadOnlyManagement.get(managementProperties(), key);
    }

    @Override
    public void setManagementProperties(Map<String, String> properties) throws NoSuchPropertyException {
        for (String key : properties.keySet()) {
            ReadOnlyManagement.set(managementProperties(), key);
        }
    }

    @Override
    public void setManagementProperty(String key, String value) throws NoSuchPropertyException {
        ReadOnlyManagement.set(managementProperties(), key);
    }

    @Override
    public void printManagementProperties(PrintStream stream) {
        ReadOnlyManagement.print(managementProperties(), stream);
    }

    @Override
    public String toString() {
        return "receive port '" + name + "' of " + identifier.ibisIdentifier();
    }
}
