package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public final class PortType extends CapabilitySet {
    private static final String CONNECTION = "connection";
    private static final String RECEIVE = "receive";
    private static final String COMMUNICATION = "communication";
    private static final String SERIALIZATION = "serialization";

    public final static String CONNECTION_ONE_TO_ONE = CONNECTION + ".onetoone";

    public final static String CONNECTION_ONE_TO_MANY = CONNECTION + ".onetomany";

    public final static String CONNECTION_MANY_TO_ONE = CONNECTION + ".manytoone";

    public final static String CONNECTION_MANY_TO_MANY = CONNECTION + ".manytomany";

    public final static String CONNECTION_DOWNCALLS = CONNECTION + ".downcalls";

    public final static String CONNECTION_UPCALLS = CONNECTION + ".upcalls";

    public final static String CONNECTION_TIMEOUT = CONNECTION + ".timeout";

    public final static String CONNECTION_LIGHT = CONNECTION + ".light";

    public final static String CONNECTION_ULTRALIGHT = CONNECTION + ".ultralight";

    public final static String CONNECTION_DIRECT = CONNECTION + ".direct";

    public final static String RECEIVE_EXPLICIT = RECEIVE + ".explicit";

    public final static String RECEIVE_TIMEOUT = RECEIVE + ".timeout";

    public final static String RECEIVE_POLL = RECEIVE + ".poll";

    public final static String RECEIVE_AUTO_UPCALLS = RECEIVE + ".autoupcalls";

    public final static String RECEIVE_POLL_UPCALLS = RECEIVE + ".pollupcalls";

    public final static String COMMUNICATION_FIFO = COMMUNICATION + ".fifo";

    public final static String COMMUNICATION_NUMBERED = COMMUNICATION + ".numbered";

    public final static String COMMUNICATION_RELIABLE = COMMUNICATION + ".reliable";

    public final static String COMMUNICATION_UNRELIABLE = COMMUNICATION + ".unreliable";

    public final static String COMMUNICATION_RELIABLE_UNSAFE = COMMUNICATION + ".reliable.unsafe";

    public final static String SERIALIZATION_BYTE = SERIALIZATION + ".byte";

    public final static String SERIALIZATION_DATA = SERIALIZATION + ".data";

    public final static String SERIALIZATION_OBJECT = SERIALIZATION + ".object";

    public final static String SERIALIZATION_OBJECT_IBIS = SERIALIZATION_OBJECT + ".ibis";

    public final static String SERIALIZATION_OBJECT_SUN = SERIALIZATION_OBJECT + ".sun";

    public PortType(String... capabilities) {
        // TODO
    }

    public PortType(DataInput dataInput) throws IOException {
        // TODO
    }
}
