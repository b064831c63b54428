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

    /** Multicast: one send port of the driver to several receive ports of the peer. */
    static final PortType MULTICAST_DATA = new PortType(PortType.CONNECTION_ONE_TO_MANY,
            PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT, PortType.RECEIVE_TIMEOUT,
            PortType.COMMUNICATION_RELIABLE);

    /**
     * Many-to-one: several send ports of the driver to one receive port of the peer; also the
     * acknowledgements of all group receivers to the driver.
     */
    static final PortType MANY_TO_ONE_DATA = new PortType(PortType.CONNECTION_MANY_TO_ONE,
            PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT, PortType.RECEIVE_TIMEOUT,
            PortType.COMMUNICATION_RELIABLE);

    /**
     * The group sizes of the one-to-many and many-to-one figures. Each multicast size has receive
     * ports of its own ({@link #multicastPort}: a one-to-many receive port takes one sender); the
     * many-to-one senders are numbered across all sizes ({@link #manyToOneSender}).
     */
    static final int[] GROUP_SIZES = {1, 2, 4, 8};

    // Group messages (driver to peer): byte flags, byte sender number, then a 100 KB byte[] with
    // writeArray. The acknowledgement (peer to driver, on GROUP_ACK): byte who (the multicast
    // receiver's index in its group, or the many-to-one sender's number), long checksum.
    static final String MANY_TO_ONE = "many-to-one";
    static final String GROUP_ACK = "group-ack";

    /** Name of receive port {@code i} of the multicast group of size {@code size}. */
    static String multicastPort(int size, int i) {
        return "multicast-" + size + "-" + i;
    }

    /** Number of many-to-one sender {@code i} of the group of size {@code size} (0 .. 14). */
    static int manyToOneSender(int size, int i) {
        return size - 1 + i;
    }

    static final IbisCapabilities CAPABILITIES = new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT);

    /** The {@code what} byte of a stream message carrying the 1023-node tree. */
    static final byte TREE = 100;

    /**
     * The {@code what} byte of a data stream message carrying {@code int n} and {@code n} bytes
     * ({@link SizedMessages}).
     */
    static final byte SIZED = 101;

    /**
     * The {@code what} byte of a data stream message carrying the 100 KB byte payload through
     * {@code writeByteBuffer} of a direct buffer, read with {@code readByteBuffer} into one.
     */
    static final byte DIRECT = 102;

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
    static final String PING_SIZED = "ping-sized";

    // Receive ports of the driver.
    static final String REPLY_EXPLICIT = "reply-explicit";
    static final String REPLY_UPCALL = "reply-upcall";
    static final String REPLY_SIZED = "reply-sized";

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
        return new PortType[] {EXPLICIT_DATA, UPCALL_DATA, EXPLICIT_BYTE, EXPLICIT_IBIS, EXPLICIT_SUN, MULTICAST_DATA,
            MANY_TO_ONE_DATA};
    }

    /** The Ibis properties of both members of the two-member benchmark pool over {@code implementation}. */
    static Properties poolProperties(String server, String pool, String implementation) {
        Properties p = new Properties();
        p.setProperty(IbisProperties.SERVER_ADDRESS, server);
        p.setProperty(IbisProperties.POOL_NAME, pool);
        p.setProperty(IbisProperties.POOL_SIZE, "2");
        p.setProperty(IbisProperties.IMPLEMENTATION, implementation);
        return p;
    }
}
