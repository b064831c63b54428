package ibis.registry.central;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.IbisProperties;
import ibis.ipl.IbisRuntimeException;
import ibis.ipl.NoSuchPropertyException;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.HierarchicalLocation;
import ibis.ipl.impl.ImplSettings;
import ibis.ipl.impl.MemberIdentifier;
import ibis.ipl.impl.RegistryClient;
import ibis.registry.RegistryProperties;
import ibis.registry.protocol.MalformedMessageException;
import ibis.registry.protocol.MessageBuilder;
import ibis.registry.protocol.MessageReader;
import ibis.registry.protocol.RegistryProtocol;
import ibis.registry.protocol.ServerAddress;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A pool member's connection to the central registry server; the {@link ibis.ipl.Registry} of an
 * Ibis instance. Created by {@link CentralRegistryProvider#join}.
 *
 * <p>How it works: one TCP connection to the server. A reader thread receives the pool's events
 * (in the server's total order) and the replies to this member's requests; each event is applied
 * to the local view (members, election results, closed, terminated) at once, and, when a
 * {@link RegistryEventHandler} was given, queued for it. A separate delivery thread passes queued
 * events to the handler one at a time, in order, while events are enabled. A heartbeat thread
 * tells the server this member is alive; the server answers each heartbeat, so a server that stays
 * silent for the heartbeat timeout is treated as lost, like a closed connection.
 *
 * <p>Semantics chosen where the IPL leaves room (also in {@code registry/README.md}):
 * <ul>
 * <li>Member names are the join numbers "0", "1", ... of the pool. A new member's view starts with
 *     the current members (itself last) as {@code joined} events, followed by later events only.</li>
 * <li>The downcall variants ({@link #joinedIbises()}, {@link #leftIbises()}, {@link #diedIbises()},
 *     {@link #receivedSignals()}) return what arrived since their previous call and forget it; they
 *     are only available when no event handler was given (with a handler, events go there).</li>
 * <li>Elections (either elections capability): the first {@code elect()} wins, every later caller
 *     gets that winner; when the winner leaves or dies the result is cleared and the next
 *     {@code elect()} call wins. {@code getElectionResult(name, 0)} waits forever;
 *     with a positive timeout it returns null when no winner appeared in time.</li>
 * <li>{@link #getPoolSize()}: {@code ibis.pool.size} in a closed world, else -1 (no fixed size).</li>
 * <li>{@link #getSequenceNumber(String)}: a pool-wide counter per name, starting at 0.</li>
 * <li>{@link #getToken(String)} waits until a token is available; the server serves waiting calls
 *     of one token name first come, first served. Tokens are named {@code name#k}, k counting from
 *     0 in the order tokens are handed out.</li>
 * <li>A call interrupted while it waits for the server throws {@link InterruptedIOException}; the
 *     connection stays usable. An interrupted {@code getToken} is withdrawn at the server, and a
 *     token that was handed to it anyway is added back to its token pool (as a new token).</li>
 * <li>When the server connection is lost, that is logged once; later calls throw an
 *     {@link IOException} (the waiting methods without {@code throws IOException} throw an
 *     {@link IbisRuntimeException}), and nothing hangs.</li>
 * </ul>
 */
public final class CentralRegistryClient implements RegistryClient {

    private static final Logger logger = LoggerFactory.getLogger(CentralRegistryClient.class);

    private final MemberIdentifier identifier;
    private final ServerAddress server;
    private final String poolName;
    private final int poolSize;
    private final boolean closedWorld;
    private final boolean elections;
    private final boolean signals;
    private final boolean termination;
    private final boolean membership;
    private final RegistryEventHandler handler;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    /** Guards the local view below; waiters wait on it. */
    private final Object lock = new Object();
    private final Map<String, MemberIdentifier> members = new LinkedHashMap<>();
    private final Map<String, MemberIdentifier> electionResults = new HashMap<>();
    private boolean poolClosed;
    private MemberIdentifier terminator;
    private long lastSequence;
    /** Set when this member can no longer talk to the registry (left, lost, declared dead). */
    private IOException failure;
    private boolean declaredDead;
    private final List<IbisIdentifier> newJoined = new ArrayList<>();
    private final List<IbisIdentifier> newLeft = new ArrayList<>();
    private final List<IbisIdentifier> newDied = new ArrayList<>();
    private final List<String> newSignals = new ArrayList<>();
    private final ArrayDeque<Consumer<RegistryEventHandler>> upcalls = new ArrayDeque<>();
    private boolean eventsEnabled;
    private boolean stopped;

    /**
     * Requests sent and not yet answered, by request id. A request whose caller was interrupted
     * stays here (its future already completed) until the server's answer arrives and is disposed of.
     */
    private final ConcurrentHashMap<Integer, Request> pending = new ConcurrentHashMap<>();
    /** Monitor notified after every request sent (for {@link #awaitRequestsSent}). */
    private final Object sentMonitor = new Object();
    private final AtomicInteger nextRequestId = new AtomicInteger();
    private volatile boolean leaving;
    /** Test hook: when set, no heartbeats and no ping answers are sent (the connection stays open). */
    private volatile boolean hung;
    /** When the last frame from the server arrived (System.nanoTime). */
    private volatile long lastHeardFromServer = System.nanoTime();
    private final long heartbeatTimeoutNanos;

    private final AtomicLong eventsReceived = new AtomicLong();
    private final AtomicLong eventsDelivered = new AtomicLong();
    private final AtomicLong heartbeatsSent = new AtomicLong();
    private final AtomicLong requestsSent = new AtomicLong();

    private final ScheduledExecutorService heartbeats;

    private CentralRegistryClient(Settings settings, Socket socket, InputStream in, OutputStream out,
            MessageReader welcome, RegistryEventHandler handler) throws MalformedMessageException {
        this.server = settings.server;
        this.poolName = settings.poolName;
        this.poolSize = settings.poolSize;
        this.closedWorld = settings.closedWorld;
        this.elections = settings.elections;
        this.signals = settings.signals;
        this.termination = settings.termination;
        this.membership = settings.membership;
        this.handler = handler;
        this.socket = socket;
        this.in = in;
        this.out = out;

        this.identifier = welcome.readMember();
        lastSequence = welcome.readLong();
        poolClosed = (welcome.readByte() & RegistryProtocol.WELCOME_FLAG_CLOSED) != 0;
        int n = welcome.readCount(RegistryProtocol.MAX_LIST_LENGTH, 8);
        for (int i = 0; i < n; i++) {
            MemberIdentifier m = welcome.readMember();
            members.put(m.name(), m);
            memberJoined(m);
        }
        int e = welcome.readCount(RegistryProtocol.MAX_LIST_LENGTH, 4);
        for (int i = 0; i < e; i++) {
            String election = welcome.readString();
            MemberIdentifier winner = members.get(welcome.readString());
            if (winner == null) {
                throw new MalformedMessageException("welcome names an election winner that is not a member");
            }
            electionResults.put(election, winner);
        }
        welcome.expectEnd();
        if (!identifier.equals(members.get(identifier.name()))) {
            throw new MalformedMessageException("welcome does not list the new member itself");
        }
        if (poolClosed) {
            enqueue(h -> h.poolClosed());
        }
        heartbeatTimeoutNanos = settings.heartbeatTimeout * 1_000_000L;
        int interval = settings.heartbeatInterval;
        heartbeats = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ibis-registry-heartbeat " + identifier);
            t.setDaemon(true);
            return t;
        });
        heartbeats.scheduleWithFixedDelay(this::sendHeartbeat, interval, interval, TimeUnit.MILLISECONDS);
    }

    /**
     * Joins the pool named by {@code ibis.pool.name} at the server named by
     * {@code ibis.server.address}; see {@link ibis.ipl.impl.RegistryProvider#join}.
     *
     * @throws IbisConfigurationException when a required property is missing or invalid
     * @throws IOException when the server cannot be reached within {@code ibis.registry.connect.timeout}
     *         or refuses the join (the message says why)
     */
    public static CentralRegistryClient join(IbisCapabilities capabilities, RegistryEventHandler handler,
            Properties properties, String implementationName, byte[] implementationData, byte[] tag) throws IOException {
        Settings settings = new Settings(capabilities, properties);
        MemberIdentifier prototype = new MemberIdentifier("", settings.poolName, settings.location, tag,
                implementationName == null ? "" : implementationName, implementationData);
        byte[] joinFrame;
        try {
            joinFrame = new MessageBuilder(RegistryProtocol.JOIN)
                    .writeMember(prototype)
                    .writeByte(settings.closedWorld ? RegistryProtocol.JOIN_FLAG_CLOSED_WORLD : 0)
                    .writeInt(settings.poolSize)
                    .writeInt(settings.heartbeatInterval)
                    .writeInt(settings.heartbeatTimeout)
                    .frame();
        } catch (IllegalArgumentException e) {
            throw new IbisConfigurationException("cannot join pool '" + settings.poolName + "': " + e.getMessage(), e);
        }
        if (joinFrame.length - 4 > RegistryProtocol.MAX_CLIENT_FRAME) {
            throw new IbisConfigurationException("cannot join pool '" + settings.poolName + "': tag and contact data"
                    + " are too large (" + joinFrame.length + " bytes)");
        }

        Socket socket = connect(settings);
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(settings.connectTimeout);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            DataInputStream data = new DataInputStream(in);
            out.write(new byte[] {
                (byte) (RegistryProtocol.MAGIC >>> 24), (byte) (RegistryProtocol.MAGIC >>> 16),
                (byte) (RegistryProtocol.MAGIC >>> 8), (byte) RegistryProtocol.MAGIC, RegistryProtocol.VERSION });
            out.write(joinFrame);
            out.flush();
            int magic = data.readInt();
            if (magic != RegistryProtocol.MAGIC) {
                throw new MalformedMessageException(String.format("%s is not an Ibis registry server (magic 0x%08x)",
                        settings.server, magic));
            }
            int version = data.readUnsignedByte();
            MessageReader answer = MessageReader.readFrame(in, RegistryProtocol.MAX_SERVER_FRAME);
            if (answer == null) {
                throw new EOFException("the registry server closed the connection during the join");
            }
            if (answer.type() == RegistryProtocol.REFUSED) {
                throw new IOException("registry server at " + settings.server + " refused the join: "
                        + answer.readString());
            }
            if (version != RegistryProtocol.VERSION) {
                throw new IOException("registry server at " + settings.server + " speaks protocol version " + version
                        + ", this client " + RegistryProtocol.VERSION);
            }
            if (answer.type() != RegistryProtocol.WELCOME) {
                throw new MalformedMessageException("expected WELCOME from the registry server, got "
                        + RegistryProtocol.messageName(answer.type()));
            }
            socket.setSoTimeout(0);
            CentralRegistryClient client = new CentralRegistryClient(settings, socket, in, out, answer, handler);
            client.start();
            logger.debug("joined pool '{}' as {} (registry server {})", settings.poolName, client.identifier,
                    settings.server);
            return client;
        } catch (SocketTimeoutException e) {
            closeQuietly(socket);
            throw new IOException("registry server at " + settings.server + " did not answer the join of pool '"
                    + settings.poolName + "' within " + settings.connectTimeout + " ms", e);
        } catch (IOException | RuntimeException e) {
            closeQuietly(socket);
            if (e instanceof MalformedMessageException || e instanceof EOFException) {
                throw new IOException("joining pool '" + settings.poolName + "' at registry server " + settings.server
                        + " failed: " + e.getMessage(), e);
            }
            throw e;
        }
    }

    /** Connects to the server, retrying while it is not (yet) listening, up to the connect timeout. */
    private static Socket connect(Settings settings) throws IOException {
        long deadline = System.nanoTime() + settings.connectTimeout * 1_000_000L;
        long backoff = 50;
        while (true) {
            Socket socket = new Socket();
            long remaining = (deadline - System.nanoTime()) / 1_000_000L;
            try {
                socket.connect(new InetSocketAddress(settings.server.host(), settings.server.port()),
                        (int) Math.max(1, Math.min(Integer.MAX_VALUE, remaining)));
                if (socket.getLocalSocketAddress().equals(socket.getRemoteSocketAddress())) {
                    // TCP simultaneous open with itself: nothing listens on that (ephemeral) port and
                    // the kernel picked it as our source port too. Treat it as refused.
                    throw new ConnectException("connection refused (connected to itself: nothing listens on "
                            + settings.server + ")");
                }
                return socket;
            } catch (UnknownHostException e) {
                closeQuietly(socket);
                throw new IOException("registry server host '" + settings.server.host() + "' ("
                        + IbisProperties.SERVER_ADDRESS + ") is unknown", e);
            } catch (ConnectException | NoRouteToHostException | SocketTimeoutException e) {
                closeQuietly(socket);
                remaining = (deadline - System.nanoTime()) / 1_000_000L;
                if (remaining <= 0) {
                    throw new IOException("cannot reach the Ibis registry server at " + settings.server + " ("
                            + IbisProperties.SERVER_ADDRESS + ") within " + settings.connectTimeout + " ms: "
                            + e.getMessage(), e);
                }
                logger.debug("registry server {} not reachable yet ({}); retrying", settings.server, e.getMessage());
                try {
                    Thread.sleep(Math.min(backoff, remaining)); // retry pacing, not synchronisation
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while connecting to the registry server");
                }
                backoff = Math.min(backoff * 2, 1000);
            }
        }
    }

    private void start() {
        Thread reader = new Thread(this::readLoop, "ibis-registry-reader " + identifier);
        reader.setDaemon(true);
        reader.start();
        if (handler != null) {
            Thread delivery = new Thread(this::deliveryLoop, "ibis-registry-events " + identifier);
            delivery.setDaemon(true);
            delivery.start();
        }
    }

    // ---------------------------------------------------------------- incoming

    private void readLoop() {
        try {
            while (true) {
                MessageReader message = MessageReader.readFrame(in, RegistryProtocol.MAX_SERVER_FRAME);
                if (message == null) {
                    throw new EOFException("the registry server closed the connection");
                }
                lastHeardFromServer = System.nanoTime();
                switch (message.type()) {
                    case RegistryProtocol.EVENT:
                        applyEvent(message);
                        break;
                    case RegistryProtocol.REPLY:
                    case RegistryProtocol.ERROR: {
                        int id = message.readInt();
                        Request request = pending.remove(id);
                        if (request == null) {
                            throw new MalformedMessageException("reply to unknown request " + id);
                        }
                        if (message.type() == RegistryProtocol.REPLY) {
                            if (!request.reply.complete(message)) {
                                abandonedReply(id, request, message);
                            }
                        } else {
                            String reason = message.readString();
                            if (!request.reply.completeExceptionally(new IOException("registry server: " + reason))) {
                                logger.debug("{}: registry server answered abandoned request {}: {}", identifier, id,
                                        reason);
                            }
                        }
                        break;
                    }
                    case RegistryProtocol.ALIVE:
                        message.expectEnd();
                        break;
                    case RegistryProtocol.PING:
                        message.expectEnd();
                        if (!hung) {
                            send(new MessageBuilder(RegistryProtocol.PONG).frame());
                        }
                        break;
                    default:
                        throw new MalformedMessageException("unexpected message from the registry server: "
                                + RegistryProtocol.messageName(message.type()));
                }
            }
        } catch (IOException e) {
            connectionLost(e);
        } catch (RuntimeException e) {
            logger.error("internal error in the registry client of " + identifier, e);
            connectionLost(new IOException("internal error in the registry client: " + e, e));
        }
    }

    /**
     * Disposes of the answer to a request whose caller stopped waiting (was interrupted). A token
     * handed to an abandoned {@code getToken} goes back to its token pool, so no token is lost.
     */
    private void abandonedReply(int id, Request request, MessageReader reply) throws IOException {
        if (request.tokenName == null) {
            logger.debug("{}: ignoring the answer to abandoned request {}", identifier, id);
            return;
        }
        String token = reply.readString();
        reply.expectEnd();
        logger.info("{}: an interrupted getToken('{}') was handed token {}; returning it to the pool", identifier,
                request.tokenName, token);
        int returnId = nextRequestId.incrementAndGet();
        Request giveBack = new Request(null);
        giveBack.reply.completeExceptionally(new InterruptedIOException("nobody waits for this answer"));
        pending.put(returnId, giveBack);
        send(request(RegistryProtocol.ADD_TOKENS, returnId).writeString(request.tokenName).writeInt(1).frame());
    }

    private void applyEvent(MessageReader event) throws MalformedMessageException {
        long seq = event.readLong();
        int kind = event.readByte();
        String text = null;
        if (kind == RegistryProtocol.EVENT_ELECTION || kind == RegistryProtocol.EVENT_SIGNAL) {
            text = event.readString();
        }
        MemberIdentifier member = null;
        if (kind != RegistryProtocol.EVENT_POOL_CLOSED) {
            member = event.readMember();
        }
        event.expectEnd();
        eventsReceived.incrementAndGet();
        synchronized (lock) {
            if (seq <= lastSequence) {
                throw new MalformedMessageException("event sequence number " + seq + " after " + lastSequence);
            }
            lastSequence = seq;
            final MemberIdentifier m = member;
            final String t = text;
            switch (kind) {
                case RegistryProtocol.EVENT_JOINED:
                    members.put(m.name(), m);
                    memberJoined(m);
                    break;
                case RegistryProtocol.EVENT_LEFT:
                case RegistryProtocol.EVENT_DIED:
                    members.remove(m.name());
                    electionResults.values().removeIf(winner -> winner.equals(m));
                    if (kind == RegistryProtocol.EVENT_LEFT) {
                        if (handler == null) {
                            newLeft.add(m);
                        }
                        enqueue(h -> h.left(m));
                    } else {
                        if (m.equals(identifier)) {
                            declaredDead = true;
                            logger.debug("the registry declared this member ({}) dead", identifier);
                        }
                        if (handler == null) {
                            newDied.add(m);
                        }
                        enqueue(h -> h.died(m));
                    }
                    break;
                case RegistryProtocol.EVENT_ELECTION:
                    electionResults.put(t, m);
                    enqueue(h -> h.electionResult(t, m));
                    break;
                case RegistryProtocol.EVENT_SIGNAL:
                    if (handler == null) {
                        newSignals.add(t);
                    }
                    enqueue(h -> h.gotSignal(t, m));
                    break;
                case RegistryProtocol.EVENT_POOL_CLOSED:
                    poolClosed = true;
                    enqueue(h -> h.poolClosed());
                    break;
                case RegistryProtocol.EVENT_POOL_TERMINATED:
                    terminator = m;
                    enqueue(h -> h.poolTerminated(m));
                    break;
                default:
                    throw new MalformedMessageException("unknown event kind " + kind);
            }
            lock.notifyAll();
        }
    }

    /** Caller holds {@link #lock}. */
    private void memberJoined(MemberIdentifier m) {
        if (handler == null) {
            newJoined.add(m);
        }
        enqueue(h -> h.joined(m));
    }

    /** Caller holds {@link #lock} (or is the constructor). */
    private void enqueue(Consumer<RegistryEventHandler> upcall) {
        if (handler != null) {
            upcalls.add(upcall);
        }
    }

    private void deliveryLoop() {
        while (true) {
            Consumer<RegistryEventHandler> upcall;
            synchronized (lock) {
                while (!stopped && (!eventsEnabled || upcalls.isEmpty())) {
                    if (failure != null && upcalls.isEmpty()) {
                        return; // nothing more can arrive
                    }
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (stopped) {
                    return;
                }
                upcall = upcalls.poll();
            }
            try {
                upcall.accept(handler);
            } catch (RuntimeException e) {
                logger.warn("registry event handler of {} threw an exception; continuing with the next event",
                        identifier, e);
            }
            eventsDelivered.incrementAndGet();
        }
    }

    private void connectionLost(IOException cause) {
        synchronized (lock) {
            if (failure == null) {
                if (leaving) {
                    failure = new IOException(identifier + " has left pool '" + poolName + "'", cause);
                } else if (declaredDead) {
                    failure = new IOException("the registry declared this member (" + identifier + " of pool '"
                            + poolName + "') dead", cause);
                } else {
                    failure = new IOException("lost the connection to the Ibis registry server at " + server + ": "
                            + cause.getMessage(), cause);
                }
                if (!leaving) {
                    logger.warn("{}: {}", identifier, failure.getMessage());
                }
            }
            lock.notifyAll();
        }
        for (Request waiter : pending.values()) {
            waiter.reply.completeExceptionally(failure);
        }
        heartbeats.shutdownNow();
        closeQuietly(socket);
    }

    // ---------------------------------------------------------------- outgoing

    private void send(byte[] frame) throws IOException {
        try {
            synchronized (out) {
                out.write(frame);
                out.flush();
            }
        } catch (IOException e) {
            connectionLost(e);
            throw usable();
        }
    }

    private void sendHeartbeat() {
        if (hung) {
            return;
        }
        long silence = System.nanoTime() - lastHeardFromServer;
        if (silence > heartbeatTimeoutNanos) {
            // The server answers every heartbeat; this long a silence means it hangs or the network is cut.
            connectionLost(new IOException("no message from the registry server for " + silence / 1_000_000L + " ms"));
            return;
        }
        try {
            send(new MessageBuilder(RegistryProtocol.HEARTBEAT).frame());
            heartbeatsSent.incrementAndGet();
        } catch (IOException e) {
            logger.debug("heartbeat of {} failed", identifier, e);
        }
    }

    /** Returns the exception to throw when the registry cannot be used any more, or null. */
    private IOException usable() {
        synchronized (lock) {
            return failure == null ? null : new IOException(failure.getMessage(), failure);
        }
    }

    private MessageReader call(int requestId, MessageBuilder request) throws IOException {
        return call(requestId, request, null);
    }

    /**
     * Sends a request and waits for its answer. Fails when the connection is (or gets) lost: every
     * waiting call is woken by {@link #connectionLost}.
     *
     * @param tokenName for a GET_TOKEN request its token name (an interrupted call is withdrawn at
     *        the server), else null
     */
    private MessageReader call(int requestId, MessageBuilder request, String tokenName) throws IOException {
        Request waiter = new Request(tokenName);
        CompletableFuture<MessageReader> reply = waiter.reply;
        pending.put(requestId, waiter);
        boolean abandoned = false;
        try {
            IOException problem = usable();
            if (problem != null) {
                throw problem;
            }
            send(request.frame());
            requestsSent.incrementAndGet();
            synchronized (sentMonitor) {
                sentMonitor.notifyAll();
            }
            try {
                return reply.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                InterruptedIOException interrupted = new InterruptedIOException(
                        "interrupted while waiting for the registry server");
                if (reply.completeExceptionally(interrupted)) {
                    // No answer yet; the reader thread disposes of it when it comes (it stays pending).
                    abandoned = true;
                    if (tokenName != null) {
                        withdrawTokenRequest(requestId, tokenName);
                    }
                    throw interrupted;
                }
                try {
                    return reply.join(); // the answer arrived just now: use it (the interrupt stays set)
                } catch (CompletionException c) {
                    Throwable cause = c.getCause();
                    throw new IOException(cause.getMessage(), cause);
                }
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                throw new IOException(cause.getMessage(), cause);
            }
        } finally {
            if (!abandoned) {
                pending.remove(requestId);
            }
        }
    }

    /** Tells the server that nobody waits for GET_TOKEN request {@code requestId} any more. */
    private void withdrawTokenRequest(int requestId, String tokenName) {
        try {
            send(request(RegistryProtocol.CANCEL_TOKEN, requestId).writeString(tokenName).frame());
        } catch (IOException e) {
            logger.debug("{}: could not withdraw getToken('{}'); the connection is gone", identifier, tokenName, e);
        }
    }

    /**
     * Test hook: waits until at least {@code count} requests were written to the server (the
     * {@code requests.sent} management property).
     */
    void awaitRequestsSent(long count) throws InterruptedException {
        synchronized (sentMonitor) {
            while (requestsSent.get() < count) {
                sentMonitor.wait();
            }
        }
    }

    private MessageBuilder request(byte type, int requestId) {
        return new MessageBuilder(type).writeInt(requestId);
    }

    private String memberName(IbisIdentifier member) throws IOException {
        if (member == null) {
            throw new NullPointerException("member identifier is null");
        }
        if (!poolName.equals(member.poolName())) {
            throw new IOException(member + " belongs to pool '" + member.poolName() + "', not to pool '" + poolName + "'");
        }
        return member.name();
    }

    private static String checkName(String name, String what) {
        if (name == null) {
            throw new NullPointerException(what + " is null");
        }
        return name;
    }

    private void require(boolean present, String method, String capabilities) {
        if (!present) {
            throw new IbisConfigurationException("Registry." + method + " needs the Ibis capability " + capabilities
                    + ", which this Ibis did not ask for");
        }
    }

    private void requireDowncalls(String method) {
        if (handler != null) {
            throw new IbisConfigurationException("Registry." + method + " is not available: this Ibis has a"
                    + " RegistryEventHandler, which receives these events instead");
        }
    }

    // ---------------------------------------------------------------- Registry

    @Override
    public MemberIdentifier identifier() {
        return identifier;
    }

    @Override
    public IbisIdentifier elect(String electionName) throws IOException {
        require(elections, "elect()", IbisCapabilities.ELECTIONS_STRICT + " or " + IbisCapabilities.ELECTIONS_UNRELIABLE);
        checkName(electionName, "election name");
        int id = nextRequestId.incrementAndGet();
        MessageReader reply = call(id, request(RegistryProtocol.ELECT, id).writeString(electionName));
        MemberIdentifier winner = reply.readMember();
        reply.expectEnd();
        return winner;
    }

    /** Same as {@link #elect(String)}: the central server decides at once, so there is nothing to wait for. */
    @Override
    public IbisIdentifier elect(String electionName, long timeoutMillis) throws IOException {
        return elect(electionName);
    }

    @Override
    public IbisIdentifier getElectionResult(String electionName) throws IOException {
        return getElectionResult(electionName, 0);
    }

    /**
     * Waits until the election has a winner; 0 waits forever, a positive timeout returns null when
     * no winner appeared in time.
     */
    @Override
    public IbisIdentifier getElectionResult(String electionName, long timeoutMillis) throws IOException {
        require(elections, "getElectionResult()",
                IbisCapabilities.ELECTIONS_STRICT + " or " + IbisCapabilities.ELECTIONS_UNRELIABLE);
        checkName(electionName, "election name");
        if (timeoutMillis < 0) {
            throw new IllegalArgumentException("negative timeout " + timeoutMillis);
        }
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        synchronized (lock) {
            while (true) {
                MemberIdentifier winner = electionResults.get(electionName);
                if (winner != null) {
                    return winner;
                }
                if (failure != null) {
                    throw new IOException(failure.getMessage(), failure);
                }
                long wait = timeoutMillis == 0 ? 0 : (deadline - System.nanoTime()) / 1_000_000L;
                if (timeoutMillis != 0 && wait <= 0) {
                    return null;
                }
                try {
                    lock.wait(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting for election '" + electionName + "'");
                }
            }
        }
    }

    /**
     * Asks the server to check the member: it is pinged and declared dead unless it answers within
     * {@code ibis.registry.server.ping.timeout}, or at once when its connection is already gone.
     * Returns without waiting for the verdict.
     */
    @Override
    public void maybeDead(IbisIdentifier ibisIdentifier) throws IOException {
        int id = nextRequestId.incrementAndGet();
        call(id, request(RegistryProtocol.MAYBE_DEAD, id).writeString(memberName(ibisIdentifier))).expectEnd();
    }

    /** Has the server declare the member dead at once (everybody, the member included, sees {@code died}). */
    @Override
    public void assumeDead(IbisIdentifier ibisIdentifier) throws IOException {
        int id = nextRequestId.incrementAndGet();
        call(id, request(RegistryProtocol.ASSUME_DEAD, id).writeString(memberName(ibisIdentifier))).expectEnd();
    }

    /** Sends {@code signal} to the given members; targets that are no longer members are skipped. */
    @Override
    public void signal(String signal, IbisIdentifier... ibisIdentifiers) throws IOException {
        require(signals, "signal()", IbisCapabilities.SIGNALS);
        checkName(signal, "signal");
        if (ibisIdentifiers == null || ibisIdentifiers.length == 0) {
            return;
        }
        if (ibisIdentifiers.length > RegistryProtocol.MAX_LIST_LENGTH) {
            throw new IllegalArgumentException("too many signal targets: " + ibisIdentifiers.length);
        }
        int id = nextRequestId.incrementAndGet();
        MessageBuilder request = request(RegistryProtocol.SIGNAL, id).writeString(signal).writeInt(ibisIdentifiers.length);
        for (IbisIdentifier target : ibisIdentifiers) {
            request.writeString(memberName(target));
        }
        call(id, request).expectEnd();
    }

    @Override
    public IbisIdentifier[] joinedIbises() {
        require(membership, "joinedIbises()", IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED + " or "
                + IbisCapabilities.MEMBERSHIP_UNRELIABLE);
        requireDowncalls("joinedIbises()");
        return drain(newJoined);
    }

    @Override
    public IbisIdentifier[] leftIbises() {
        require(membership, "leftIbises()", IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED + " or "
                + IbisCapabilities.MEMBERSHIP_UNRELIABLE);
        requireDowncalls("leftIbises()");
        return drain(newLeft);
    }

    @Override
    public IbisIdentifier[] diedIbises() {
        require(membership, "diedIbises()", IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED + " or "
                + IbisCapabilities.MEMBERSHIP_UNRELIABLE);
        requireDowncalls("diedIbises()");
        return drain(newDied);
    }

    private IbisIdentifier[] drain(List<IbisIdentifier> list) {
        synchronized (lock) {
            IbisIdentifier[] result = list.toArray(new IbisIdentifier[0]);
            list.clear();
            return result;
        }
    }

    /** The signals received since the previous call (and forgets them). */
    @Override
    public String[] receivedSignals() {
        require(signals, "receivedSignals()", IbisCapabilities.SIGNALS);
        requireDowncalls("receivedSignals()");
        synchronized (lock) {
            String[] result = newSignals.toArray(new String[0]);
            newSignals.clear();
            return result;
        }
    }

    /** {@code ibis.pool.size} in a closed world; -1 (the pool has no fixed size) in an open world. */
    @Override
    public int getPoolSize() {
        return closedWorld ? poolSize : -1;
    }

    @Override
    public String getPoolName() {
        return poolName;
    }

    /**
     * Waits until all {@code ibis.pool.size} members have joined.
     *
     * @throws IbisConfigurationException without the {@code closed.world} capability
     * @throws IbisRuntimeException when the registry connection is lost first
     */
    @Override
    public void waitUntilPoolClosed() {
        require(closedWorld, "waitUntilPoolClosed()", IbisCapabilities.CLOSED_WORLD);
        synchronized (lock) {
            while (!poolClosed) {
                if (failure != null) {
                    throw new IbisRuntimeException("pool '" + poolName + "' did not close: " + failure.getMessage(),
                            failure);
                }
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IbisRuntimeException("interrupted while waiting for pool '" + poolName + "' to close", e);
                }
            }
        }
    }

    /** True once a closed-world pool is complete; always false in an open world. */
    @Override
    public boolean isClosed() {
        synchronized (lock) {
            return poolClosed;
        }
    }

    @Override
    public void enableEvents() {
        synchronized (lock) {
            eventsEnabled = true;
            lock.notifyAll();
        }
    }

    /** Stops delivery to the handler; later events are queued until {@link #enableEvents()}. An upcall already running finishes. */
    @Override
    public void disableEvents() {
        synchronized (lock) {
            eventsEnabled = false;
        }
    }

    @Override
    public long getSequenceNumber(String name) throws IOException {
        checkName(name, "sequence name");
        int id = nextRequestId.incrementAndGet();
        MessageReader reply = call(id, request(RegistryProtocol.SEQUENCE_NUMBER, id).writeString(name));
        long value = reply.readLong();
        reply.expectEnd();
        return value;
    }

    @Override
    public void addTokens(String name, int count) throws IOException {
        checkName(name, "token name");
        if (count < 0) {
            throw new IllegalArgumentException("negative token count " + count);
        }
        int id = nextRequestId.incrementAndGet();
        call(id, request(RegistryProtocol.ADD_TOKENS, id).writeString(name).writeInt(count)).expectEnd();
    }

    /**
     * Takes a token, waiting (at the server, first come first served per name) until one is
     * available.
     *
     * @throws IOException when the registry connection is lost (or this member left or was declared
     *         dead) before a token came; {@link InterruptedIOException} when the calling thread is
     *         interrupted while waiting (the request is then withdrawn)
     */
    @Override
    public String getToken(String name) throws IOException {
        checkName(name, "token name");
        int id = nextRequestId.incrementAndGet();
        MessageReader reply = call(id, request(RegistryProtocol.GET_TOKEN, id).writeString(name), name);
        String token = reply.readString();
        reply.expectEnd();
        return token;
    }

    @Override
    public void terminate() throws IOException {
        require(termination, "terminate()", IbisCapabilities.TERMINATION);
        int id = nextRequestId.incrementAndGet();
        call(id, request(RegistryProtocol.TERMINATE, id)).expectEnd();
    }

    @Override
    public boolean hasTerminated() {
        require(termination, "hasTerminated()", IbisCapabilities.TERMINATION);
        synchronized (lock) {
            return terminator != null;
        }
    }

    /**
     * Waits until some member terminated the pool and returns that member.
     *
     * @throws IbisRuntimeException when the registry connection is lost first
     */
    @Override
    public IbisIdentifier waitUntilTerminated() {
        require(termination, "waitUntilTerminated()", IbisCapabilities.TERMINATION);
        synchronized (lock) {
            while (terminator == null) {
                if (failure != null) {
                    throw new IbisRuntimeException("pool '" + poolName + "' was not terminated: " + failure.getMessage(),
                            failure);
                }
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IbisRuntimeException("interrupted while waiting for pool '" + poolName
                            + "' to terminate", e);
                }
            }
            return terminator;
        }
    }

    /**
     * Leaves the pool: the others see {@code left}; then heartbeats and event delivery stop and
     * the connection is closed. Idempotent; when the registry is already unreachable it only
     * releases the local resources.
     */
    @Override
    public void leave() throws IOException {
        synchronized (lock) {
            if (leaving) {
                return;
            }
            leaving = true;
        }
        try {
            if (usable() == null) {
                int id = nextRequestId.incrementAndGet();
                call(id, request(RegistryProtocol.LEAVE, id)).expectEnd();
            }
        } catch (IOException e) {
            logger.debug("leave of {} could not reach the registry server", identifier, e);
        } finally {
            synchronized (lock) {
                if (failure == null) {
                    failure = new IOException(identifier + " has left pool '" + poolName + "'");
                }
                stopped = true;
                upcalls.clear();
                lock.notifyAll();
            }
            heartbeats.shutdownNow();
            closeQuietly(socket);
        }
    }

    /** Test hook: stop heartbeats and ping answers while keeping the connection open (a hung member). */
    void simulateHang() {
        hung = true;
    }

    // ---------------------------------------------------------------- Manageable

    /**
     * Current values: {@code pool}, {@code member}, {@code server}, {@code connected},
     * {@code members} (current member count), {@code events.received}, {@code events.delivered}
     * (handler upcalls done), {@code events.pending}, {@code heartbeats.sent}, {@code requests.sent},
     * {@code pool.closed}, {@code pool.terminated}. All are read-only.
     */
    @Override
    public Map<String, String> managementProperties() {
        Map<String, String> result = new LinkedHashMap<>();
        synchronized (lock) {
            result.put("pool", poolName);
            result.put("member", identifier.name());
            result.put("server", server.toString());
            result.put("connected", Boolean.toString(failure == null));
            result.put("members", Integer.toString(members.size()));
            result.put("events.received", Long.toString(eventsReceived.get()));
            result.put("events.delivered", Long.toString(eventsDelivered.get()));
            result.put("events.pending", Integer.toString(upcalls.size()));
            result.put("heartbeats.sent", Long.toString(heartbeatsSent.get()));
            result.put("requests.sent", Long.toString(requestsSent.get()));
            result.put("pool.closed", Boolean.toString(poolClosed));
            result.put("pool.terminated", Boolean.toString(terminator != null));
        }
        return result;
    }

    /** Always fails: all registry management properties are read-only. */
    @Override
    public void setManagementProperties(Map<String, String> properties) throws NoSuchPropertyException {
        for (String key : properties.keySet()) {
            setManagementProperty(key, properties.get(key));
        }
    }

    @Override
    public String getManagementProperty(String key) throws NoSuchPropertyException {
        String value = managementProperties().get(key);
        if (value == null) {
            throw new NoSuchPropertyException("the registry has no management property '" + key + "' (it has "
                    + managementProperties().keySet() + ")");
        }
        return value;
    }

    /** Always fails: all registry management properties are read-only. */
    @Override
    public void setManagementProperty(String key, String value) throws NoSuchPropertyException {
        if (managementProperties().containsKey(key)) {
            throw new NoSuchPropertyException("registry management property '" + key + "' is read-only");
        }
        throw new NoSuchPropertyException("the registry has no management property '" + key + "'");
    }

    @Override
    public void printManagementProperties(PrintStream stream) {
        for (Map.Entry<String, String> e : managementProperties().entrySet()) {
            stream.println(e.getKey() + " = " + e.getValue());
        }
    }

    @Override
    public String toString() {
        return "central registry client " + identifier + " of pool '" + poolName + "' (server " + server + ")";
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing left to do with this socket
        }
    }

    /** A request waiting for the server's answer. */
    private static final class Request {
        final CompletableFuture<MessageReader> reply = new CompletableFuture<>();
        /** The token name of a GET_TOKEN request, else null. */
        final String tokenName;

        Request(String tokenName) {
            this.tokenName = tokenName;
        }
    }

    /** The client's configuration, read from the Ibis properties and capabilities. */
    private static final class Settings {
        final ServerAddress server;
        final String poolName;
        final int poolSize;
        final boolean closedWorld;
        final boolean elections;
        final boolean signals;
        final boolean termination;
        final boolean membership;
        final HierarchicalLocation location;
        final int heartbeatInterval;
        final int heartbeatTimeout;
        final int connectTimeout;

        Settings(IbisCapabilities capabilities, Properties properties) {
            Properties p = properties == null ? new Properties() : properties;
            String address = ImplSettings.value(RegistryProperties.SERVER_ADDRESS_PROPERTY, p);
            if (address == null) {
                throw new IbisConfigurationException("property " + IbisProperties.SERVER_ADDRESS
                        + " is not set: the central registry needs the address (host or host:port) of a running"
                        + " registry server (bin/ibis-server)");
            }
            try {
                server = ServerAddress.parse(address);
            } catch (IllegalArgumentException e) {
                throw new IbisConfigurationException("property " + IbisProperties.SERVER_ADDRESS + ": " + e.getMessage(), e);
            }
            String pool = ImplSettings.value(RegistryProperties.POOL_NAME_PROPERTY, p);
            if (pool == null) {
                throw new IbisConfigurationException("property " + IbisProperties.POOL_NAME
                        + " is not set: every member of a pool must use the same pool name");
            }
            poolName = pool;
            closedWorld = has(capabilities, IbisCapabilities.CLOSED_WORLD);
            elections = has(capabilities, IbisCapabilities.ELECTIONS_STRICT)
                    || has(capabilities, IbisCapabilities.ELECTIONS_UNRELIABLE);
            signals = has(capabilities, IbisCapabilities.SIGNALS);
            termination = has(capabilities, IbisCapabilities.TERMINATION);
            membership = has(capabilities, IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED)
                    || has(capabilities, IbisCapabilities.MEMBERSHIP_UNRELIABLE);
            if (closedWorld) {
                Integer size = ImplSettings.value(RegistryProperties.POOL_SIZE_PROPERTY, p);
                if (size == null) {
                    throw new IbisConfigurationException("capability " + IbisCapabilities.CLOSED_WORLD
                            + " needs property " + IbisProperties.POOL_SIZE + " (the number of members)");
                }
                poolSize = size;
            } else {
                poolSize = 0;
            }
            location = HierarchicalLocation.parse(ImplSettings.value(RegistryProperties.LOCATION_PROPERTY, p));
            heartbeatInterval = ImplSettings.value(RegistryProperties.HEARTBEAT_INTERVAL_PROPERTY, p);
            heartbeatTimeout = ImplSettings.value(RegistryProperties.HEARTBEAT_TIMEOUT_PROPERTY, p);
            if (heartbeatTimeout <= heartbeatInterval) {
                throw new IbisConfigurationException(RegistryProperties.HEARTBEAT_TIMEOUT + " (" + heartbeatTimeout
                        + " ms) must be larger than " + RegistryProperties.HEARTBEAT_INTERVAL + " (" + heartbeatInterval
                        + " ms)");
            }
            connectTimeout = ImplSettings.value(RegistryProperties.CONNECT_TIMEOUT_PROPERTY, p);
            if (p.getProperty(IbisProperties.SERVER_IS_HUB) != null || p.getProperty(IbisProperties.HUB_ADDRESSES) != null) {
                logger.debug("{} and {} are ignored: the central registry speaks plain TCP",
                        IbisProperties.SERVER_IS_HUB, IbisProperties.HUB_ADDRESSES);
            }
        }

        private static boolean has(IbisCapabilities capabilities, String capability) {
            return capabilities != null && capabilities.hasCapability(capability);
        }
    }
}
