package ibis.impl.tcp;

import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisProperties;
import ibis.ipl.PortType;
import ibis.ipl.RegistryEventHandler;
import ibis.registry.RegistryProperties;
import ibis.registry.server.CentralRegistryServer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

/**
 * An embedded registry server on a loopback port plus the TCP Ibis instances a test created in one
 * pool; closing it ends them all and stops the server.
 */
final class TestPool implements AutoCloseable {

    /** Explicit receipt with every receive variant; one-to-one; data serialization. */
    static final PortType ONE_TO_ONE = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA,
            PortType.RECEIVE_EXPLICIT, PortType.RECEIVE_TIMEOUT, PortType.RECEIVE_POLL, PortType.COMMUNICATION_FIFO,
            PortType.CONNECTION_DOWNCALLS, PortType.CONNECTION_UPCALLS, PortType.COMMUNICATION_RELIABLE);

    /** Upcalls; many senders; data serialization. */
    static final PortType MANY_TO_ONE_UPCALLS = new PortType(PortType.CONNECTION_MANY_TO_ONE,
            PortType.SERIALIZATION_DATA, PortType.RECEIVE_AUTO_UPCALLS, PortType.COMMUNICATION_FIFO,
            PortType.CONNECTION_UPCALLS, PortType.CONNECTION_DOWNCALLS, PortType.COMMUNICATION_RELIABLE);

    /** Explicit receipt; many senders; data serialization. */
    static final PortType MANY_TO_ONE_EXPLICIT = new PortType(PortType.CONNECTION_MANY_TO_ONE,
            PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT, PortType.RECEIVE_TIMEOUT, PortType.RECEIVE_POLL,
            PortType.COMMUNICATION_FIFO, PortType.CONNECTION_UPCALLS, PortType.CONNECTION_DOWNCALLS,
            PortType.COMMUNICATION_RELIABLE);

    /** Multicast; explicit receipt; data serialization. */
    static final PortType ONE_TO_MANY = new PortType(PortType.CONNECTION_ONE_TO_MANY, PortType.SERIALIZATION_DATA,
            PortType.RECEIVE_EXPLICIT, PortType.RECEIVE_TIMEOUT, PortType.COMMUNICATION_FIFO,
            PortType.CONNECTION_UPCALLS, PortType.CONNECTION_DOWNCALLS, PortType.COMMUNICATION_RELIABLE);

    /** Numbered messages. */
    static final PortType NUMBERED = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA,
            PortType.RECEIVE_EXPLICIT, PortType.COMMUNICATION_NUMBERED, PortType.COMMUNICATION_FIFO);

    private final CentralRegistryServer server;
    private final String poolName = "tcp-test-" + UUID.randomUUID();
    private final List<Ibis> ibises = new ArrayList<>();

    TestPool() throws IOException {
        Properties p = new Properties();
        p.setProperty(RegistryProperties.SERVER_BIND, "127.0.0.1");
        server = new CentralRegistryServer(0, p);
        server.start();
    }

    String serverAddress() {
        return server.address();
    }

    String poolName() {
        return poolName;
    }

    /** Member properties: this pool, this server, the tcp implementation. */
    Properties properties() {
        Properties p = new Properties();
        p.setProperty(IbisProperties.SERVER_ADDRESS, server.address());
        p.setProperty(IbisProperties.POOL_NAME, poolName);
        p.setProperty(IbisProperties.IMPLEMENTATION, "tcp");
        return p;
    }

    Ibis create(PortType... types) throws IbisCreationFailedException {
        return create(properties(), new IbisCapabilities(), null, types);
    }

    Ibis create(Properties properties, IbisCapabilities capabilities, RegistryEventHandler handler,
            PortType... types) throws IbisCreationFailedException {
        Ibis ibis = IbisFactory.createIbis(capabilities, properties, true, handler, types);
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
                // ending what a test left behind; failures there were the test's business
            }
        }
        server.close();
    }
}
