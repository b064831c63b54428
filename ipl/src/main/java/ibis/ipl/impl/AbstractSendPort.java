package ibis.ipl.impl;

import ibis.io.BlockOutputStream;
import ibis.io.Serialization;
import ibis.io.SerializationOutput;
import ibis.ipl.AlreadyConnectedException;
import ibis.ipl.ConnectionClosedException;
import ibis.ipl.ConnectionFailedException;
import ibis.ipl.ConnectionRefusedException;
import ibis.ipl.ConnectionTimedOutException;
import ibis.ipl.ConnectionsFailedException;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.NoSuchPropertyException;
import ibis.ipl.PortMismatchException;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePortIdentifier;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortDisconnectUpcall;
import ibis.ipl.WriteMessage;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The send port of the implementation base: connection set-up (the handshake of
 * {@link ConnectionHandshake}), the message slot, multicast, numbering and failure reporting. A
 * network implementation subclasses it without adding anything (its transport does the network
 * part), or overrides the protected hooks.
 *
 * <h2>Data path</h2>
 * One {@link BlockOutputStream} per port writes into a {@link MulticastSink} that hands every
 * block to each connection. On top of it sits one serialization stream, re-created (and announced
 * with {@link MessageHeader#NEW_STREAM}) on the first message after the set of connections changed,
 * so a new receiver always starts with a fresh stream and all receivers stay in step.
 *
 * <h2>Concurrency</h2>
 * The <em>message slot</em> (field {@code slotTaken}) is held from
 * {@code newMessage()} to {@code finish()}, and briefly by connect, disconnect and close to change
 * the connection set; so the connection set only changes between messages, and everything the
 * slot holder touches ({@code blockOut}, {@code serializationOut}, the sink) needs no further
 * locking. The hot path (newMessage, the writes, finish) allocates nothing once warm: the message
 * object, the sink and the block buffers are reused, and waiting uses the monitor of {@code lock}.
 * An uncontended slot is taken with one compare-and-set and given back with one volatile write,
 * without the monitor (two monitor enters and exits less per message); a thread that finds it taken
 * waits under {@code lock}, counted in {@code slotWaiters}, and the thread that gives the slot back
 * reads that count after its write, so one of the two always sees the other.
 */
public abstract class AbstractSendPort implements SendPort {

    private static final Logger LOG = LoggerFactory.getLogger(AbstractSendPort.class);

    private static final SendConnection[] NO_CONNECTIONS = new SendConnection[0];

    private static final VarHandle SLOT;
    private static final VarHandle MESSAGES_SENT;
    private static final VarHandle BYTES_SENT;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SLOT = l.findVarHandle(AbstractSendPort.class, "slotTaken", boolean.class);
            MESSAGES_SENT = l.findVarHandle(AbstractSendPort.class, "messagesSent", long.class);
            BYTES_SENT = l.findVarHandle(AbstractSendPort.class, "bytesSent", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The Ibis instance this port belongs to. */
    protected final AbstractIbis ibis;

    private final PortType type;
    private final String name;
    private final SendPortId identifier;
    private final SendPortDisconnectUpcall disconnectUpcall;
    private final boolean numbered;
    private final boolean manyReceivers;
    private final boolean downcalls;
    private final String serializationName;
    private final byte[] typeBytes;

    private final Object lock = new Object();
    /** Taken by compare-and-set ({@link #SLOT}), given back by a volatile write. */
    private volatile boolean slotTaken;
    /** Threads waiting in acquireSlot; changed under lock, read without it by releaseSlot. */
    private volatile int slotWaiters;
    /** Written under lock; read without it by the slot's fast path. */
    private volatile boolean closed;
    /** Connects in progress (not yet in connections); guarded by lock. */
    private int connectsInProgress;
    /** Receive ports lost since the last lostConnections(); guarded by lock. */
    private final List<ReceivePortIdentifier> lost = new ArrayList<>();

    /** Copy-on-write; replaced only by the slot holder, read by anybody. */
    private volatile SendConnection[] connections = NO_CONNECTIONS;

    // Fields below belong to the slot holder.
    private final MulticastSink sink = new MulticastSink();
    private final BlockOutputStream blockOut;
    private final OutgoingMessage message;
    private SerializationOutput serializationOut;
    private boolean streamChanged = true;
    private long nextSequenceNumber = ReadMessage.INITIAL_SEQNO;

    // Statistics, written by the slot holder only, opaque (no fence per message), read by anybody.
    private long messagesSent;
    private long bytesSent;

    /**
     * Creates the port; called by {@link AbstractIbis} after it checked the port type and the
     * upcall against the Ibis's configuration.
     *
     * @param ibis the owning Ibis
     * @param type the port type (already validated)
     * @param name the port's name, unique within the Ibis
     * @param disconnectUpcall told about lost connections (may be null)
     * @param properties port-specific properties (may be null; currently unused)
     */
    protected AbstractSendPort(AbstractIbis ibis, PortType type, String name, SendPortDisconnectUpcall disconnectUpcall,
            java.util.Properties properties) {
        this.ibis = ibis;
        this.type = type;
        this.name = name;
        this.identifier = new SendPortId(ibis.identifier(), name);
        this.disconnectUpcall = disconnectUpcall;
        this.numbered = type.hasCapability(PortType.COMMUNICATION_NUMBERED);
        this.manyReceivers = PortTypeRules.manyReceivers(type);
        this.downcalls = type.hasCapability(PortType.CONNECTION_DOWNCALLS);
        this.serializationName = PortTypeRules.serializationName(type);
        this.typeBytes = type.toBytes();
        this.blockOut = BlockOutputStream.create(sink, ibis.settings().bufferSize(), ByteOrder.nativeOrder(),
                ibis.settings().firstBlockSize());
        this.message = new OutgoingMessage(this);
    }

    @Override
    public PortType getPortType() {
        return type;
    }

    @Override
    public SendPortId identifier() {
        return identifier;
    }

    @Override
    public String name() {
        return name;
    }

    // ------------------------------------------------------------------ the message slot

    private void acquireSlot() throws IOException {
        if (!closed && SLOT.compareAndSet(this, false, true)) {
            if (!closed) {
                return;
            }
            releaseSlot(); // closed meanwhile (close() gives the slot back after closing)
        }
        synchronized (lock) {
            slotWaiters++;
            try {
                while (true) {
                    if (closed) {
                        throw new IOException(this + " is closed");
                    }
                    if (SLOT.compareAndSet(this, false, true)) {
                        return;
                    }
                    lock.wait();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for the message slot of " + this);
            } finally {
                slotWaiters--;
            }
        }
    }

    private void releaseSlot() {
        slotTaken = false;
        if (slotWaiters > 0) {
            synchronized (lock) {
                lock.notifyAll(); // a call into the JVM: not per message when nobody waits
            }
        }
    }

    @Override
    public WriteMessage newMessage() throws IOException {
        acquireSlot();
        boolean started = false;
        try {
            SendConnection[] to = connections;
            if (to.length == 0) {
                throw new IOException(this + " is not connected to any receive port");
            }
            sink.setTargets(to);
            long before = blockOut.bytesWritten();
            boolean fresh = streamChanged;
            blockOut.writeByte(MessageHeader.DATA);
            blockOut.writeByte((byte) (fresh ? MessageHeader.NEW_STREAM : 0));
            if (numbered) {
                blockOut.writeLong(nextSequenceNumber++);
            }
            if (fresh) {
                // Created inside the message: some serializations write a stream header at once.
                serializationOut = Serialization.createOutput(serializationName, blockOut);
                streamChanged = false;
            }
            message.start(serializationOut, before);
            started = true;
            return message;
        } finally {
            if (!started) {
                releaseSlot();
            }
        }
    }

    /** Bytes the block stream has written so far (for message sizes). */
    long streamBytesWritten() {
        return blockOut.bytesWritten();
    }

    /**
     * Called after a flush: throws when no connection of the live message is left, so a writer
     * streaming a long message learns early that nobody receives it.
     */
    void checkDeliverable() throws IOException {
        if (sink.failures() != 0 && sink.nobodyLeft()) {
            throw new ConnectionClosedException("every connection of " + this + " failed: "
                    + describeFailures(connections));
        }
    }

    /**
     * Ends the live message (also after a write error), releases the slot, and reports connections
     * that failed during the message.
     *
     * @param abortCause the caller's error for {@code finish(IOException)}, or null for {@code finish()}
     */
    long finishMessage(OutgoingMessage m, IOException abortCause) throws IOException {
        IOException streamFailure = null;
        try {
            serializationOut.endMessage();
        } catch (IOException | RuntimeException e) {
            streamFailure = e instanceof IOException ? (IOException) e : new IOException(e);
            streamChanged = true; // the serialization state is unknown: start afresh next time
        }
        try {
            blockOut.endMessage();
        } catch (IOException | RuntimeException e) {
            if (streamFailure == null) {
                streamFailure = e instanceof IOException ? (IOException) e : new IOException(e);
            }
            streamChanged = true;
        }
        if (abortCause != null) {
            streamChanged = true;
        }
        long bytes = blockOut.bytesWritten() - m.startBytes();
        MESSAGES_SENT.setOpaque(this, messagesSent + 1);
        BYTES_SENT.setOpaque(this, bytesSent + bytes);
        m.end();
        List<SendConnection> failed = sink.failures() == 0 ? null : dropFailedConnections();
        releaseSlot();
        if (failed != null) {
            reportLost(failed);
            ConnectionClosedException e = new ConnectionClosedException("message of " + this
                    + " could not be delivered to " + describeFailures(failed.toArray(NO_CONNECTIONS))
                    + (connections.length == 0 ? "; no connection is left" : "; the other receivers got it"));
            for (SendConnection c : failed) {
                e.addSuppressed(c.failure);
            }
            if (abortCause == null) {
                throw e;
            }
            LOG.debug("{}: message aborted by the caller ({}); {}", this, abortCause, e.getMessage());
        }
        if (streamFailure != null) {
            if (abortCause == null) {
                throw streamFailure;
            }
            LOG.debug("{}: ending an aborted message failed: {}", this, streamFailure.toString());
        }
        return bytes;
    }

    private static String describeFailures(SendConnection[] failed) {
        StringBuilder b = new StringBuilder();
        for (SendConnection c : failed) {
            if (c.failure == null) {
                continue;
            }
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(c.target).append(" (").append(c.failure).append(')');
        }
        return b.toString();
    }

    /** Removes the connections that failed during the message; the caller holds the slot. */
    private List<SendConnection> dropFailedConnections() {
        List<SendConnection> failed = new ArrayList<>();
        List<SendConnection> kept = new ArrayList<>();
        for (SendConnection c : connections) {
            (c.failure == null ? kept : failed).add(c);
        }
        sink.clearFailures();
        if (!failed.isEmpty()) {
            connections = kept.toArray(NO_CONNECTIONS);
            streamChanged = true;
            synchronized (lock) {
                if (downcalls) {
                    for (SendConnection c : failed) {
                        lost.add(c.target);
                    }
                }
            }
            for (SendConnection c : failed) {
                c.ends.closeQuietly();
                LOG.info("{}: lost {}: {}", this, c, c.failure.toString());
            }
        }
        return failed;
    }

    private void reportLost(List<SendConnection> failed) {
        if (disconnectUpcall == null) {
            return;
        }
        for (SendConnection c : failed) {
            try {
                disconnectUpcall.lostConnection(this, c.target, c.failure);
            } catch (Throwable t) {
                LOG.warn("{}: SendPortDisconnectUpcall.lostConnection threw", this, t);
            }
        }
    }

    // ------------------------------------------------------------------ connecting

    @Override
    public void connect(ReceivePortIdentifier receiver) throws ConnectionFailedException {
        connect(receiver, 0, true);
    }

    @Override
    public void connect(ReceivePortIdentifier receiver, long timeoutMillis, boolean fillTimeout)
            throws ConnectionFailedException {
        if (receiver == null) {
            throw new NullPointerException("receiver");
        }
        connectTo(toMember(receiver.ibisIdentifier(), receiver.name()), receiver.name(), timeoutMillis, fillTimeout);
    }

    @Override
    public ReceivePortIdentifier connect(IbisIdentifier ibisIdentifier, String receivePortName)
            throws ConnectionFailedException {
        return connect(ibisIdentifier, receivePortName, 0, true);
    }

    @Override
    public ReceivePortIdentifier connect(IbisIdentifier ibisIdentifier, String receivePortName, long timeoutMillis,
            boolean fillTimeout) throws ConnectionFailedException {
        if (receivePortName == null) {
            throw new NullPointerException("receivePortName");
        }
        if (ReceivePortId.isAnonymousName(receivePortName)) {
            throw new ConnectionFailedException(this + " cannot connect to '" + receivePortName + "' by name: it is an"
                    + " anonymous receive port, reached only through its ReceivePortIdentifier"
                    + " (connect(ReceivePortIdentifier), e.g. one the receiver sent in a message)", ibisIdentifier,
                    receivePortName);
        }
        return connectTo(toMember(ibisIdentifier, receivePortName), receivePortName, timeoutMillis, fillTimeout);
    }

    @Override
    public void connect(ReceivePortIdentifier[] receivePortIdentifiers) throws ConnectionsFailedException {
        connect(receivePortIdentifiers, 0, true);
    }

    @Override
    public void connect(ReceivePortIdentifier[] receivePortIdentifiers, long timeoutMillis, boolean fillTimeout)
            throws ConnectionsFailedException {
        Map<IbisIdentifier, List<String>> wanted = new LinkedHashMap<>();
        for (ReceivePortIdentifier r : receivePortIdentifiers) {
            if (r == null) {
                throw new NullPointerException("receivePortIdentifiers contains null");
            }
            wanted.computeIfAbsent(r.ibisIdentifier(), k -> new ArrayList<>()).add(r.name());
        }
        // Identifiers reach anonymous receive ports too (connect(ReceivePortIdentifier) does).
        connectAll(wanted, true, timeoutMillis, fillTimeout);
    }

    @Override
    public ReceivePortIdentifier[] connect(Map<IbisIdentifier, String> ports) throws ConnectionsFailedException {
        return connect(ports, 0, true);
    }

    @Override
    public ReceivePortIdentifier[] connect(Map<IbisIdentifier, String> ports, long timeoutMillis, boolean fillTimeout)
            throws ConnectionsFailedException {
        Map<IbisIdentifier, List<String>> wanted = new LinkedHashMap<>();
        for (Map.Entry<IbisIdentifier, String> e : ports.entrySet()) {
            wanted.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
        }
        return connectAll(wanted, false, timeoutMillis, fillTimeout);
    }

    /**
     * Connects to several ports one after the other, within one overall time limit.
     *
     * @param byIdentifier whether the names come from receive port identifiers (then anonymous
     *        ports may be among them) rather than from the caller's names
     */
    private ReceivePortIdentifier[] connectAll(Map<IbisIdentifier, List<String>> wanted, boolean byIdentifier,
            long timeoutMillis, boolean fillTimeout) throws ConnectionsFailedException {
        long deadline = timeoutMillis > 0 ? System.nanoTime() + timeoutMillis * 1_000_000L : 0;
        List<ReceivePortIdentifier> made = new ArrayList<>();
        ConnectionsFailedException failures = null;
        for (Map.Entry<IbisIdentifier, List<String>> e : wanted.entrySet()) {
            for (String portName : e.getValue()) {
                try {
                    long left = 0;
                    if (deadline != 0) {
                        left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000L);
                    }
                    made.add(byIdentifier
                            ? connectTo(toMember(e.getKey(), portName), portName, left, fillTimeout)
                            : connect(e.getKey(), portName, left, fillTimeout));
                } catch (ConnectionFailedException f) {
                    if (failures == null) {
                        failures = new ConnectionsFailedException("connecting " + this + " failed");
                    }
                    failures.add(f);
                }
            }
        }
        ReceivePortIdentifier[] result = made.toArray(new ReceivePortIdentifier[0]);
        if (failures != null) {
            failures.setObtainedConnections(result);
            throw failures;
        }
        return result;
    }

    private MemberIdentifier toMember(IbisIdentifier ibisIdentifier, String portName)
            throws ConnectionFailedException {
        if (ibisIdentifier instanceof MemberIdentifier) {
            return (MemberIdentifier) ibisIdentifier;
        }
        throw new ConnectionFailedException("cannot connect to " + ibisIdentifier
                + ": not an identifier of this implementation", ibisIdentifier, portName);
    }

    private ReceivePortIdentifier connectTo(MemberIdentifier member, String portName, long timeoutMillis,
            boolean fillTimeout) throws ConnectionFailedException {
        ReceivePortId target = new ReceivePortId(member, portName);
        synchronized (lock) {
            if (closed) {
                throw new ConnectionFailedException(this + " is closed", target);
            }
            for (SendConnection c : connections) {
                if (c.target.equals(target)) {
                    throw new AlreadyConnectedException(this + " is already connected to " + target, target);
                }
            }
            if (!manyReceivers && connections.length + connectsInProgress > 0) {
                throw new IbisConfigurationException(this + " has port type " + PortTypeRules.describe(type)
                        + ", which allows one receive port per send port (multicast needs "
                        + PortType.CONNECTION_ONE_TO_MANY + " or " + PortType.CONNECTION_MANY_TO_MANY + ")");
            }
            connectsInProgress++;
        }
        try {
            SendConnection connection = handshake(target, timeoutMillis, fillTimeout);
            try {
                acquireSlot();
            } catch (IOException e) {
                connection.ends.closeQuietly();
                throw new ConnectionFailedException(this + " was closed while connecting", target, e);
            }
            try {
                SendConnection[] old = connections;
                SendConnection[] now = java.util.Arrays.copyOf(old, old.length + 1);
                now[old.length] = connection;
                connections = now;
                streamChanged = true;
            } finally {
                releaseSlot();
            }
            LOG.debug("{}: connected to {}", this, connection);
            return target;
        } finally {
            synchronized (lock) {
                connectsInProgress--;
            }
        }
    }

    /**
     * Sets up one connection: the transport connection plus the handshake, retried as the
     * receiver's answers and the time-out allow (see impl-tcp/README.md, "Connecting").
     */
    private SendConnection handshake(ReceivePortId target, long timeoutMillis, boolean fillTimeout)
            throws ConnectionFailedException {
        boolean userTimeout = timeoutMillis > 0;
        long limit = userTimeout ? timeoutMillis : ibis.settings().connectTimeout();
        boolean retryRefusals = fillTimeout || !userTimeout;
        long start = System.nanoTime();
        long deadline = limit == 0 ? Long.MAX_VALUE : start + limit * 1_000_000L;
        long handshakeTimeout = ibis.settings().handshakeTimeout();
        ConnectionHandshake.Request request = new ConnectionHandshake.Request(ibis.identifier(), name, target.name(),
                typeBytes, ByteOrder.nativeOrder());
        long backoff = 5;
        String problem = "no attempt was made";
        Throwable cause = null;
        while (true) {
            long leftMillis = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : (deadline - System.nanoTime()) / 1_000_000L;
            if (leftMillis <= 0) {
                break;
            }
            long attemptMillis = Math.max(1, Math.min(leftMillis, handshakeTimeout));
            ConnectionEnds ends;
            try {
                ends = ibis.transport().connect(target.ibisIdentifier(), attemptMillis);
            } catch (SocketTimeoutException e) {
                problem = "the transport connection timed out";
                cause = e;
                if (!retryRefusals && !userTimeout) {
                    throw new ConnectionTimedOutException(this + " could not connect to " + target + ": " + problem,
                            target, e);
                }
                continue;
            } catch (ConnectException e) {
                problem = "nobody accepts connections at " + target.ibisIdentifier() + " (" + e.getMessage() + ")";
                cause = e;
                if (!retryRefusals) {
                    throw new ConnectionRefusedException(this + " could not connect to " + target + ": " + problem,
                            target, e);
                }
                backoff = pause(backoff, deadline, target);
                continue;
            } catch (IOException e) {
                problem = "the transport failed: " + e;
                cause = e;
                if (!retryRefusals) {
                    throw new ConnectionFailedException(this + " could not connect to " + target + ": " + problem,
                            target, e);
                }
                backoff = pause(backoff, deadline, target);
                continue;
            }
            ConnectionHandshake.Reply reply;
            try {
                ConnectionHandshake.writeRequest(ends.sink(), request);
                reply = ConnectionHandshake.readReply(ends.source(), attemptMillis);
            } catch (IOException e) {
                withdraw(ends);
                problem = "the handshake with " + ends.peerDescription() + " failed: " + e;
                cause = e;
                if (!retryRefusals) {
                    throw new ConnectionFailedException(this + " could not connect to " + target + ": " + problem,
                            target, e);
                }
                backoff = pause(backoff, deadline, target);
                continue;
            }
            String text = reply.text();
            switch (reply.status()) {
            case ACCEPTED:
                return new SendConnection(target, ends, reply.byteOrder());
            case TYPE_MISMATCH:
                ends.closeQuietly();
                throw new PortMismatchException(this + " cannot connect to " + target + ": " + text, target);
            case ALREADY_CONNECTED:
                // This port has no connection to the target (connectTo checked): the receiver
                // still holds an earlier one of ours that ended (a CLOSE it has not read yet, or an
                // attempt we withdrew after our handshake timed out). It notices soon: wait.
                ends.closeQuietly();
                problem = text + " (an earlier connection of this port that the receiver has not yet seen end)";
                cause = null;
                break;
            case NOT_ALLOWED:
                if (ibis.closedRecently(target)) {
                    // One sender per port, and the one it holds may be ours that just disconnected
                    // (its CLOSE not read yet, e.g. close() then a new send port's connect): wait.
                    ends.closeQuietly();
                    problem = text + " (a connection of this process disconnected from it just before; the"
                            + " receiver has not yet seen it end)";
                    cause = null;
                    break;
                }
                ends.closeQuietly();
                throw new ConnectionRefusedException(target + " refused " + this + ": " + text, target);
            case BAD_REQUEST:
            case DENIED:
                // The receiver's gotConnection said no: its answer, not a state that may pass, so
                // neither fillTimeout nor a connect without time-out asks again (IPL 2.x did not).
                ends.closeQuietly();
                throw new ConnectionRefusedException(target + " refused " + this + ": " + text, target);
            case NO_SUCH_PORT:
                // The receive port may not have been created yet: always worth waiting for.
                ends.closeQuietly();
                problem = text;
                cause = null;
                break;
            case DISABLED:
            case REFUSED:
            default:
                ends.closeQuietly();
                problem = text;
                cause = null;
                if (!retryRefusals) {
                    throw new ConnectionRefusedException(target + " refused " + this + ": " + text, target);
                }
                break;
            }
            backoff = pause(backoff, deadline, target);
        }
        long waited = (System.nanoTime() - start) / 1_000_000L;
        if (userTimeout) {
            throw new ConnectionTimedOutException(this + " could not connect to " + target + " within " + timeoutMillis
                    + " ms: " + problem, target, cause);
        }
        throw new ConnectionRefusedException(this + " could not connect to " + target + " in " + waited + " ms ("
                + ImplPropertyTable.CONNECT_TIMEOUT + "): " + problem, target, cause);
    }

    /**
     * Gives up a connection whose handshake failed or timed out. The receiver may have accepted it
     * already (its reply was late): a CLOSE message tells it that this sender leaves regularly, so
     * it sees an ordinary disconnect rather than a broken connection. Best effort.
     */
    private void withdraw(ConnectionEnds ends) {
        try {
            BlockOutputStream close = BlockOutputStream.create(ends.sink(), BlockOutputStream.MIN_BUFFER_SIZE,
                    ByteOrder.nativeOrder());
            close.writeByte(MessageHeader.CLOSE);
            close.endMessage();
        } catch (IOException | RuntimeException e) {
            LOG.debug("{}: no CLOSE after a failed handshake with {}: {}", this, ends.peerDescription(), e.toString());
        }
        ends.closeQuietly();
    }

    /** Sleeps before the next connection attempt (bounded by the deadline); returns the next pause. */
    private long pause(long backoff, long deadline, ReceivePortId target) throws ConnectionFailedException {
        long leftMillis = deadline == Long.MAX_VALUE ? backoff : (deadline - System.nanoTime()) / 1_000_000L;
        long sleep = Math.max(0, Math.min(backoff, leftMillis));
        if (sleep > 0) {
            try {
                Thread.sleep(sleep);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConnectionFailedException(this + ": interrupted while connecting to " + target, target, e);
            }
        }
        return Math.min(backoff * 2, 200);
    }

    // ------------------------------------------------------------------ disconnecting and closing

    @Override
    public void disconnect(ReceivePortIdentifier receiver) throws IOException {
        if (receiver == null) {
            throw new NullPointerException("receiver");
        }
        disconnect(receiver.ibisIdentifier(), receiver.name());
    }

    @Override
    public void disconnect(IbisIdentifier ibisIdentifier, String receivePortName) throws IOException {
        acquireSlot();
        try {
            SendConnection found = null;
            List<SendConnection> kept = new ArrayList<>();
            for (SendConnection c : connections) {
                if (found == null && c.target.name().equals(receivePortName)
                        && c.target.ibisIdentifier().equals(ibisIdentifier)) {
                    found = c;
                } else {
                    kept.add(c);
                }
            }
            if (found == null) {
                throw new IOException(this + " is not connected to receive port '" + receivePortName + "' of "
                        + ibisIdentifier);
            }
            connections = kept.toArray(NO_CONNECTIONS);
            streamChanged = true;
            sendClose(new SendConnection[] {found});
            LOG.debug("{}: disconnected from {}", this, found);
        } finally {
            releaseSlot();
        }
    }

    /** Sends the CLOSE message to the given connections only and closes them; the caller holds the slot. */
    private void sendClose(SendConnection[] to) {
        sink.setTargets(to);
        try {
            blockOut.writeByte(MessageHeader.CLOSE);
            blockOut.endMessage();
        } catch (IOException | RuntimeException e) {
            LOG.debug("{}: sending CLOSE failed: {}", this, e.toString());
        }
        sink.clearFailures();
        for (SendConnection c : to) {
            c.ends.closeQuietly();
            ibis.closedConnectionTo(c.target);
        }
    }

    @Override
    public void close() throws IOException {
        synchronized (lock) {
            if (closed) {
                return;
            }
        }
        try {
            acquireSlot();
        } catch (IOException e) {
            return; // closed concurrently
        }
        SendConnection[] all;
        synchronized (lock) {
            all = connections;
            connections = NO_CONNECTIONS;
        }
        try {
            if (all.length > 0) {
                sendClose(all);
            }
        } finally {
            synchronized (lock) {
                closed = true;
                slotTaken = false; // after closed: a compare-and-set that takes the slot now sees closed
                lock.notifyAll();
            }
            ibis.sendPortClosed(this);
            LOG.debug("{}: closed", this);
        }
    }

    /**
     * Closes this port because its Ibis ends. A port whose message is still being written (by a
     * thread that gave up, or that is still writing) is not waited for, since that could hang
     * {@code end()} for ever: its connections are broken instead, so the receivers see them lost and
     * the writer's next write fails.
     */
    void closeForEnd() throws IOException {
        boolean busy;
        synchronized (lock) {
            if (closed) {
                return;
            }
            busy = slotTaken;
        }
        if (!busy) {
            close();
            return;
        }
        LOG.info("{}: the Ibis ends while a message is still being written; breaking the connections", this);
        abort();
        ibis.sendPortClosed(this);
    }

    /** Breaks every connection without the CLOSE message (the Ibis is going away abruptly). */
    void abort() {
        SendConnection[] all;
        synchronized (lock) {
            closed = true;
            all = connections;
            connections = NO_CONNECTIONS;
            lock.notifyAll();
        }
        for (SendConnection c : all) {
            c.ends.closeQuietly();
        }
    }

    boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }

    @Override
    public ReceivePortIdentifier[] connectedTo() {
        SendConnection[] now = connections;
        ReceivePortIdentifier[] result = new ReceivePortIdentifier[now.length];
        for (int i = 0; i < now.length; i++) {
            result[i] = now[i].target;
        }
        return result;
    }

    @Override
    public ReceivePortIdentifier[] lostConnections() {
        if (!downcalls) {
            throw new IbisConfigurationException(this + ": lostConnections() needs " + PortType.CONNECTION_DOWNCALLS
                    + " in the port type");
        }
        synchronized (lock) {
            ReceivePortIdentifier[] result = lost.toArray(new ReceivePortIdentifier[0]);
            lost.clear();
            return result;
        }
    }

    // ------------------------------------------------------------------ management

    long messagesSent() {
        return (long) MESSAGES_SENT.getOpaque(this);
    }

    long bytesSent() {
        return (long) BYTES_SENT.getOpaque(this);
    }

    @Override
    public Map<String, String> managementProperties() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("messages", Long.toString(messagesSent()));
        m.put("bytes", Long.toString(bytesSent()));
        m.put("connections", Integer.toString(connections.length));
        // The same counters under their IPL 2.x names.
        m.put("Messages", Long.toString(messagesSent()));
        m.put("MessageBytes", Long.toString(bytesSent()));
        m.put("Bytes", Long.toString(bytesSent()));
        m.put("Connections", Integer.toString(connections.length));
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
        return "send port '" + name + "' of " + identifier.ibisIdentifier();
    }
}
