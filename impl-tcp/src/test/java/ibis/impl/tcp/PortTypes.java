package ibis.impl.tcp;

import ibis.ipl.PortType;

/** The port types of the TCP tests. */
final class PortTypes {

    private PortTypes() {
    }

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
}
