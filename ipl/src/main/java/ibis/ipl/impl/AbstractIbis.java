package ibis.ipl.impl;

import ibis.io.ByteSink;
import ibis.io.ByteSource;
import ibis.ipl.Credentials;
import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisIOException;
import ibis.ipl.IbisProperties;
import ibis.ipl.IbisStarter;
import ibis.ipl.MessageUpcall;
import ibis.ipl.NoSuchPropertyException;
import ibis.ipl.PortType;
import ibis.ipl.ReceivePort;
import ibis.ipl.ReceivePortConnectUpcall;
import ibis.ipl.Registry;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortDisconnectUpcall;
import ibis.ipl.impl.ConnectionHandshake.Reply;
import ibis.ipl.impl.ConnectionHandshake.Request;
import ibis.ipl.impl.ConnectionHandshake.Status;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The base of every Ibis instance: joins the registry, owns the ports, the transport and the pool
 * of reader threads, and answers connection requests. A network implementation extends it with a
 * constructor that passes its {@link Transport.Factory}, plus the two port factory methods.
 *
 * <p>Creation: the transport is opened first (its contact data must be in the member identifier),
 * then the registry named by {@code ibis.registry.implementation} is found with
 * {@link ServiceLoader} and joined (unset: a provider that is the default for this implementation,
 * see {@link RegistryProvider#isDefaultFor}, else {@code central}). If joining fails the transport is closed again.
 *
 * <p>Ports: {@link #createSendPort} and {@link #createReceivePort} accept only port types that
 * were given to {@code IbisFactory.createIbis}, and check that the upcalls fit the port type
 * (else {@link IbisConfigurationException}).
 *
 * <p>Threads: one cached pool per Ibis runs connection handshakes and connection readers; pooled
 * threads are daemons and are reused, so no thread is started per message.
 */
public abstract class AbstractIbis implements Ibis {

    private static final Logger LOG = LoggerFactory.getLogger(AbstractIbis.class);

    private static final String DEFAULT_REGISTRY = "central";

    private final IbisStarter starter;
    private final Properties properties;
    private final IbisCapabilities capabilities;
    private final PortType[] portTypes;
    private final Transport transport;
    private final RegistryClient registry;
    private final MemberIdentifier identifier;
    private final ThreadPoolExecutor pool;
    /** Runs the periodic idle-connection check; null when it is switched off. */
    private final ScheduledExecutorService housekeeping;

    private final ImplSettings settings;
    private final AtomicInteger handshakesInProgress = new AtomicInteger();
    /** Upcall readers polling now, and how many may (see {@link #tryStartUpcallSpin()}). */
    private final AtomicInteger upcallSpinners = new AtomicInteger();
    private final int maxUpcallSpinners = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
    /** Deferred hand-offs of connections after finish() in an upcall. */
    private final UpcallHandOffs upcallHandOffs;

    private final ConcurrentHashMap<String, AbstractReceivePort> receivePorts = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AbstractSendPort> sendPorts = new ConcurrentHashMap<>();
    private final AtomicInteger anonymousPorts = new AtomicInteger();
    private final AtomicLong anonymousReceivePorts = new AtomicLong();
    private final Object endLock = new Object();
    private boolean ended;

    // Totals of closed ports, for the management properties.
    private long closedMessagesSent;
    private long closedBytesSent;
    private long closedMessagesReceived;
    private long closedBytesReceived;

    /**
     * Opens the transport and joins the registry.
     *
     * @param starter the starter that creates this Ibis (nickname and version)
     * @param handler registry events go here once enabled (may be null)
     * @param capabilities the Ibis capabilities asked for
     * @param credentials ignored by this implementation (may be null)
     * @param applicationTag stored in the member identifier (may be null)
     * @param portTypes the port types this Ibis may create ports of
     * @param properties the Ibis's complete properties
     * @param transportFactory opens the network implementation's transport
     * @throws IbisCreationFailedException when the transport cannot be opened or the registry
     *         cannot be joined
     */
    protected AbstractIbis(IbisStarter starter, RegistryEventHandler handler, IbisCapabilities capabilities,
            Credentials credentials, byte[] applicationTag, PortType[] portTypes, Properties properties,
            Transport.Factory transportFactory) throws IbisCreationFailedException {
        this.starter = starter;
        this.properties = new Properties();
        if (properties != null) {
            for (String key : properties.stringPropertyNames()) {
                this.properties.setProperty(key, properties.getProperty(key));
            }
        }
        this.capabilities = capabilities == null ? new IbisCapabilities() : capabilities;
        this.portTypes = portTypes == null ? new PortType[0] : portTypes.clone();
        for (PortType t : this.portTypes) {
            try {
                PortTypeRules.validate(t);
            } catch (IbisConfigurationException e) {
                throw new IbisCreationFailedException(e.getMessage(), e);
            }
        }
        try {
            this.settings = ImplSettings.read(this.properties);
        } catch (IbisConfigurationException e) {
            throw new IbisCreationFailedException(e.getMessage(), e);
        }

        this.upcallHandOffs = new UpcallHandOffs(this, settings.upcallHandOffMicros(),
                "ibis-" + starter.getNickName() + "-upcall-handoff");
        AtomicInteger threads = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                r -> {
                    Thread t = new Thread(r, "ibis-" + starter.getNickName() + "-reader-" + threads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });

        IncomingConnectionHandler handler0 = this::incomingConnection;
        try {
            this.transport = transportFactory.open(this.properties, handler0);
        } catch (IOException | RuntimeException e) {
            pool.shutdownNow();
            throw new IbisCreationFailedException("could not open the " + starter.getNickName() + " transport: " + e,
                    e);
        }
        RegistryClient client;
        try {
            client = joinRegistry(handler, applicationTag);
        } catch (IbisCreationFailedException e) {
            closeTransportQuietly();
            pool.shutdownNow();
            throw e;
        }
        this.registry = client;
        this.identifier = client.identifier();
        long idleCheckMillis = settings.idleCheckMillis();
        if (idleCheckMillis > 0) {
            housekeeping = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "ibis-" + starter.getNickName() + "-idle-check");
                t.setDaemon(true);
                return t;
            });
            housekeeping.scheduleWithFixedDelay(this::checkIdleConnections, idleCheckMillis, idleCheckMillis,
                    TimeUnit.MILLISECONDS);
        } else {
            housekeeping = null;
        }
        LOG.debug("{} started: {}", starter.getNickName(), identifier.describe());
    }

    private RegistryClient joinRegistry(RegistryEventHandler handler, byte[] tag) throws IbisCreationFailedException {
        String wanted = properties.getProperty(IbisProperties.REGISTRY_IMPLEMENTATION);
        if (wanted == null || wanted.isBlank()) {
            wanted = System.getProperty(IbisProperties.REGISTRY_IMPLEMENTATION);
        }
        // "central" is also the built-in default of the property (IbisProperties), so it does not
        // count as a choice: an implementation's own default registry (mpi without a server
        // address, where central could not work) still takes over.
        boolean named = wanted != null && !wanted.isBlank() && !wanted.trim().equals(DEFAULT_REGISTRY);
        List<String> found = new ArrayList<>();
        RegistryProvider provider = null;
        RegistryProvider byDefault = null;
        // The implementation's own loader too: it sees the jars of ibis.implementation.path when
        // the implementation came from there.
        ClassLoader ipl = AbstractIbis.class.getClassLoader();
        ClassLoader implementation = getClass().getClassLoader();
        for (ClassLoader loader : implementation == ipl ? List.of(ipl) : List.of(ipl, implementation)) {
            for (RegistryProvider p : ServiceLoader.load(RegistryProvider.class, loader)) {
                if (found.contains(p.name())) {
                    continue;
                }
                found.add(p.name());
                if (named) {
                    if (provider == null && (p.name().equals(wanted) || p.getClass().getName().equals(wanted))) {
                        provider = p;
                    }
                } else if (byDefault == null && p.isDefaultFor(starter.getNickName(), properties)) {
                    byDefault = p;
                } else if (provider == null && p.name().equals(DEFAULT_REGISTRY)) {
                    provider = p;
                }
            }
        }
        if (!named) {
            if (byDefault != null) {
                provider = byDefault;
                LOG.debug("registry '{}': the default for implementation '{}' ({} not set)", byDefault.name(),
                        starter.getNickName(), IbisProperties.REGISTRY_IMPLEMENTATION);
            }
            wanted = provider != null ? provider.name() : DEFAULT_REGISTRY;
        }
        if (provider == null) {
            String install = DEFAULT_REGISTRY.equals(wanted)
                    ? "add the artifact ibis:ibis-registry (it provides '" + DEFAULT_REGISTRY + "')"
                    : "add the jar that provides it";
            throw new IbisCreationFailedException("no registry implementation '" + wanted + "' ("
                    + IbisProperties.REGISTRY_IMPLEMENTATION + "); found " + found + ". To fix: " + install
                    + " to the class path (or, when the Ibis implementation is loaded from "
                    + IbisProperties.IMPLEMENTATION_PATH + ", to its directory there)"
                    + (found.isEmpty() ? "" : ", or set " + IbisProperties.REGISTRY_IMPLEMENTATION
                    + " to one of " + found));
        }
        try {
            return provider.join(capabilities, handler, properties, starter.getNickName(), transport.contactData(),
                    tag);
        } catch (IOException | RuntimeException e) {
            throw new IbisCreationFailedException("could not join the pool through the '" + provider.name()
                    + "' registry: " + e.getMessage(), e);
        }
    }

    private void closeTransportQuietly() {
        try {
            if (transport != null) {
                transport.close();
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("closing the transport failed: {}", e.toString());
        }
    }

    // ------------------------------------------------------------------ for ports and transports

    /** The transport of this Ibis. */
    protected Transport transport() {
        return transport;
    }

    /** Runs a task on the pool of this Ibis's reader threads. */
    void execute(Runnable task) {
        try {
            pool.execute(task);
        } catch (RejectedExecutionException e) {
            LOG.debug("{}: not running a task, the Ibis has ended", identifier);
        }
    }

    /** The settings of the shared base, read once from this Ibis's properties. */
    public ImplSettings settings() {
        return settings;
    }

    /**
     * Asks to let one more upcall reader poll before it blocks. At most one reader per spare
     * processor polls at a time, so an Ibis with many busy connections does not burn every core.
     *
     * @return true when the caller may poll; it must call {@link #endUpcallSpin()} afterwards
     */
    boolean tryStartUpcallSpin() {
        while (true) {
            int n = upcallSpinners.get();
            if (n >= maxUpcallSpinners) {
                return false;
            }
            if (upcallSpinners.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    void endUpcallSpin() {
        upcallSpinners.decrementAndGet();
    }

    UpcallHandOffs upcallHandOffs() {
        return upcallHandOffs;
    }

    private void checkIdleConnections() {
        try {
            for (AbstractReceivePort p : receivePorts.values()) {
                p.checkIdleConnections();
            }
        } catch (RuntimeException e) {
            LOG.warn("{}: checking idle connections failed", identifier, e); // keep the schedule alive
        }
    }

    /** Called by the transport (through the handler) for every accepted connection. */
    private void incomingConnection(ByteSink sink, ByteSource source, String peerDescription) {
        ConnectionEnds ends = new ConnectionEnds(sink, source, peerDescription);
        if (handshakesInProgress.incrementAndGet() > settings.handshakeMax()) {
            handshakesInProgress.decrementAndGet();
            LOG.warn("{}: dropping the connection from {}: {} handshakes are in progress already ({})", identifier,
                    peerDescription, settings.handshakeMax(), ImplPropertyTable.HANDSHAKE_MAX);
            ends.closeQuietly();
            return;
        }
        try {
            pool.execute(() -> handshake(ends));
        } catch (RejectedExecutionException e) {
            handshakesInProgress.decrementAndGet();
            ends.closeQuietly();
        }
    }

    /** The receiving half of the handshake; on success the port goes on reading in this thread. */
    private void handshake(ConnectionEnds ends) {
        Request request;
        try {
            request = ConnectionHandshake.readRequest(ends.source(), settings.handshakeTimeout());
        } catch (IOException | RuntimeException e) {
            if (e instanceof java.io.EOFException) {
                // The peer went away before its request was complete (a withdrawn attempt, say).
                LOG.info("{}: dropping the connection from {}: it ended during the handshake: {}", identifier,
                        ends.peerDescription(), e.toString());
            } else {
                // Not an Ibis sender of this version, or hostile bytes: worth a trace at the default level.
                LOG.warn("{}: dropping the connection from {}: bad handshake: {}", identifier,
                        ends.peerDescription(), e.toString());
            }
            ends.closeQuietly();
            return;
        } finally {
            handshakesInProgress.decrementAndGet();
        }
        String theirs = request.sender().implementationName();
        if (!starter.getNickName().equals(theirs)) {
            // A member of another implementation reached this one (a shared pool of mixed members);
            // its bytes would be misread, so refuse before any message is accepted.
            LOG.warn("{}: refusing the connection from {}: it runs the '{}' implementation, this member '{}'",
                    identifier, request.sender(), theirs, starter.getNickName());
            try {
                ConnectionHandshake.writeReply(ends.sink(), new Reply(Status.BAD_REQUEST, ByteOrder.nativeOrder(),
                        identifier + " runs the '" + starter.getNickName() + "' implementation, not '" + theirs
                                + "': every member of a pool must use the same one (" + IbisProperties.IMPLEMENTATION
                                + ")"));
            } catch (IOException e) {
                LOG.debug("{}: could not answer {}: {}", identifier, ends.peerDescription(), e.toString());
            }
            ends.closeQuietly();
            return;
        }
        AbstractReceivePort port = receivePorts.get(request.receivePortName());
        if (port == null || port.isClosed()) {
            try {
                ConnectionHandshake.writeReply(ends.sink(), new Reply(Status.NO_SUCH_PORT, ByteOrder.nativeOrder(),
                        "no receive port named '" + request.receivePortName() + "' at " + identifier));
            } catch (IOException e) {
                LOG.debug("{}: could not answer {}: {}", identifier, ends.peerDescription(), e.toString());
            }
            ends.closeQuietly();
            return;
        }
        port.admit(request, ends);
    }

    // ------------------------------------------------------------------ Ibis

    @Override
    public Registry registry() {
        return registry;
    }

    /** The registry client of this Ibis. */
    protected RegistryClient registryClient() {
        return registry;
    }

    @Override
    public MemberIdentifier identifier() {
        return identifier;
    }

    @Override
    public String getVersion() {
        return "Ibis " + starter.getNickName() + " " + starter.getImplementationVersion() + " (IPL "
                + starter.getIplVersion() + ")";
    }

    @Override
    public Properties properties() {
        Properties copy = new Properties();
        for (String key : properties.stringPropertyNames()) {
            copy.setProperty(key, properties.getProperty(key));
        }
        return copy;
    }

    /** The Ibis capabilities this instance was created with. */
    protected IbisCapabilities capabilities() {
        return capabilities;
    }

    /**
     * Delivers the messages that have arrived on receive ports with
     * {@link PortType#RECEIVE_POLL_UPCALLS} (and not {@link PortType#RECEIVE_AUTO_UPCALLS}) to
     * their upcalls, in the calling thread. Ports with automatic upcalls need no polling.
     */
    @Override
    public void poll() throws IOException {
        checkNotEnded();
        for (AbstractReceivePort p : receivePorts.values()) {
            p.pollUpcalls();
        }
    }

    private void checkNotEnded() throws IOException {
        synchronized (endLock) {
            if (ended) {
                throw new IOException(identifier + " has ended");
            }
        }
    }

    @Override
    public void end() throws IOException {
        synchronized (endLock) {
            if (ended) {
                return;
            }
            ended = true;
        }
        IOException failure = null;
        for (AbstractSendPort p : new ArrayList<>(sendPorts.values())) {
            try {
                p.closeForEnd();
            } catch (IOException e) {
                failure = e;
            }
        }
        for (AbstractReceivePort p : new ArrayList<>(receivePorts.values())) {
            try {
                p.close(-1);
            } catch (IOException e) {
                failure = e;
            }
        }
        try {
            registry.leave();
        } catch (IOException e) {
            LOG.info("{}: leaving the registry failed: {}", identifier, e.toString());
            failure = e;
        }
        closeTransportQuietly();
        upcallHandOffs.stop();
        pool.shutdown();
        if (housekeeping != null) {
            housekeeping.shutdownNow();
        }
        LOG.debug("{} ended", identifier);
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Ends this Ibis without saying goodbye: connections are broken without CLOSE messages and the
     * registry is left. For tests and emergency shutdowns.
     */
    protected void abort() {
        synchronized (endLock) {
            if (ended) {
                return;
            }
            ended = true;
        }
        for (AbstractSendPort p : new ArrayList<>(sendPorts.values())) {
            p.abort();
        }
        for (AbstractReceivePort p : new ArrayList<>(receivePorts.values())) {
            try {
                p.close(-1);
            } catch (IOException e) {
                // closing anyway
            }
        }
        try {
            registry.leave();
        } catch (IOException e) {
            LOG.debug("{}: leaving the registry failed: {}", identifier, e.toString());
        }
        closeTransportQuietly();
        upcallHandOffs.stop();
        pool.shutdownNow();
        if (housekeeping != null) {
            housekeeping.shutdownNow();
        }
    }

    // ------------------------------------------------------------------ ports

    /**
     * Creates the send port object of the network implementation: by default one whose behaviour
     * all comes from the base; an implementation with port behaviour of its own overrides this.
     *
     * @see AbstractSendPort#AbstractSendPort
     */
    protected AbstractSendPort newSendPort(PortType type, String name, SendPortDisconnectUpcall upcall,
            Properties portProperties) throws IOException {
        return new BaseSendPort(this, type, name, upcall, portProperties);
    }

    /**
     * Creates the receive port object of the network implementation: by default one whose
     * behaviour all comes from the base; an implementation with port behaviour of its own
     * overrides this.
     *
     * @see AbstractReceivePort#AbstractReceivePort
     */
    protected AbstractReceivePort newReceivePort(PortType type, String name, MessageUpcall upcall,
            ReceivePortConnectUpcall connectUpcall, Properties portProperties) throws IOException {
        return new BaseReceivePort(this, type, name, upcall, connectUpcall, portProperties);
    }

    /** A send port whose behaviour all comes from the base. */
    static final class BaseSendPort extends AbstractSendPort {
        BaseSendPort(AbstractIbis ibis, PortType type, String name, SendPortDisconnectUpcall upcall,
                Properties properties) {
            super(ibis, type, name, upcall, properties);
        }
    }

    /** A receive port whose behaviour all comes from the base. */
    static final class BaseReceivePort extends AbstractReceivePort {
        BaseReceivePort(AbstractIbis ibis, PortType type, String name, MessageUpcall upcall,
                ReceivePortConnectUpcall connectUpcall, Properties properties) {
            super(ibis, type, name, upcall, connectUpcall, properties);
        }
    }

    private void checkPortType(PortType type) {
        PortTypeRules.validate(type);
        for (PortType t : portTypes) {
            if (PortTypeRules.same(t, type)) {
                return;
            }
        }
        List<String> known = new ArrayList<>();
        for (PortType t : portTypes) {
            known.add(PortTypeRules.describe(t));
        }
        throw new IbisConfigurationException("port type " + PortTypeRules.describe(type)
                + " was not given to IbisFactory.createIbis; the port types of this Ibis are " + known);
    }

    @Override
    public SendPort createSendPort(PortType portType) throws IOException {
        return createSendPort(portType, null, null, null);
    }

    @Override
    public SendPort createSendPort(PortType portType, String sendPortName) throws IOException {
        return createSendPort(portType, sendPortName, null, null);
    }

    @Override
    public SendPort createSendPort(PortType portType, String sendPortName, SendPortDisconnectUpcall upcall,
            Properties portProperties) throws IOException {
        checkNotEnded();
        checkPortType(portType);
        if (upcall != null && !portType.hasCapability(PortType.CONNECTION_UPCALLS)) {
            throw new IbisConfigurationException("a SendPortDisconnectUpcall needs " + PortType.CONNECTION_UPCALLS
                    + " in the port type " + PortTypeRules.describe(portType));
        }
        String name = sendPortName;
        if (name == null) {
            do {
                name = "anonymous-send-port-" + anonymousPorts.incrementAndGet();
            } while (sendPorts.containsKey(name));
        }
        AbstractSendPort port = newSendPort(portType, name, upcall, portProperties);
        if (sendPorts.putIfAbsent(name, port) != null) {
            throw new IbisIOException("a send port named '" + name + "' exists already in " + identifier);
        }
        return port;
    }

    @Override
    public ReceivePort createReceivePort(PortType portType, String receivePortName) throws IOException {
        return createReceivePort(portType, receivePortName, null, null, null);
    }

    @Override
    public ReceivePort createReceivePort(PortType portType, String receivePortName, MessageUpcall upcall)
            throws IOException {
        return createReceivePort(portType, receivePortName, upcall, null, null);
    }

    @Override
    public ReceivePort createReceivePort(PortType portType, String receivePortName,
            ReceivePortConnectUpcall connectUpcall) throws IOException {
        return createReceivePort(portType, receivePortName, null, connectUpcall, null);
    }

    @Override
    public ReceivePort createReceivePort(PortType portType, String receivePortName, MessageUpcall upcall,
            ReceivePortConnectUpcall connectUpcall, Properties portProperties) throws IOException {
        checkNotEnded();
        checkPortType(portType);
        if (receivePortName != null && ReceivePortId.isAnonymousName(receivePortName)) {
            throw new IbisConfigurationException("receive port names starting with '" + ReceivePortId.ANONYMOUS_PREFIX
                    + "' are reserved for anonymous ports; choose another name, or pass null for an anonymous port");
        }
        if (upcall != null && !portType.hasCapability(PortType.RECEIVE_AUTO_UPCALLS)
                && !portType.hasCapability(PortType.RECEIVE_POLL_UPCALLS)) {
            throw new IbisConfigurationException("a MessageUpcall needs " + PortType.RECEIVE_AUTO_UPCALLS + " or "
                    + PortType.RECEIVE_POLL_UPCALLS + " in the port type " + PortTypeRules.describe(portType));
        }
        if (upcall == null && !portType.hasCapability(PortType.RECEIVE_EXPLICIT)) {
            throw new IbisConfigurationException("a receive port without MessageUpcall needs "
                    + PortType.RECEIVE_EXPLICIT + " in the port type " + PortTypeRules.describe(portType));
        }
        if (connectUpcall != null && !portType.hasCapability(PortType.CONNECTION_UPCALLS)) {
            throw new IbisConfigurationException("a ReceivePortConnectUpcall needs " + PortType.CONNECTION_UPCALLS
                    + " in the port type " + PortTypeRules.describe(portType));
        }
        String name = receivePortName;
        if (name == null) {
            // Unique within this member (the member is part of the identifier), and of the reserved
            // form that connect(IbisIdentifier, String) refuses: reachable by identifier only.
            do {
                name = ReceivePortId.anonymousName(anonymousReceivePorts.incrementAndGet());
            } while (receivePorts.containsKey(name));
        }
        AbstractReceivePort port = newReceivePort(portType, name, upcall, connectUpcall, portProperties);
        if (receivePorts.putIfAbsent(name, port) != null) {
            throw new IbisIOException("a receive port named '" + name + "' exists already in " + identifier);
        }
        return port;
    }

    /** How long a regular close of a connection counts as recent ({@link #closedRecently}). */
    static final long RECENT_CLOSE_NANOS = 10_000_000_000L;

    /** Receive ports this Ibis's send ports disconnected from regularly, and when (System.nanoTime()). */
    private final ConcurrentHashMap<ReceivePortId, Long> recentCloses = new ConcurrentHashMap<>();

    /** A send port of this Ibis sent CLOSE to {@code target} (disconnect or close). */
    void closedConnectionTo(ReceivePortId target) {
        long now = System.nanoTime();
        if (recentCloses.size() > 1024) {
            recentCloses.values().removeIf(t -> now - t > RECENT_CLOSE_NANOS);
        }
        recentCloses.put(target, now);
    }

    /**
     * Whether a send port of this Ibis disconnected from {@code target} in the last
     * {@value #RECENT_CLOSE_NANOS} ns: then a one-sender receive port that refuses a new sender may
     * simply not have read that CLOSE yet, and the connect waits for it instead of failing.
     */
    boolean closedRecently(ReceivePortId target) {
        Long t = recentCloses.get(target);
        return t != null && System.nanoTime() - t <= RECENT_CLOSE_NANOS;
    }

    void sendPortClosed(AbstractSendPort port) {
        if (sendPorts.remove(port.name(), port)) {
            synchronized (endLock) {
                closedMessagesSent += port.messagesSent();
                closedBytesSent += port.bytesSent();
            }
        }
    }

    void receivePortClosed(AbstractReceivePort port) {
        if (receivePorts.remove(port.name(), port)) {
            long messages = port.messagesReceived(); // takes the port's lock: not under endLock
            long bytes = port.bytesReceived();
            synchronized (endLock) {
                closedMessagesReceived += messages;
                closedBytesReceived += bytes;
            }
        }
    }

    /** The names of the receive ports that are open now. */
    protected Set<String> receivePortNames() {
        return Set.copyOf(receivePorts.keySet());
    }

    // ------------------------------------------------------------------ management

    /**
     * The counters of this Ibis: messages and bytes sent and received by all its ports (closed
     * ones included), and the number of open ports; the counters also under their IPL 2.x names
     * ({@code outgoingMessageCount}, {@code bytesWritten}, {@code bytesSent},
     * {@code incomingMessageCount}, {@code bytesReceived}, {@code bytesRead}).
     */
    @Override
    public Map<String, String> managementProperties() {
        long ms;
        long bs;
        long mr;
        long br;
        synchronized (endLock) {
            ms = closedMessagesSent;
            bs = closedBytesSent;
            mr = closedMessagesReceived;
            br = closedBytesReceived;
        }
        for (AbstractSendPort p : sendPorts.values()) {
            ms += p.messagesSent();
            bs += p.bytesSent();
        }
        for (AbstractReceivePort p : receivePorts.values()) {
            mr += p.messagesReceived();
            br += p.bytesReceived();
        }
        Map<String, String> m = new LinkedHashMap<>();
        m.put("messages.sent", Long.toString(ms));
        m.put("bytes.sent", Long.toString(bs));
        m.put("messages.received", Long.toString(mr));
        m.put("bytes.received", Long.toString(br));
        m.put("sendports", Integer.toString(sendPorts.size()));
        m.put("receiveports", Integer.toString(receivePorts.size()));
        // The names of IPL 2.x, which programs and tools of that time ask for. Written and sent
        // bytes are one count here (the serialized bytes of the messages), as are read and received.
        m.put("outgoingMessageCount", Long.toString(ms));
        m.put("bytesWritten", Long.toString(bs));
        m.put("bytesSent", Long.toString(bs));
        m.put("incomingMessageCount", Long.toString(mr));
        m.put("bytesReceived", Long.toString(br));
        m.put("bytesRead", Long.toString(br));
        return m;
    }

    @Override
    public String getManagementProperty(String key) throws NoSuchPropertyException {
        return ReadOnlyManagement.get(managementProperties(), key);
    }

    @Override
    public void setManagementProperties(Map<String, String> props) throws NoSuchPropertyException {
        for (String key : props.keySet()) {
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
        return "Ibis " + identifier;
    }
}
