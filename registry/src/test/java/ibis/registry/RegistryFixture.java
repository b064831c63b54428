package ibis.registry;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisProperties;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.RegistryClient;
import ibis.registry.central.CentralRegistryProvider;
import ibis.registry.server.CentralRegistryServer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * An embedded registry server on an ephemeral loopback port plus the members a test joined;
 * closing it makes every member leave and stops the server.
 */
public final class RegistryFixture implements AutoCloseable {

    private final CentralRegistryServer server;
    private final List<RegistryClient> clients = new ArrayList<>();

    /** Starts a server with default settings. */
    public RegistryFixture() throws IOException {
        this(new Properties());
    }

    /** Starts a server with the given server properties (bound to 127.0.0.1). */
    public RegistryFixture(Properties serverProperties) throws IOException {
        Properties p = new Properties();
        p.putAll(serverProperties);
        p.setProperty(RegistryProperties.SERVER_BIND, "127.0.0.1");
        server = new CentralRegistryServer(0, p);
        server.start();
    }

    public CentralRegistryServer server() {
        return server;
    }

    /** Member properties for {@code pool} at this server. */
    public Properties memberProperties(String pool) {
        Properties p = new Properties();
        p.setProperty(IbisProperties.SERVER_ADDRESS, server.address());
        p.setProperty(IbisProperties.POOL_NAME, pool);
        p.setProperty(RegistryProperties.CONNECT_TIMEOUT, "20000");
        return p;
    }

    /** Joins {@code pool} with default member properties. */
    public RegistryClient join(String pool, IbisCapabilities capabilities, RegistryEventHandler handler)
            throws IOException {
        return join(memberProperties(pool), capabilities, handler);
    }

    /** Joins with the given member properties (implementation "test", dummy contact data). */
    public RegistryClient join(Properties properties, IbisCapabilities capabilities, RegistryEventHandler handler)
            throws IOException {
        RegistryClient client = new CentralRegistryProvider().join(capabilities, handler, properties, "test",
                "dummy contact data".getBytes(StandardCharsets.UTF_8), null);
        synchronized (clients) {
            clients.add(client);
        }
        return client;
    }

    /** All capabilities the registry knows. */
    public static IbisCapabilities allCapabilities() {
        return new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT, IbisCapabilities.SIGNALS,
                IbisCapabilities.TERMINATION, IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);
    }

    @Override
    public void close() {
        List<RegistryClient> copy;
        synchronized (clients) {
            copy = new ArrayList<>(clients);
        }
        for (RegistryClient c : copy) {
            try {
                c.leave();
            } catch (IOException | RuntimeException e) {
                // the test is over; the server closes anyway
            }
        }
        server.close();
    }
}
