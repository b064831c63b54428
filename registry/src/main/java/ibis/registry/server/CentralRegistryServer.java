package ibis.registry.server;

import ibis.ipl.impl.ImplSettings;
import ibis.ipl.impl.MemberIdentifier;
import ibis.registry.RegistryProperties;
import ibis.registry.protocol.RegistryProtocol;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The central registry server: keeps the membership, elections, counters, tokens and the
 * totally ordered event log of any number of pools (keyed by {@code ibis.pool.name}) and serves
 * them to {@code CentralRegistryClient}s over plain TCP. It can run as its own process
 * ({@link RegistryServerMain}, {@code bin/ibis-server}) or embedded in any JVM:
 *
 * <pre>
 * try (CentralRegistryServer server = new CentralRegistryServer(0, new Properties())) {
 *     server.start();
 *     properties.setProperty("ibis.server.address", server.address());
 *     ...
 * }
 * </pre>
 *
 * <p>Threads: one acceptor, a reader and a writer thread per client connection (at most
 * {@code ibis.registry.server.max.connections} connections), and one reaper that enforces the
 * handshake, heartbeat and ping timeouts. All threads are daemons. Malformed input on one
 * connection is logged and closes that connection only.
 */
public final class CentralRegistryServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CentralRegistryServer.class);

    private final int requestedPort;
    private final String bindAddress;
    private final int maxConnections;
    private final int handshakeTimeoutMillis;
    private final long pingTimeoutNanos;
    private final boolean logEvents;

    private final Map<String, Pool> pools = new HashMap<>();
    private final Set<ServerConnection> connections = ConcurrentHashMap.newKeySet();
    private final List<Consumer<String>> eventListeners = new CopyOnWriteArrayList<>();

    private ServerSocket serverSocket;
    private ScheduledExecutorService reaper;
    private volatile boolean closed;

    /**
     * Creates a server; nothing is opened until {@link #start()}.
     *
     * @param port the TCP port to listen on, 0 for an ephemeral one
     * @param properties server settings ({@code ibis.registry.server.*}, see {@link RegistryProperties});
     *        may be null
     * @throws ibis.ipl.IbisConfigurationException when a property has an invalid value
     */
    public CentralRegistryServer(int port, Properties properties) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " outside 0..65535");
        }
        Properties p = properties == null ? new Properties() : properties;
        this.requestedPort = port;
        this.bindAddress = ImplSettings.value(RegistryProperties.SERVER_BIND_PROPERTY, p);
        this.maxConnections = ImplSettings.value(RegistryProperties.SERVER_MAX_CONNECTIONS_PROPERTY, p);
        this.handshakeTimeoutMillis = ImplSettings.value(RegistryProperties.SERVER_HANDSHAKE_TIMEOUT_PROPERTY, p);
        this.pingTimeoutNanos = ImplSettings.value(RegistryProperties.SERVER_PING_TIMEOUT_PROPERTY, p) * 1_000_000L;
        this.logEvents = ImplSettings.value(RegistryProperties.SERVER_EVENTS_PROPERTY, p);
    }

    /**
     * Opens the listening socket and starts serving.
     *
     * @throws IOException when the port cannot be bound
     * @throws IllegalStateException when already started or closed
     */
    public synchronized void start() throws IOException {
        if (serverSocket != null || closed) {
            throw new IllegalStateException("registry server already started or closed");
        }
        ServerSocket socket = new ServerSocket();
        try {
            socket.setReuseAddress(true);
            InetAddress bind = bindAddress == null || bindAddress.isBlank() ? null
                    : InetAddress.getByName(bindAddress.trim());
            socket.bind(new InetSocketAddress(bind, requestedPort), 128);
        } catch (IOException e) {
            socket.close();
            throw new IOException("registry server cannot listen on port " + requestedPort
                    + (bindAddress == null ? "" : " of " + bindAddress) + ": " + e.getMessage(), e);
        }
        serverSocket = socket;
        reaper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ibis-registry-reaper");
            t.setDaemon(true);
            return t;
        });
        reaper.scheduleWithFixedDelay(this::reap, reapPeriodMillis(), reapPeriodMillis(), TimeUnit.MILLISECONDS);
        Thread acceptor = new Thread(this::acceptLoop, "ibis-registry-acceptor " + port());
        acceptor.setDaemon(true);
        acceptor.start();
        LOG.debug("Ibis registry server listening on {}", address());
    }

    /** The port the server listens on (the actual one when it was started with port 0). */
    public synchronized int port() {
        if (serverSocket == null) {
            throw new IllegalStateException("registry server not started");
        }
        return serverSocket.getLocalPort();
    }

    /**
     * The address clients use to reach this server, as {@code host:port}, usable as
     * {@code ibis.server.address}. It is {@code 127.0.0.1:port} when listening on all interfaces
     * or on loopback, else the bound address.
     */
    public synchronized String address() {
        int port = port();
        InetAddress bound = serverSocket.getInetAddress();
        if (bound == null || bound.isAnyLocalAddress() || bound.isLoopbackAddress()) {
            return "127.0.0.1:" + port;
        }
        String host = bound.getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * Registers a listener that receives a one-line description of every pool event (for
     * {@code ibis-server --events}). Listeners run in the thread that caused the event, under the
     * pool's lock: they must be quick and must not call back into the server.
     */
    public void addEventListener(Consumer<String> listener) {
        eventListeners.add(listener);
    }

    /** Number of pools that currently have members. */
    public int poolCount() {
        synchronized (pools) {
            return pools.size();
        }
    }

    /** Number of current members of the named pool (0 when there is no such pool). */
    public int memberCount(String poolName) {
        Pool pool;
        synchronized (pools) {
            pool = pools.get(poolName);
        }
        return pool == null ? 0 : pool.memberCount();
    }

    /** Number of open client connections (members and connections still in their handshake). */
    public int connectionCount() {
        return connections.size();
    }

    /** A short text per pool (members, event count, closed/terminated), keyed by pool name. */
    public Map<String, String> describePools() {
        List<Pool> snapshot;
        synchronized (pools) {
            snapshot = new ArrayList<>(pools.values());
        }
        Map<String, String> result = new TreeMap<>();
        for (Pool pool : snapshot) {
            result.put(pool.name(), pool.describe());
        }
        return result;
    }

    /** True once {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }

    /** Stops listening and closes every client connection (members see the registry as gone). Idempotent. */
    @Override
    public void close() {
        ServerSocket socket;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            socket = serverSocket;
        }
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                LOG.debug("closing the registry server socket", e);
            }
        }
        if (reaper != null) {
            reaper.shutdownNow();
        }
        for (ServerConnection c : connections) {
            c.closeNow();
        }
        LOG.debug("Ibis registry server on port {} closed", socket == null ? requestedPort : socket.getLocalPort());
    }

    int handshakeTimeoutMillis() {
        return handshakeTimeoutMillis;
    }

    long pingTimeoutNanos() {
        return pingTimeoutNanos;
    }

    private void acceptLoop() {
        while (!closed) {
            Socket socket;
            try {
                socket = serverSocket.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.error("registry server stops accepting connections", e);
                }
                return;
            }
            if (closed) {
                closeQuietly(socket);
                return;
            }
            if (connections.size() >= maxConnections) {
                LOG.warn("refusing connection from {}: already {} connections ({} = {})",
                        socket.getRemoteSocketAddress(), connections.size(),
                        RegistryProperties.SERVER_MAX_CONNECTIONS, maxConnections);
                closeQuietly(socket);
                continue;
            }
            ServerConnection connection = new ServerConnection(this, socket);
            connections.add(connection);
            if (closed) {
                connection.closeNow();
            }
            Thread reader = new Thread(connection, "ibis-registry-reader " + connection.peer());
            reader.setDaemon(true);
            reader.start();
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing to do: the connection is being dropped anyway
        }
    }

    /**
     * Admits a connection into its pool (creating the pool if needed). Called by the connection's
     * reader thread with the parsed JOIN.
     *
     * @return true when it joined; false when it was refused (the refusal was sent)
     */
    boolean join(ServerConnection connection, MemberIdentifier prototype, boolean closedWorld, int poolSize,
            int heartbeatInterval, int heartbeatTimeout) {
        String poolName = prototype.poolName();
        if (poolName.isEmpty()) {
            connection.refuse("empty pool name");
            return false;
        }
        if (closedWorld && poolSize < 1) {
            connection.refuse("closed-world pool '" + poolName + "' needs ibis.pool.size >= 1, got " + poolSize);
            return false;
        }
        if (heartbeatInterval < 1 || heartbeatTimeout <= heartbeatInterval) {
            connection.refuse("invalid heartbeat settings: interval " + heartbeatInterval + " ms, timeout "
                    + heartbeatTimeout + " ms (the timeout must exceed the interval)");
            return false;
        }
        while (true) {
            Pool pool;
            synchronized (pools) {
                if (closed) {
                    connection.closeNow();
                    return false;
                }
                pool = pools.computeIfAbsent(poolName, n -> new Pool(this, n, closedWorld, poolSize));
            }
            synchronized (pool) {
                if (pool.isRemoved()) {
                    continue; // its last member left just now; make a fresh pool
                }
                boolean joined = pool.join(connection, prototype, closedWorld, poolSize, heartbeatTimeout);
                if (!joined && pool.memberCount() == 0) {
                    synchronized (pools) {
                        pools.remove(poolName, pool);
                    }
                }
                return joined;
            }
        }
    }

    /** Called by a pool (under its lock) when its last member went. */
    void poolEmpty(Pool pool) {
        synchronized (pools) {
            pools.remove(pool.name(), pool);
        }
        LOG.debug("pool '{}' has no members left; forgetting it", pool.name());
    }

    /** Called by a connection's reader thread when it stops reading, for whatever reason. */
    void connectionEnded(ServerConnection connection) {
        Pool pool = connection.pool();
        if (pool != null && !closed) {
            pool.remove(connection, RegistryProtocol.EVENT_DIED);
        }
    }

    /** Called when a connection's socket is closed: it no longer counts against the connection limit. */
    void socketClosed(ServerConnection connection) {
        connections.remove(connection);
    }

    void fireEvent(Pool pool, long sequence, String description) {
        if (logEvents) {
            LOG.info("pool '{}' event #{}: {}", pool.name(), sequence, description);
        } else {
            LOG.debug("pool '{}' event #{}: {}", pool.name(), sequence, description);
        }
        for (Consumer<String> listener : eventListeners) {
            try {
                listener.accept("pool '" + pool.name() + "' event #" + sequence + ": " + description);
            } catch (RuntimeException e) {
                LOG.warn("registry event listener failed", e);
            }
        }
    }

    private long reapPeriodMillis() {
        // Fine enough for the smallest timeouts tests use, cheap enough for an idle server.
        return Math.max(5, Math.min(250, Math.min(handshakeTimeoutMillis, pingTimeoutNanos / 1_000_000L) / 4));
    }

    /** Enforces the handshake, heartbeat and ping deadlines. */
    private void reap() {
        try {
            long now = System.nanoTime();
            long handshakeNanos = handshakeTimeoutMillis * 1_000_000L;
            for (ServerConnection c : connections) {
                if (c.pool() == null && !c.isClosing() && now - c.acceptedAt() > handshakeNanos) {
                    LOG.warn("closing {}: no join within {} ms", c, handshakeTimeoutMillis);
                    c.closeNow();
                }
                long closeRequested = c.closeRequestedAt();
                if (closeRequested != 0 && !c.isSocketClosed() && now - closeRequested > handshakeNanos) {
                    LOG.warn("closing {}: it does not read its last messages", c);
                    c.closeNow();
                }
            }
            List<Pool> snapshot;
            synchronized (pools) {
                snapshot = new ArrayList<>(pools.values());
            }
            for (Pool pool : snapshot) {
                for (ServerConnection c : pool.overdueMembers(now)) {
                    boolean ping = c.pingDeadline() != 0 && now - c.pingDeadline() > 0;
                    LOG.warn("pool '{}': declaring {} dead: {}", pool.name(), c.member(),
                            ping ? "no answer to a ping within " + pingTimeoutNanos / 1_000_000L + " ms"
                                    : "no heartbeat for " + c.heartbeatTimeoutNanos() / 1_000_000L + " ms");
                    pool.remove(c, RegistryProtocol.EVENT_DIED);
                    c.closeNow();
                }
            }
        } catch (RuntimeException e) {
            LOG.error("registry reaper failed; continuing", e);
        }
    }
}
