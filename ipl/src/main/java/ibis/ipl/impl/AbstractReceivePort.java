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
import java.util.ArrayDeque;
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
 * <ul>
 * <li><b>Upcall ports</b>: each connection has a reader on a pooled thread (one per connection,
 * not one per message). It reads the next message header, queues for the port's message slot,
 * runs the upcall and continues with the next message, polling briefly for it first
 * ({@link ImplPropertyTable#UPCALL_SPIN_MICROS}, {@link SpinWait}). If the upcall calls
 * {@code finish()}, the slot is released at once and the connection is released to be read on by
 * another pooled thread, so the next message can be delivered while the first upcall still runs:
 * at once when that message is buffered already, else only if the upcall is still running a
 * little later ({@link UpcallHandOffs}); usually the upcall returns first and its own thread takes
 * the connection back, which saves a thread wake-up per message.</li>
 * <li><b>Explicit ports with one sender</b> (port type without manytoone/manytomany): the
 * {@code receive()} caller reads the connection in its own thread. It polls the connection for a
 * short, configurable time ({@link ImplPropertyTable#RECEIVE_SPIN_MICROS}) before it blocks, the
 * "poll briefly, then block" idea of the Ibis paper (section 3.2.2): a thread that asks for a
 * message usually expects one soon, and catching it while polling saves the wake-up. Between
 * polls it yields the processor ({@link SpinWait}), so that a sender on the same processor is
 * not kept waiting by the poll.</li>
 * <li><b>Explicit ports with many senders</b>, over a transport that offers a
 * {@link SourceWaitSet}: the {@code receive()} caller waits for all connections itself, polling
 * them (round robin, so that no sender starves) for the same short time before it blocks in the
 * wait set, and reads the message of the connection it finds in its own thread: no thread
 * hand-off per message, as for one sender.</li>
 * <li><b>Explicit ports with many senders over other transports</b>: each connection has a
 * pooled reader thread that reads the message header and hands the message to a {@code receive()}
 * caller through the port's ready queue; the reader then parks until that message is finished.</li>
 * </ul>
 *
 * <h2>Concurrency</h2>
 * All state is guarded by {@code lock}. The port's <em>message slot</em> is {@code live} (the live
 * message, at most one) plus, for one-sender explicit ports, {@code reading} (a receive call is
 * reading the connection). Waiting readers park on their own thread and are woken with
 * {@link LockSupport#unpark} by whoever grants them the slot, so a finish wakes exactly one thread;
 * upcall readers get the slot in arrival order. Nothing on the message path allocates once warm:
 * messages, queues and connection objects are reused, and waiting uses monitors and parking.
 */
public abstract class AbstractReceivePort implements ReceivePort {

    private static final Logger log = LoggerFactory.getLogger(AbstractReceivePort.class);

    private enum Mode {
        /** Upcalls made by pooled connection readers (receive.autoupcalls). */
        UPCALLS,
        /** Upcalls made by the thread that polls (receive.pollupcalls without autoupcalls). */
        POLL_UPCALLS,
        /** Explicit receipt, at most one sender: the receive() caller reads. */
        ONE_SENDER,
        /** Explicit receipt, many senders: the receive() caller waits on all connections and reads. */
        MANY_SENDERS,
        /** Explicit receipt, many senders, no wait set from the transport: pooled readers hand messages to receive(). */
        HANDED_OFF
    }

    /** The Ibis instance this port belongs to. */
    protected final AbstractIbis ibis;

    private final PortType type;
    private final String name;
    private final ReceivePortId identifier;
    private final MessageUpcall upcall;
    private final ReceivePortConnectUpcall connectUpcall;
    private final Mode mode;
    private final boolean manySenders;
    private final boolean downcalls;
    private final boolean numbered;
    private final String serializationName;
    private final long upcallSpinMicros;
    /** Poll-then-block policy of explicit receive calls (one at a time on a one-sender port). */
    private final SpinWait receiveSpin;
    /** Many-sender explicit port: where the receive() caller blocks for all connections at once. */
    private final SourceWaitSet waitSet;

    private final Object lock = new Object();
    /** Connect upcalls are made one at a time per port. */
    private final Object connectUpcallLock = new Object();

    // Guarded by lock.
    private final List<ReceiveConnection> connections = new ArrayList<>();
    private final List<SendPortIdentifier> newConnections = new ArrayList<>();
    private final List<SendPortIdentifier> lostConnections = new ArrayList<>();
    private int admitting;
    private boolean connectionsEnabled;
    private boolean upcallsEnabled;
    private boolean closing;
    private boolean closed;
    /** The live message of this port (the message slot), or null. */
    private IncomingMessage live;
    /** One-sender and many-sender explicit ports: a receive/poll call is reading (the connections). */
    private boolean reading;
    /** Upcall port: connections whose next message waits for the slot, in arrival order. */
    private final ArrayDeque<ReceiveConnection> waitingForSlot = new ArrayDeque<>();
    /** Many-sender explicit port: connections whose next message is ready for a receive call. */
    private final ArrayDeque<ReceiveConnection> ready = new ArrayDeque<>();
    /** Size of {@code ready}, readable without the lock for spinning receivers. */
    private volatile int readyCount;

    // Statistics, written by the finishing thread (one at a time per port).
    private volatile long messagesReceived;
    private volatile long bytesReceived;

    /**
     * Creates the port; called by {@link AbstractIbis} after it checked the port type and the
     * upcalls against the Ibis's configuration.
     *
     * @param ibis the owning Ibis
     * @param type the port type (already validated)
     * @param name the port's name, unique within the Ibis
     * @param upcall where messages go, or null for explicit receipt
     * @param connectUpcall told about connections as they come and go (may be null)
     * @param properties port-specific properties (may be null; currently unused)
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
        SourceWaitSet set = null;
        if (upcall != null) {
            this.mode = type.hasCapability(PortType.RECEIVE_AUTO_UPCALLS) ? Mode.UPCALLS : Mode.POLL_UPCALLS;
        } else if (manySenders) {
            try {
                set = ibis.transport().newSourceWaitSet();
            } catch (IOException e) {
                log.warn("{}: the transport could not make a wait set ({}); reading each connection on a thread "
                        + "of its own", name, e.toString());
            }
            this.mode = set != null ? Mode.MANY_SENDERS : Mode.HANDED_OFF;
        } else {
            this.mode = Mode.ONE_SENDER;
        }
        this.waitSet = set;
        this.downcalls = type.hasCapability(PortType.CONNECTION_DOWNCALLS);
        this.numbered = type.hasCapability(PortType.COMMUNICATION_NUMBERED);
        this.serializationName = PortTypeRules.serializationName(type);
        this.upcallSpinMicros = ibis.upcallSpinMicros();
        this.receiveSpin = new SpinWait(ibis.receiveSpinMicros());
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
     * in the calling thread.
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
            } else if (isConnectedLocked(origin)) {
                status = Status.ALREADY_CONNECTED;
                text = origin + " is already connected to " + this;
            } else if (!manySenders && connections.size() + admitting > 0) {
                status = Status.NOT_ALLOWED;
                text = this + " has port type " + PortTypeRules.describe(type)
                        + ", which allows one sender per receive port (many-to-one needs "
                        + PortType.CONNECTION_MANY_TO_ONE + " or " + PortType.CONNECTION_MANY_TO_MANY + ")";
            } else {
                admitting++;
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
                    log.warn("{}: ReceivePortConnectUpcall.gotConnection threw; refusing {}", this, origin, t);
                    accepted = false;
                }
            }
        }
        ReceiveConnection connection = null;
        RuntimeException setupFailure = null;
        synchronized (lock) {
            admitting--;
            if (!accepted) {
                status = Status.REFUSED;
                text = this + " refused " + origin + " (ReceivePortConnectUpcall.gotConnection returned false)";
            } else if (closing) {
                status = Status.REFUSED;
                text = this + " is closing";
            } else {
                try {
                    connection = new ReceiveConnection(this, origin, ends, request.byteOrder(), ibis.bufferSize(),
                            serializationName, numbered);
                    connections.add(connection);
                    if (downcalls) {
                        newConnections.add(origin);
                    }
                    lock.notifyAll();
                    if (waitSet != null) {
                        waitSet.wakeup(); // a receive() blocked in it watches the new connection from now on
                    }
                } catch (RuntimeException e) {
                    setupFailure = e;
                    status = Status.REFUSED;
                    text = this + " could not set up the connection: " + e;
                }
            }
        }
        if (setupFailure != null) {
            log.warn("{}: setting up the connection from {} failed", this, origin, setupFailure);
        }
        if (status != null) {
            reject(ends, origin, status, text);
            return;
        }
        try {
            ConnectionHandshake.writeReply(ends.sink(), new Reply(Status.ACCEPTED, ByteOrder.nativeOrder(), ""));
        } catch (IOException e) {
            connectionEnded(connection, e);
            return;
        }
        log.debug("{}: accepted {}", this, connection);
        if (mode == Mode.UPCALLS || mode == Mode.HANDED_OFF) {
            runReader(connection);
        }
    }

    private void reject(ConnectionEnds ends, SendPortId origin, Status status, String text) {
        log.debug("{}: answering {} to {}: {}", this, status, origin, text);
        try {
            ConnectionHandshake.writeReply(ends.sink(), new Reply(status, ByteOrder.nativeOrder(), text));
        } catch (IOException e) {
            log.debug("{}: could not send the {} answer to {}: {}", this, status, origin, e.toString());
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
     * upcall's thread took the connection back first.
     */
    void continueReading(ReceiveConnection c) {
        synchronized (lock) {
            if (!c.handOffPending) {
                return;
            }
            c.handOffPending = false;
        }
        upcallReader(c);
    }

    /** The reader loop of one connection on a pooled thread (upcall and many-sender ports). */
    void runReader(ReceiveConnection c) {
        if (mode == Mode.UPCALLS) {
            upcallReader(c);
        } else {
            handOffReader(c);
        }
    }

    private void upcallReader(ReceiveConnection c) {
        IncomingMessage m = c.message;
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
                        awaitSpinning(c, c.upcallSpin);
                    } finally {
                        ibis.endUpcallSpin();
                    }
                }
                afterUpcall = true;
                kind = c.readHeader();
            } catch (IOException | RuntimeException e) {
                connectionEnded(c, e);
                return;
            }
            if (kind == ReceiveConnection.CLOSED) {
                connectionEnded(c, null);
                return;
            }
            long delivery = awaitSlot(c);
            if (delivery < 0) {
                return;
            }
            Throwable failure = null;
            try {
                upcall.upcall(m);
            } catch (Throwable t) {
                failure = t;
            }
            boolean finishHere = false;
            synchronized (lock) {
                // The message object is reused: if finish() was called during the upcall, another
                // reader may already be delivering the connection's next message in it.
                if (m.delivery == delivery) {
                    m.upcallThread = null;
                    finishHere = m.isLive();
                    if (finishHere) {
                        m.setLive(false); // claimed: nobody else may finish it now
                    }
                }
            }
            if (failure != null) {
                logUpcallFailure(c, failure);
            }
            if (!finishHere) {
                // finish() was called during the upcall and handed the connection to a pooled
                // thread. If that thread has not started reading yet, take the connection back:
                // continuing here saves a thread wake-up on the critical path of request/reply.
                synchronized (lock) {
                    if (!c.handOffPending) {
                        return; // the other thread reads on
                    }
                    c.handOffPending = false;
                }
                continue;
            }
            try {
                completeFinish(m, false);
            } catch (IOException e) {
                return; // the connection is gone (already reported)
            }
        }
    }

    /**
     * Queues the connection for the port's message slot and parks until it is granted. Returns
     * the delivery number of the granted message, or -1 when the connection or port was closed
     * meanwhile (the message is dropped).
     */
    private long awaitSlot(ReceiveConnection c) {
        synchronized (lock) {
            if (c.removed || closed) {
                return -1;
            }
            c.readerThread = Thread.currentThread();
            waitingForSlot.addLast(c);
            grantSlotLocked();
        }
        while (true) {
            synchronized (lock) {
                if (live == c.message) {
                    return c.message.delivery;
                }
                if (c.removed || closed) {
                    waitingForSlot.remove(c);
                    return -1;
                }
            }
            LockSupport.park(this);
            Thread.interrupted(); // pooled threads are not interrupted for us; never spin on a stale flag
        }
    }

    /** Upcall ports: gives the free slot to the first waiting connection. */
    private void grantSlotLocked() {
        if (live != null || !upcallsEnabled || closed) {
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
        live = m;
        if (next.readerThread != Thread.currentThread()) {
            LockSupport.unpark(next.readerThread); // (a reader granting itself the slot does not park)
        }
    }

    private void handOffReader(ReceiveConnection c) {
        while (true) {
            int kind;
            try {
                kind = c.readHeader();
            } catch (IOException | RuntimeException e) {
                connectionEnded(c, e);
                return;
            }
            if (kind == ReceiveConnection.CLOSED) {
                connectionEnded(c, null);
                return;
            }
            synchronized (lock) {
                if (c.removed || closed) {
                    return;
                }
                c.readerThread = Thread.currentThread();
                c.queued = true;
                c.released = false;
                ready.addLast(c);
                readyCount = ready.size();
                lock.notifyAll(); // receive() callers wait on the lock
            }
            // Park until a receive() caller took the message and finished it.
            while (true) {
                synchronized (lock) {
                    if (c.removed || closed) {
                        return;
                    }
                    if (c.released) {
                        break;
                    }
                }
                LockSupport.park(this);
                Thread.interrupted();
            }
        }
    }

    // ------------------------------------------------------------------ poll upcalls

    /** Reused snapshot of the connections for polling (guarded by lock). */
    private ReceiveConnection[] pollSnapshot = new ReceiveConnection[4];

    /**
     * Poll-upcall ports: delivers the messages that have arrived to the upcall, in the calling
     * thread, at most one per connection. Other ports: does nothing.
     *
     * @return the number of upcalls made
     */
    int pollUpcalls() {
        if (mode != Mode.POLL_UPCALLS) {
            return 0;
        }
        ReceiveConnection[] snapshot;
        int n;
        synchronized (lock) {
            if (closed || closing || !upcallsEnabled) {
                return 0;
            }
            n = connections.size();
            if (pollSnapshot.length < n) {
                pollSnapshot = new ReceiveConnection[Math.max(n, pollSnapshot.length * 2)];
            }
            snapshot = connections.toArray(pollSnapshot);
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
        synchronized (lock) {
            if (c.removed || c.busy || live != null || !upcallsEnabled || closed || (closing && !whileClosing)) {
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
                    connectionEnded(c, null);
                    return false;
                }
            }
            IncomingMessage m = c.message;
            long delivery;
            synchronized (lock) {
                if (live != null || !upcallsEnabled || closed) {
                    c.headerReady = true; // another poller holds the slot: keep it for the next poll
                    return false;
                }
                delivery = ++m.delivery;
                m.upcallThread = Thread.currentThread();
                m.setLive(true);
                live = m;
            }
            try {
                upcall.upcall(m);
            } catch (Throwable t) {
                logUpcallFailure(c, t);
            }
            boolean finishHere = false;
            synchronized (lock) {
                if (m.delivery == delivery) {
                    m.upcallThread = null;
                    finishHere = m.isLive();
                    if (finishHere) {
                        m.setLive(false);
                    }
                }
            }
            if (finishHere) {
                completeFinish(m, false);
            }
            return true;
        } catch (IOException | RuntimeException e) {
            connectionEnded(c, e);
            return false;
        } finally {
            synchronized (lock) {
                c.busy = false;
            }
        }
    }

    private void logUpcallFailure(ReceiveConnection c, Throwable failure) {
        if (failure instanceof IOException || failure instanceof ClassNotFoundException) {
            log.info("{}: upcall for a message from {} failed: {}", this, c.origin, failure.toString());
        } else {
            log.warn("{}: upcall for a message from {} threw", this, c.origin, failure);
        }
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
        if (mode != Mode.ONE_SENDER && mode != Mode.POLL_UPCALLS && mode != Mode.MANY_SENDERS) {
            return;
        }
        boolean portWide = mode != Mode.POLL_UPCALLS; // explicit ports: one reading flag for all connections
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
                    lock.notifyAll();
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
        if (mode == Mode.UPCALLS || mode == Mode.POLL_UPCALLS) {
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
        return receiveIn(deadline, false);
    }

    private ReadMessage receiveIn(long deadline, boolean poll) throws IOException {
        return switch (mode) {
            case ONE_SENDER -> receiveDirect(deadline, poll);
            case MANY_SENDERS -> receiveAny(deadline, poll);
            default -> receiveHandedOff(deadline, poll);
        };
    }

    @Override
    public ReadMessage poll() throws IOException {
        if (!type.hasCapability(PortType.RECEIVE_POLL) && !type.hasCapability(PortType.RECEIVE_POLL_UPCALLS)) {
            throw new IbisConfigurationException(this + ": poll() needs " + PortType.RECEIVE_POLL + " or "
                    + PortType.RECEIVE_POLL_UPCALLS + " in the port type");
        }
        if (mode == Mode.UPCALLS) {
            return null; // upcalls are delivered by the connection readers without polling
        }
        if (mode == Mode.POLL_UPCALLS) {
            pollUpcalls();
            return null;
        }
        return receiveIn(0, true);
    }

    private long millisLeft(long deadline, String what) throws ReceiveTimedOutException {
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
    private IncomingMessage deliver(ReceiveConnection c) {
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
    private boolean claimReadingLocked(long deadline, boolean poll) throws IOException {
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

    /** Receipt on a one-sender port: the caller reads the connection itself. */
    private ReadMessage receiveDirect(long deadline, boolean poll) throws IOException {
        while (true) {
            ReceiveConnection c;
            boolean headerReady;
            synchronized (lock) {
                if (!claimReadingLocked(deadline, poll)) {
                    return null;
                }
                c = connections.get(0);
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
                    connectionEnded(c, null);
                    continue; // the sender left regularly; wait for the next one
                }
                delivered = true;
                return deliver(c);
            } catch (ReceiveTimedOutException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                if (awaiting && e instanceof InterruptedIOException interrupted) {
                    // Interrupted before the next message started: nothing was consumed, so the
                    // connection stays; the interrupt is the caller's (its status stays set).
                    throw interrupted;
                }
                boolean byPort;
                synchronized (lock) {
                    byPort = c.closedByPort;
                }
                connectionEnded(c, e);
                throw new ConnectionClosedException(byPort ? this + " was closed while receiving"
                        : this + " lost its connection from " + c.origin + ": " + e, e);
            } finally {
                if (!delivered) {
                    synchronized (lock) {
                        reading = false;
                        lock.notifyAll();
                    }
                }
            }
        }
    }

    /**
     * Waits until the next message of a one-sender connection starts: polls for the spin time,
     * then blocks (until the deadline).
     *
     * @return false when polling found nothing
     */
    private boolean awaitDirect(ReceiveConnection c, long deadline, boolean poll) throws IOException {
        if (poll) {
            return c.in.awaitMessage(-1);
        }
        if (awaitSpinning(c, receiveSpin)) {
            return true;
        }
        long left = millisLeft(deadline, "waiting for data");
        if (!c.in.awaitMessage(left)) {
            throw new ReceiveTimedOutException(this + ": no message arrived in time");
        }
        return true;
    }

    /**
     * Polls a connection briefly for the start of its next message ({@link SpinWait}: poll
     * briefly, then block; yielding the processor between polls).
     *
     * @return true when the message started (or the stream ended); false when the caller should block
     */
    private static boolean awaitSpinning(ReceiveConnection c, SpinWait spin) throws IOException {
        if (c.messageBuffered()) {
            return true; // read ahead already: no system call needed
        }
        if (spin.start()) {
            while (spin.next()) {
                if (c.in.awaitMessage(-1)) {
                    spin.succeeded();
                    return true;
                }
            }
        }
        return false;
    }

    /** Receipt on a many-sender port: take a message that a connection reader has made ready. */
    private ReadMessage receiveHandedOff(long deadline, boolean poll) throws IOException {
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
        synchronized (lock) {
            while (true) {
                if (closed || closing) {
                    throw new ConnectionClosedException(this + " is closed");
                }
                if (live == null && !ready.isEmpty()) {
                    break;
                }
                if (poll) {
                    return null;
                }
                waitLocked(millisLeft(deadline, "waiting for a message"));
            }
            ReceiveConnection c = ready.pollFirst();
            readyCount = ready.size();
            c.queued = false;
            c.message.setLive(true);
            live = c.message;
            return c.message;
        }
    }

    /** Many-sender port: the connections as the reading receive call last saw them (guarded by {@code reading}). */
    private ReceiveConnection[] readSnapshot = new ReceiveConnection[4];
    /** Many-sender port: connections whose sources are in the wait set (guarded by {@code reading}). */
    private final List<ReceiveConnection> watched = new ArrayList<>();
    /** Many-sender port: where the next search for a message starts, so that no sender starves. */
    private int nextConnection;

    /**
     * Receipt on a many-sender port over a transport with a {@link SourceWaitSet}: the caller
     * looks at every connection itself (what is buffered, then one poll of each), polls them all
     * briefly ({@link SpinWait}), then blocks in the wait set, and reads the header of the message
     * it found in its own thread. A connection that breaks or closes is removed and the call
     * waits on for the others, as with reader threads.
     */
    private ReadMessage receiveAny(long deadline, boolean poll) throws IOException {
        while (true) {
            ReceiveConnection[] snapshot;
            int n;
            ReceiveConnection c = null;
            synchronized (lock) {
                if (!claimReadingLocked(deadline, poll)) {
                    return null;
                }
                n = snapshotLocked();
                snapshot = readSnapshot;
                for (int i = 0; i < n; i++) {
                    if (snapshot[i].headerReady) { // read by the idle check
                        snapshot[i].headerReady = false;
                        return deliver(snapshot[i]);
                    }
                }
            }
            boolean delivered = false;
            boolean awaiting = true; // nothing consumed yet
            try {
                c = findMessage(snapshot, n, deadline, poll);
                if (c == null) {
                    if (poll) {
                        return null;
                    }
                    continue; // woken without a message: look at the connections again
                }
                awaiting = false;
                if (c.readHeader() == ReceiveConnection.CLOSED) {
                    connectionEnded(c, null);
                    continue; // that sender left regularly; wait for the others
                }
                delivered = true;
                return deliver(c);
            } catch (ReceiveTimedOutException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                if (awaiting && e instanceof InterruptedIOException interrupted) {
                    throw interrupted; // nothing was consumed: the connections stay; the interrupt is the caller's
                }
                if (c == null) {
                    // The wait set failed: closed with the port, or the transport broke.
                    synchronized (lock) {
                        if (closed || closing) {
                            throw new ConnectionClosedException(this + " was closed while receiving", e);
                        }
                    }
                    throw e instanceof IOException io ? io : new IOException(e);
                }
                connectionEnded(c, e); // that sender's connection broke; wait for the others
            } finally {
                if (!delivered) {
                    synchronized (lock) {
                        reading = false;
                        lock.notifyAll();
                    }
                }
            }
        }
    }

    /**
     * Copies the connections into {@code readSnapshot} and stops watching the sources of those
     * that ended; called by the reading thread with the lock held.
     *
     * @return the number of connections
     */
    private int snapshotLocked() {
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
     * Finds a connection whose next message (or end) has arrived: first among what the
     * connections buffered, then by polling each once, then (unless {@code poll}) polling all for
     * the spin time, then blocking in the wait set until the deadline.
     *
     * @return the connection, or null when polling found nothing or a blocking wait was woken
     *         without one (a new connection, a close, a spurious wake-up)
     */
    private ReceiveConnection findMessage(ReceiveConnection[] snapshot, int n, long deadline, boolean poll)
            throws IOException {
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
        if (!poll && receiveSpin.start()) {
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
        if (!poll) {
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
            waitSet.await(millisLeft(deadline, "waiting for a message"));
        }
        // After a wake-up (and for poll()): a connection's end counts too.
        for (int i = 0; i < n; i++) {
            int k = (start + i) % n;
            if (arrived(snapshot, k, true)) {
                return found(snapshot, k);
            }
        }
        return null;
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
        connectionEnded(snapshot[k], cause);
        snapshot[k] = null;
    }

    private ReceiveConnection found(ReceiveConnection[] snapshot, int k) {
        nextConnection = k + 1;
        return snapshot[k];
    }

    private void waitLocked(long millis) throws InterruptedIOException {
        try {
            lock.wait(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting on " + this);
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
            inUpcall = m.upcallThread != null && mode == Mode.UPCALLS;
        }
        if (abortCause != null) {
            log.debug("{}: message from {} finished after an error: {}", this, m.origin(), abortCause.toString());
        }
        long bytes = completeFinish(m, inUpcall);
        return bytes;
    }

    /**
     * Skips the rest of a claimed message, releases the slot, and lets the connection's reading go
     * on: on another pooled thread when finish was called inside an upcall ({@code handOff}), by
     * unparking the connection's reader on a many-sender port, or by the next receive call.
     */
    private long completeFinish(IncomingMessage m, boolean handOff) throws IOException {
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
        messagesReceived++;
        bytesReceived += bytes;
        synchronized (lock) {
            if (live == m) {
                live = null;
            }
            if (mode == Mode.UPCALLS) {
                grantSlotLocked();
            } else {
                c.released = true; // (many-sender port: its reader may read on now)
                if (c.readerThread != null) {
                    LockSupport.unpark(c.readerThread);
                }
                lock.notifyAll();
            }
        }
        if (failure != null) {
            connectionEnded(c, failure);
            throw new ConnectionClosedException(this + " lost its connection from " + c.origin + ": " + failure,
                    failure);
        }
        if (handOff) {
            // The next message may be delivered while this upcall runs on. When it is here
            // already, a pooled thread reads it now; otherwise the hand-off is deferred (see
            // UpcallHandOffs): usually the upcall returns first and its thread reads on, which
            // saves a thread wake-up per message.
            boolean nextArrived = c.messageBuffered();
            synchronized (lock) {
                c.handOffPending = true;
            }
            if (nextArrived) {
                ibis.execute(c.reader);
            } else {
                ibis.upcallHandOffs().handOff(c);
            }
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
        boolean report;
        synchronized (lock) {
            if (c.removed) {
                return;
            }
            c.removed = true;
            connections.remove(c);
            if (c.queued) {
                c.queued = false;
                ready.remove(c);
                readyCount = ready.size();
            }
            waitingForSlot.remove(c);
            report = !c.closedByPort;
            if (report && downcalls) {
                lostConnections.add(c.origin); // broken or disconnected: both count (see ReceivePort)
            }
            lock.notifyAll();
            if (c.readerThread != null) {
                LockSupport.unpark(c.readerThread);
            }
        }
        c.ends.closeQuietly();
        if (!report) {
            log.debug("{}: closed {}", this, c);
            return;
        }
        if (cause == null) {
            log.debug("{}: {} disconnected", this, c);
        } else {
            log.info("{}: lost {}: {}", this, c, cause.toString());
        }
        if (connectUpcall != null) {
            synchronized (connectUpcallLock) {
                try {
                    connectUpcall.lostConnection(this, c.origin, cause);
                } catch (Throwable t) {
                    log.warn("{}: ReceivePortConnectUpcall.lostConnection threw", this, t);
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
            grantSlotLocked();
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
        close(ibis.receivePortCloseTimeout());
    }

    @Override
    public void close(long timeoutMillis) throws IOException {
        synchronized (lock) {
            if (closing) {
                return;
            }
            closing = true;
            connectionsEnabled = false;
            lock.notifyAll(); // blocked receive calls fail now
        }
        if (waitSet != null) {
            waitSet.wakeup(); // (a receive call blocked there fails now too)
        }
        try {
            if (timeoutMillis >= 0) {
                long deadline = timeoutMillis == 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutMillis * 1_000_000L;
                if (mode == Mode.ONE_SENDER) {
                    drainDirect(deadline);
                } else if (mode == Mode.MANY_SENDERS) {
                    drainAny(deadline);
                } else if (mode == Mode.POLL_UPCALLS) {
                    drainPolled(deadline);
                } else {
                    awaitDisconnects(deadline);
                }
            }
        } finally {
            List<ReceiveConnection> broken;
            synchronized (lock) {
                closed = true;
                broken = new ArrayList<>(connections);
                for (ReceiveConnection c : broken) {
                    c.closedByPort = true;
                }
                lock.notifyAll();
                for (ReceiveConnection c : waitingForSlot) {
                    LockSupport.unpark(c.readerThread);
                }
            }
            for (ReceiveConnection c : broken) {
                if (timeoutMillis >= 0) {
                    log.info("{}: closing while {} is still connected; breaking the connection", this, c.origin);
                }
                connectionEnded(c, null);
            }
            if (waitSet != null) {
                try {
                    waitSet.close();
                } catch (IOException e) {
                    log.debug("{}: closing the wait set failed: {}", this, e.toString());
                }
            }
            ibis.receivePortClosed(this);
            log.debug("{}: closed", this);
        }
    }

    private static long millisUntil(long deadline) {
        if (deadline == Long.MAX_VALUE) {
            return 0;
        }
        return Math.max(1, (deadline - System.nanoTime()) / 1_000_000L);
    }

    private static boolean passed(long deadline) {
        return deadline != Long.MAX_VALUE && deadline - System.nanoTime() <= 0;
    }

    /**
     * Closing a one-sender explicit port: nobody else reads the connection, so read it here until
     * the sender disconnects; messages nobody received are dropped.
     */
    private void drainDirect(long deadline) throws InterruptedIOException {
        while (true) {
            ReceiveConnection c;
            boolean headerReady;
            synchronized (lock) {
                while (!connections.isEmpty() && (live != null || reading)) {
                    if (passed(deadline)) {
                        return;
                    }
                    waitLocked(millisUntil(deadline));
                }
                if (connections.isEmpty() || passed(deadline)) {
                    return;
                }
                reading = true;
                c = connections.get(0);
                headerReady = c.headerReady;
                c.headerReady = false;
            }
            try {
                if (headerReady) {
                    log.debug("{}: dropping a message from {} that arrived while closing", this, c.origin);
                    c.endMessage();
                    continue;
                }
                if (!c.in.awaitMessage(millisUntil(deadline))) {
                    return;
                }
                if (c.readHeader() == ReceiveConnection.CLOSED) {
                    connectionEnded(c, null);
                } else {
                    log.debug("{}: dropping a message from {} that arrived while closing", this, c.origin);
                    c.endMessage();
                }
            } catch (IOException | RuntimeException e) {
                connectionEnded(c, e);
            } finally {
                synchronized (lock) {
                    reading = false;
                    lock.notifyAll();
                }
            }
        }
    }

    /**
     * Closing a many-sender port with a wait set: nobody else reads its connections, so read them
     * here until the senders disconnected; messages nobody received are dropped.
     */
    private void drainAny(long deadline) throws InterruptedIOException {
        while (true) {
            ReceiveConnection[] snapshot;
            int n;
            ReceiveConnection c = null;
            synchronized (lock) {
                while (!connections.isEmpty() && (live != null || reading)) {
                    if (passed(deadline)) {
                        return;
                    }
                    waitLocked(millisUntil(deadline));
                }
                if (connections.isEmpty() || passed(deadline)) {
                    return;
                }
                reading = true;
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
                    c = findMessage(snapshot, n, deadline == Long.MAX_VALUE ? 0 : deadline, false);
                }
                if (c == null) {
                    continue;
                }
                if (!headerRead && c.readHeader() == ReceiveConnection.CLOSED) {
                    connectionEnded(c, null);
                } else {
                    log.debug("{}: dropping a message from {} that arrived while closing", this, c.origin);
                    c.endMessage();
                }
            } catch (ReceiveTimedOutException e) {
                return;
            } catch (InterruptedIOException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                if (c == null) {
                    log.debug("{}: waiting for the senders to disconnect failed: {}", this, e.toString());
                    return;
                }
                connectionEnded(c, e);
            } finally {
                synchronized (lock) {
                    reading = false;
                    lock.notifyAll();
                }
            }
        }
    }

    /**
     * Closing a poll-upcall port: nobody else reads its connections, so deliver what arrives to the
     * upcall here (briefly waiting on each connection in turn) until the senders disconnected.
     */
    private void drainPolled(long deadline) throws InterruptedIOException {
        while (true) {
            ReceiveConnection[] current;
            synchronized (lock) {
                if (connections.isEmpty() || passed(deadline)) {
                    return;
                }
                current = connections.toArray(new ReceiveConnection[0]);
            }
            boolean progress = false;
            for (ReceiveConnection c : current) {
                progress |= pollOne(c, true);
            }
            if (!progress) {
                synchronized (lock) {
                    if (!upcallsEnabled && !connections.isEmpty() && !passed(deadline)) {
                        waitLocked(Math.min(100, millisUntil(deadline))); // upcalls off: nothing to do but wait
                    }
                }
            }
        }
    }

    /**
     * Closing a port with reader threads: wait until the senders disconnected. Messages handed to
     * the ready queue that nobody will receive any more are dropped, so their readers can go on to
     * the CLOSE message.
     */
    private void awaitDisconnects(long deadline) throws IOException {
        while (true) {
            IncomingMessage drop = null;
            synchronized (lock) {
                if (connections.isEmpty() || passed(deadline)) {
                    return;
                }
                if (live == null && !ready.isEmpty()) {
                    ReceiveConnection c = ready.pollFirst();
                    readyCount = ready.size();
                    c.queued = false;
                    c.message.setLive(true);
                    live = c.message;
                    drop = c.message;
                } else {
                    waitLocked(millisUntil(deadline));
                }
            }
            if (drop != null) {
                log.debug("{}: dropping a message from {} that arrived while closing", this, drop.origin());
                try {
                    finishMessage(drop, null);
                } catch (IOException e) {
                    // connection lost; already handled
                }
            }
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
        return messagesReceived;
    }

    long bytesReceived() {
        return bytesReceived;
    }

    @Override
    public Map<String, String> managementProperties() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("messages", Long.toString(messagesReceived));
        m.put("bytes", Long.toString(bytesReceived));
        synchronized (lock) {
            m.put("connections", Integer.toString(connections.size()));
        }
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
