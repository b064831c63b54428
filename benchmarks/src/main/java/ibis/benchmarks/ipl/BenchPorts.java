package ibis.benchmarks.ipl;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisProperties;
import ibis.ipl.PortType;

import java.util.Properties;

/** Port types, port names and pool settings shared by the driver and the peer JVM. */
final class BenchPorts {

    /** Round trips and acknowledgements with explicit receive, data serialization. */
    static final PortType EXPLICIT_DATA = new PortType(PortType.CONNECTION_ONE_TO_ONE,
            PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT, PortType.COMMUNICATION_RELIABLE);

    /** Round trips with upcalls on both sides. */
    static final PortType UPCALL_DATA = new PortType(PortType.CONNECTION_ONE_TO_ONE,
            PortType.SERIALIZATION_DATA, PortType.RECEIVE_AUTO_UPCALLS, PortType.COMMUNICATION_RELIABLE);

    /** Streaming byte[] with the byte serialization. */
    static final PortType EXPLICIT_BYTE = new PortType(PortType.CONNECTION_ONE_TO_ONE,
            PortType.SERIALIZATION_BYTE, PortType.RECEIVE_EXPLICIT, PortType.COMMUNICATION_RELIABLE);

    static final IbisCapabilities CAPABILITIES = new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT);

    // Receive ports of the peer.
    static final String PING_EXPLICIT = "ping-explicit";
    static final String PING_UPCALL = "ping-upcall";
    static final String STREAM_DATA = "stream-data";
    static final String STREAM_BYTE = "stream-byte";

    // Receive ports of the driver.
    static final String REPLY_EXPLICIT = "reply-explicit";
    static final String REPLY_UPCALL = "reply-upcall";
    static final String ACK_DATA = "ack-data";
    static final String ACK_BYTE = "ack-byte";

    // Elections that order the set-up: the driver's ports exist, then the peer's.
    static final String DRIVER_READY = "driver";
    static final String PEER_READY = "peer";

    /** How long set-up steps (elections, connects) may take. */
    static final long SETUP_TIMEOUT_MILLIS = 120_000;

    private BenchPorts() {
    }

    static PortType[] all() {
        return new PortType[] {EXPLICIT_DATA, UPCALL_DATA, EXPLICIT_BYTE};
    }

    /** The Ibis properties of both members of the two-member benchmark pool. */
    static Properties poolProperties(String server, String pool) {
        Properties p = new Properties();
        p.setProperty(IbisProperties.SERVER_ADDRESS, server);
        p.setProperty(IbisProperties.POOL_NAME, pool);
        p.setProperty(IbisProperties.POOL_SIZE, "2");
        p.setProperty(IbisProperties.IMPLEMENTATION, System.getProperty(IbisProperties.IMPLEMENTATION, "tcp"));
        return p;
    }
}
