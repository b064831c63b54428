package ibis.benchmarks.ipl;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisProperties;
import ibis.ipl.PortType;

import java.util.Properties;

/**
 * Port types, port names, message layout and pool settings shared by the driver and the peer JVM.
 *
 * <p>Stream messages (driver to peer): {@code byte flags} ({@link #ACK_REQUESTED} asks the peer to
 * acknowledge this message), {@code byte what} (an {@link ArrayKind} ordinal or {@link #TREE}), then
 * the payload: {@code writeArray} on the data and byte ports, {@code writeObject} on the object
 * ports. The acknowledgement (peer to driver) is one {@code long}: the checksum of the payload of
 * the acknowledged message, which the driver compares with its own.
 */
final class BenchPorts {

    /** Round trips and acknowledgements with explicit receive, data serialization. */
    static final PortType EXPLICIT_DATA = explicit(PortType.SERIALIZATION_DATA);

    /** Round trips with upcalls on both sides. */
    static final PortType UPCALL_DATA = new PortType(PortType.CONNECTION_ONE_TO_ONE,
            PortType.SERIALIZATION_DATA, PortType.RECEIVE_AUTO_UPCALLS, PortType.COMMUNICATION_RELIABLE);

    /** Streaming byte[] with the byte serialization. */
    static final PortType EXPLICIT_BYTE = explicit(PortType.SERIALIZATION_BYTE);

    /** Streaming objects with the Ibis object serialization. */
    static final PortType EXPLICIT_IBIS = explicit(PortType.SERIALIZATION_OBJECT_IBIS);

    /** Streaming objects with the JDK object serialization. */
    static final PortType EXPLICIT_SUN = explicit(PortType.SERIALIZATION_OBJECT_SUN);

    static final IbisCapabilities CAPABILITIES = new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT);

    /** The {@code what} byte of a stream message carrying the 1023-node tree. */
    static final byte TREE = 100;

    /** Bit of the {@code flags} byte of a stream message: acknowledge it. */
    static final byte ACK_REQUESTED = 1;

    /** The serializations of the stream ports, in the order of {@link #streamPortTypes()}. */
    enum Stream {
        DATA("data", EXPLICIT_DATA),
        BYTE("byte", EXPLICIT_BYTE),
        IBIS("object.ibis", EXPLICIT_IBIS),
        SUN("object.sun", EXPLICIT_SUN);

        final String serialization;
        final PortType type;

        Stream(String serialization, PortType type) {
            this.serialization = serialization;
            this.type = type;
        }

        /** Object ports send the payload with writeObject, the others with writeArray. */
        boolean objects() {
            return this == IBIS || this == SUN;
        }

        /** Name of the peer's receive port of this stream. */
        String streamPort() {
            return "stream-" + name().toLowerCase(java.util.Locale.ROOT);
        }

        /** Name of the driver's receive port for the acknowledgements of this stream. */
        String ackPort() {
            return "ack-" + name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    // Receive ports of the peer.
    static final String PING_EXPLICIT = "ping-explicit";
    static final String PING_UPCALL = "ping-upcall";

    // Receive ports of the driver.
    static final String REPLY_EXPLICIT = "reply-explicit";
    static final String REPLY_UPCALL = "reply-upcall";

    // Elections that order the set-up: the driver's ports exist, then the peer's.
    static final String DRIVER_READY = "driver";
    static final String PEER_READY = "peer";

    /** How long set-up steps (elections, connects) may take. */
    static final long SETUP_TIMEOUT_MILLIS = 120_000;

    private BenchPorts() {
    }

    private static PortType explicit(String serialization) {
        return new PortType(PortType.CONNECTION_ONE_TO_ONE, serialization, PortType.RECEIVE_EXPLICIT,
                PortType.RECEIVE_TIMEOUT, PortType.COMMUNICATION_RELIABLE);
    }

    /** How long the driver waits for an acknowledgement before it declares the peer stuck. */
    static final long ACK_TIMEOUT_MILLIS = 300_000;

    static PortType[] all() {
        return new PortType[] {EXPLICIT_DATA, UPCALL_DATA, EXPLICIT_BYTE, EXPLICIT_IBIS, EXPLICIT_SUN};
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
