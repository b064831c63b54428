package ibis.testsupport;

import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisProperties;
import ibis.ipl.PortType;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.RegistryClient;
import ibis.registry.RegistryProperties;
import ibis.registry.central.CentralRegistryProvider;
import ibis.registry.server.CentralRegistryServer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

/**
 * A pool for a test: an embedded registry server on an ephemeral loopback port, a pool name of its
 * own, and every member a test created in it, either an Ibis instance (through the public
 * {@link IbisFactory}, as a user program would) or a bare registry client. Closing it ends every
 * member and stops the server.
 */
public final class PoolFixture implements AutoCloseable {

    private final CentralRegistryServer server;
    private final String implementation;
    private final String poolName = "test-" + UUID.randomUUID();
    private final List<AutoCloseable> members = new ArrayList<>();

    /** A server with default settings; Ibis instances get the default implementation. */
    public PoolFixture() throws IOException {
        this(null, new Properties());
    }

    /** A server with default settings; Ibis instances get {@code implementation} (a nickname, or null). */
    public PoolFixture(String implementation) throws IOException {
        this(implementation, new Properties());
    }

    /**
     * A server with the given server properties (always bound to 127.0.0.1); Ibis instances get
     * {@code implementation} (a nickname, or null for the default choice).
     */
    public PoolFixture(String implementation, Properties serverProperties) throws IOException {
        this.implementation = implementation;
        Properties p = new Properties();
        p.putAll(serverProperties);
        p.setProperty(RegistryProperties.SERVER_BIND, "127.0.0.1");
        server = new CentralRegistryServer(0, p);
        server.start();
    }

    /** The embedded server. */
    public CentralRegistryServer server() {
        return server;
    }

    /** The server's address, {@code host:port}. */
    public String serverAddress() {
        return server.address();
    }

    /** This pool's name. */
    public String poolName() {
        return poolName;
    }

    /** The implementation Ibis instances of this pool are created with, or null for the default choice. */
    public String implementation() {
        return implementation;
    }

    /** The properties an Ibis of this pool is created with: server, pool name, implementation. */
    public Properties properties() {
        Properties p = new Properties();
        p.setProperty(IbisProperties.SERVER_ADDRESS, server.address());
        p.setProperty(IbisProperties.POOL_NAME, poolName);
        if (implementation != null) {
            p.setProperty(IbisProperties.IMPLEMENTATION, implementation);
        }
        return p;
    }

    /** The properties of an Ibis of a closed-world pool of {@code size} members. */
    public Properties properties(int size) {
        Properties p = properties();
        p.setProperty(IbisProperties.POOL_SIZE, Integer.toString(size));
        return p;
    }

    /** An Ibis without registry capabilities or handler. */
    public Ibis create(PortType... types) throws IbisCreationFailedException {
        return create(new IbisCapabilities(), null, types);
    }

    /** An Ibis with the pool's properties. */
    public Ibis create(IbisCapabilities capabilities, RegistryEventHandler handler, PortType... types)
            throws IbisCreationFailedException {
        return create(properties(), capabilities, handler, types);
    }

    /** An Ibis with the given properties. */
    public Ibis create(Properties properties, IbisCapabilities capabilities, RegistryEventHandler handler,
            PortType... types) throws IbisCreationFailedException {
        return track(IbisFactory.createIbis(capabilities, properties, true, handler, types));
    }

    /** An Ibis with the pool's properties and an application tag. */
    public Ibis createTagged(String tag, IbisCapabilities capabilities, RegistryEventHandler handler,
            PortType... types) throws IbisCreationFailedException {
        return track(IbisFactory.createIbis(capabilities, properties(), true, handler, null, tag, types));
    }

    /** Remembers an Ibis so that {@link #close()} ends it. */
    public Ibis track(Ibis ibis) {
        synchronized (members) {
            members.add(ibis::end);
        }
        return ibis;
    }

    /** Registry-client properties for pool {@code pool} (any name) at this server. */
    public Properties memberProperties(String pool) {
        Properties p = new Properties();
        p.setProperty(IbisProperties.SERVER_ADDRESS, server.address());
        p.setProperty(IbisProperties.POOL_NAME, pool);
        p.setProperty(RegistryProperties.CONNECT_TIMEOUT, "20000");
        return p;
    }

    /** A bare registry client in pool {@code pool}, with default properties. */
    public RegistryClient join(String pool, IbisCapabilities capabilities, RegistryEventHandler handler)
            throws IOException {
        return join(memberProperties(pool), capabilities, handler);
    }

    /** A bare registry client with the given properties (implementation "test", dummy contact data). */
    public RegistryClient join(Properties properties, IbisCapabilities capabilities, RegistryEventHandler handler)
            throws IOException {
        return join(properties, capabilities, handler, "test", "dummy contact data".getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A bare registry client that other members see as a member running {@code implementationName}
     * with the given contact data (for example a member of another implementation).
     */
    public RegistryClient join(Properties properties, IbisCapabilities capabilities, RegistryEventHandler handler,
            String implementationName, byte[] contactData) throws IOException {
        RegistryClient client = new CentralRegistryProvider().join(capabilities, handler, properties,
                implementationName, contactData, null);
        synchronized (members) {
            members.add(client::leave);
        }
        return client;
    }

    /** Every capability the central registry offers. */
    public static IbisCapabilities allRegistryCapabilities() {
        return new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT, IbisCapabilities.SIGNALS,
                IbisCapabilities.TERMINATION, IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);
    }

    @Override
    public void close() {
        List<AutoCloseable> copy;
        synchronized (members) {
            copy = new ArrayList<>(members);
        }
        for (AutoCloseable member : copy) {
            try {
                member.close();
            } catch (Exception e) {
                // Already ended by the test, or broken on purpose by it; the server closes anyway.
            }
        }
        server.close();
    }
}
