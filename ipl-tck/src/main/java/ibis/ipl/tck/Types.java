package ibis.ipl.tck;

import ibis.ipl.PortType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Port types as IPL programs write them: a cardinality, a serialization and what they use. */
final class Types {

    private Types() {
    }

    /** Everything about receiving and connection bookkeeping that a test may use. */
    private static final String[] EVERYTHING = {
        PortType.RECEIVE_EXPLICIT, PortType.RECEIVE_TIMEOUT, PortType.RECEIVE_POLL, PortType.RECEIVE_AUTO_UPCALLS,
        PortType.COMMUNICATION_FIFO, PortType.COMMUNICATION_RELIABLE, PortType.CONNECTION_DOWNCALLS,
        PortType.CONNECTION_UPCALLS, PortType.CONNECTION_TIMEOUT
    };

    /** A port type with the given cardinality and serialization and every receive/connection option. */
    static PortType full(String cardinality, String serialization, String... extra) {
        List<String> caps = new ArrayList<>(Arrays.asList(EVERYTHING));
        caps.add(cardinality);
        caps.add(serialization);
        caps.addAll(Arrays.asList(extra));
        return new PortType(caps.toArray(new String[0]));
    }

    static final PortType ONE_TO_ONE = full(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA);
    static final PortType MANY_TO_ONE = full(PortType.CONNECTION_MANY_TO_ONE, PortType.SERIALIZATION_DATA);
    static final PortType ONE_TO_MANY = full(PortType.CONNECTION_ONE_TO_MANY, PortType.SERIALIZATION_DATA);
    static final PortType MANY_TO_MANY = full(PortType.CONNECTION_MANY_TO_MANY, PortType.SERIALIZATION_DATA);
    static final PortType OBJECT_ONE_TO_ONE = full(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_OBJECT);
    /** Requests of many clients, as request/reply programs have them (serialization.object: ibis). */
    static final PortType OBJECT_MANY_TO_ONE = full(PortType.CONNECTION_MANY_TO_ONE, PortType.SERIALIZATION_OBJECT);
    static final PortType SUN_ONE_TO_ONE = full(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_OBJECT_SUN);
    static final PortType NUMBERED = full(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA,
            PortType.COMMUNICATION_NUMBERED);

    /** Every type above, for an Ibis that may use any of them. */
    static final PortType[] ALL = {ONE_TO_ONE, MANY_TO_ONE, ONE_TO_MANY, MANY_TO_MANY, OBJECT_ONE_TO_ONE,
        OBJECT_MANY_TO_ONE, SUN_ONE_TO_ONE, NUMBERED};

    /** The classic minimal type of IPL example programs. */
    static final PortType CLASSIC = new PortType(PortType.COMMUNICATION_RELIABLE, PortType.SERIALIZATION_DATA,
            PortType.RECEIVE_EXPLICIT, PortType.CONNECTION_ONE_TO_ONE);
}
