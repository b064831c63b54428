package ibis.ipl.contract;

import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisFactory;
import ibis.ipl.PortType;
import ibis.ipl.RegistryEventHandler;
import ibis.registry.server.CentralRegistryServer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

/**
 * Test fixture of the contract tests: an embedded registry server listening on loopback, a pool
 * name of its own, and every Ibis instance a test created in it. Closing it ends all of them and
 * stops the server. Only the public API plus the embedded server is used, as a user program would.
 */
final class ContractPool implements AutoCloseable {

    private final CentralRegistryServer server;
    private final String poolName;
    private final List<Ibis> ibises = new ArrayList<>();

    ContractPool() throws IOException {
        Properties serverProperties = new Properties();
        serverProperties.setProperty("ibis.registry.server.bind", "127.0.0.1");
        server = new CentralRegistryServer(0, serverProperties);
        server.start();
        poolName = "contract-" + UUID.randomUUID();
    }

    String serverAddress() {
        return server.address();
    }

    String poolName() {
        return poolName;
    }

    /** The properties a member of this pool is created with. */
    Properties properties() {
        Properties p = new Properties();
        p.setProperty("ibis.server.address", server.address());
        p.setProperty("ibis.pool.name", poolName);
        p.setProperty("ibis.implementation", "tcp");
        return p;
    }

    /** The properties of a member of a closed-world pool of {@code size} members. */
    Properties properties(int size) {
        Properties p = properties();
        p.setProperty("ibis.pool.size", Integer.toString(size));
        return p;
    }

    /** A member without registry capabilities or handler. */
    Ibis create(PortType... types) throws IbisCreationFailedException {
        return create(new IbisCapabilities(), null, types);
    }

    Ibis create(IbisCapabilities capabilities, RegistryEventHandler handler, PortType... types)
            throws IbisCreationFailedException {
        return create(properties(), capabilities, handler, types);
    }

    Ibis create(Properties properties, IbisCapabilities capabilities, RegistryEventHandler handler,
            PortType... types) throws IbisCreationFailedException {
        return track(IbisFactory.createIbis(capabilities, properties, true, handler, types));
    }

    Ibis createTagged(String tag, IbisCapabilities capabilities, RegistryEventHandler handler, PortType... types)
            throws IbisCreationFailedException {
        return track(IbisFactory.createIbis(capabilities, properties(), true, handler, null, tag, types));
    }

    /** Remembers an Ibis so that {@link #close()} ends it. */
    Ibis track(Ibis ibis) {
        synchronized (ibises) {
            ibises.add(ibis);
        }
        return ibis;
    }

    @Override
    public void close() {
        List<Ibis> copy;
        synchronized (ibises) {
            copy = new ArrayList<>(ibises);
        }
        for (Ibis ibis : copy) {
            try {
                ibis.end();
            } catch (IOException | RuntimeException e) {
                // Already ended by the test, or the test broke it on purpose.
            }
        }
        server.close();
    }
}
