package ibis.ipl;

import java.io.DataInput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The type of a send or receive port: the set of capabilities the program needs of the
 * communication through it. Every port is created with a port type, and a send port can only be
 * connected to a receive port of an equal port type (otherwise {@link PortMismatchException}).
 * An Ibis implementation is only chosen when it supports all port types passed to
 * {@link IbisFactory#createIbis}, and only those port types may be used with it.
 *
 * <p>A port type must hold exactly one connection cardinality ({@link #CONNECTION_ONE_TO_ONE},
 * {@link #CONNECTION_ONE_TO_MANY}, {@link #CONNECTION_MANY_TO_ONE},
 * {@link #CONNECTION_MANY_TO_MANY}) and at least one serialization (a capability starting with
 * {@code serialization.}); the constructors check this. The other capabilities say how messages
 * may be received (explicitly, with a time-out, by polling, by upcalls), what ordering and
 * numbering guarantees hold, and which connection events the program wants to hear about.
 *
 * <p>Example: {@code new PortType(PortType.CONNECTION_ONE_TO_MANY, PortType.SERIALIZATION_OBJECT,
 * PortType.RECEIVE_AUTO_UPCALLS, PortType.COMMUNICATION_RELIABLE)}.
 *
 * <p>Instances are immutable.
 */
public final class PortType extends CapabilitySet {
    private static final String CONNECTION = "connection";
    private static final String RECEIVE = "receive";
    private static final String COMMUNICATION = "communication";
    private static final String SERIALIZATION = "serialization";

    /** A send port connects to at most one receive port, and a receive port accepts at most one send port. */
    public final static String CONNECTION_ONE_TO_ONE = CONNECTION + ".onetoone";

    /** A send port may connect to many receive ports (multicast); a receive port accepts one send port. */
    public final static String CONNECTION_ONE_TO_MANY = CONNECTION + ".onetomany";

    /** Many send ports may connect to one receive port; a send port connects to at most one receive port. */
    public final static String CONNECTION_MANY_TO_ONE = CONNECTION + ".manytoone";

    /** Send ports may connect to many receive ports, and receive ports accept many send ports. */
    public final static String CONNECTION_MANY_TO_MANY = CONNECTION + ".manytomany";

    /**
     * The ports report new and lost connections through {@code connectedTo()},
     * {@code lostConnections()} and {@code newConnections()}.
     */
    public final static String CONNECTION_DOWNCALLS = CONNECTION + ".downcalls";

    /**
     * The ports report new and lost connections through {@link ReceivePortConnectUpcall} and
     * {@link SendPortDisconnectUpcall}.
     */
    public final static String CONNECTION_UPCALLS = CONNECTION + ".upcalls";

    /** Connection set-up may be given a time-out. */
    public final static String CONNECTION_TIMEOUT = CONNECTION + ".timeout";

    /** Connections may be cheaper to set up; lost connections need not be detected or reported. */
    public final static String CONNECTION_LIGHT = CONNECTION + ".light";

    /** Like {@link #CONNECTION_LIGHT}, and connection set-up is not even confirmed to the sender. */
    public final static String CONNECTION_ULTRALIGHT = CONNECTION + ".ultralight";

    /** Connections go directly between the two hosts, without routing through a third party. */
    public final static String CONNECTION_DIRECT = CONNECTION + ".direct";

    /** Messages are received with {@link ReceivePort#receive()}. */
    public final static String RECEIVE_EXPLICIT = RECEIVE + ".explicit";

    /** {@link ReceivePort#receive(long)} with a time-out is used. */
    public final static String RECEIVE_TIMEOUT = RECEIVE + ".timeout";

    /** {@link ReceivePort#poll()} is used. */
    public final static String RECEIVE_POLL = RECEIVE + ".poll";

    /** Messages are delivered by {@link MessageUpcall}s, made by Ibis threads without the program polling. */
    public final static String RECEIVE_AUTO_UPCALLS = RECEIVE + ".autoupcalls";

    /**
     * Messages are delivered by {@link MessageUpcall}s, made only while the program calls
     * {@link Ibis#poll()} or {@link ReceivePort#poll()}.
     */
    public final static String RECEIVE_POLL_UPCALLS = RECEIVE + ".pollupcalls";

    /** The messages of one connection (one send port to one receive port) arrive in the order they were sent. */
    public final static String COMMUNICATION_FIFO = COMMUNICATION + ".fifo";

    /**
     * Messages carry a sequence number ({@link ReadMessage#sequenceNumber()}), starting at
     * {@link ReadMessage#INITIAL_SEQNO}.
     */
    public final static String COMMUNICATION_NUMBERED = COMMUNICATION + ".numbered";

    /** Messages are not lost, duplicated or corrupted while the connection lives. */
    public final static String COMMUNICATION_RELIABLE = COMMUNICATION + ".reliable";

    /** Messages may be lost. */
    public final static String COMMUNICATION_UNRELIABLE = COMMUNICATION + ".unreliable";

    /** Reliable while nothing fails, but messages under way may be lost when a connection breaks. */
    public final static String COMMUNICATION_RELIABLE_UNSAFE = COMMUNICATION + ".reliable.unsafe";

    /** Messages hold only bytes ({@code writeByte}, {@code writeArray(byte[])}). */
    public final static String SERIALIZATION_BYTE = SERIALIZATION + ".byte";

    /** Messages hold primitive values, strings and arrays of primitives. */
    public final static String SERIALIZATION_DATA = SERIALIZATION + ".data";

    /** Messages may hold objects ({@code writeObject}); any object serialization may be used. */
    public final static String SERIALIZATION_OBJECT = SERIALIZATION + ".object";

    /** Messages may hold objects, written with Ibis's own (fast) object serialization. */
    public final static String SERIALIZATION_OBJECT_IBIS = SERIALIZATION_OBJECT + ".ibis";

    /** Messages may hold objects, written with the JDK's object serialization. */
    public final static String SERIALIZATION_OBJECT_SUN = SERIALIZATION_OBJECT + ".sun";

    /** The connection cardinalities, of which a port type has exactly one. */
    static final List<String> CARDINALITIES = List.of(CONNECTION_ONE_TO_ONE, CONNECTION_ONE_TO_MANY,
            CONNECTION_MANY_TO_ONE, CONNECTION_MANY_TO_MANY);

    /** The serializations, of which a port type has at least one. */
    static final List<String> SERIALIZATIONS = List.of(SERIALIZATION_BYTE, SERIALIZATION_DATA, SERIALIZATION_OBJECT,
            SERIALIZATION_OBJECT_IBIS, SERIALIZATION_OBJECT_SUN);

    /**
     * Creates a port type.
     *
     * @param capabilities the capabilities of the port type
     * @throws IbisConfigurationException when the capabilities do not hold exactly one connection
     *         cardinality and at least one serialization
     */
    public PortType(String... capabilities) {
        super(capabilities);
        String problem = problem();
        if (problem != null) {
            throw new IbisConfigurationException(problem);
        }
    }

    /**
     * Reads a port type written by {@link #writeTo(java.io.DataOutput)}.
     *
     * @param dataInput where to read from
     * @throws IOException when reading fails, the input is malformed, or it does not describe a
     *         valid port type
     */
    public PortType(DataInput dataInput) throws IOException {
        super(dataInput);
        String problem = problem();
        if (problem != null) {
            throw new IOException("malformed port type: " + problem);
        }
    }

    /** Says what is wrong with this port type, or null when it is valid. */
    private String problem() {
        List<String> cardinalities = new ArrayList<>();
        for (String c : CARDINALITIES) {
            if (hasCapability(c)) {
                cardinalities.add(c);
            }
        }
        String allowed = String.join(", ", CARDINALITIES);
        if (cardinalities.isEmpty()) {
            return "port type " + this + " has no connection cardinality; it needs exactly one of " + allowed;
        }
        if (cardinalities.size() > 1) {
            return "port type " + this + " has " + cardinalities.size() + " connection cardinalities ("
                    + String.join(", ", cardinalities) + "); it needs exactly one of " + allowed;
        }
        if (getCapabilitiesWithPrefix(SERIALIZATION + ".").size() == 0) {
            return "port type " + this + " has no serialization; it needs at least one of "
                    + String.join(", ", SERIALIZATIONS);
        }
        return null;
    }
}
