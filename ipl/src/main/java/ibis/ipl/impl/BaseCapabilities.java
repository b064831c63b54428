package ibis.ipl.impl;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.PortType;

import java.util.Set;

/**
 * The capabilities the implementation base offers, for the {@link ibis.ipl.IbisStarter} of a network
 * implementation built on it: the base implements every port type capability in {@link #PORT_TYPE}
 * over any {@link Transport}, and the registry it joins through offers those in {@link #IBIS}. A
 * starter that adds nothing and leaves nothing out uses these sets as they are (its
 * {@code matches()} accepts exactly them), so that a capability added to the base reaches every
 * implementation at once. The IPL conformance suite ({@code ibis-ipl-tck}) tests all of them.
 *
 * <p>{@code connection.direct}, {@code connection.light} and {@code connection.ultralight}, which
 * IPL 2.x's default implementation offered and programs of that time ask for, are served with the
 * ordinary connections of the transport: every connection is a direct one between the two
 * processes (no relay), and reliable with no message size limit, which is what a light or
 * ultralight connection may give up, not what it must lack.
 */
public final class BaseCapabilities {

    /** Every port type capability the base implements. */
    public static final Set<String> PORT_TYPE = Set.of(
            PortType.CONNECTION_ONE_TO_ONE, PortType.CONNECTION_ONE_TO_MANY, PortType.CONNECTION_MANY_TO_ONE,
            PortType.CONNECTION_MANY_TO_MANY, PortType.CONNECTION_DOWNCALLS, PortType.CONNECTION_UPCALLS,
            PortType.CONNECTION_TIMEOUT, PortType.CONNECTION_DIRECT, PortType.CONNECTION_LIGHT,
            PortType.CONNECTION_ULTRALIGHT,
            PortType.RECEIVE_EXPLICIT, PortType.RECEIVE_TIMEOUT, PortType.RECEIVE_POLL, PortType.RECEIVE_AUTO_UPCALLS,
            PortType.RECEIVE_POLL_UPCALLS,
            PortType.COMMUNICATION_FIFO, PortType.COMMUNICATION_NUMBERED, PortType.COMMUNICATION_RELIABLE,
            PortType.SERIALIZATION_BYTE, PortType.SERIALIZATION_DATA, PortType.SERIALIZATION_OBJECT,
            PortType.SERIALIZATION_OBJECT_SUN, PortType.SERIALIZATION_OBJECT_IBIS);

    /** Every Ibis capability the base offers, through the central registry. */
    public static final Set<String> IBIS = Set.of(
            IbisCapabilities.CLOSED_WORLD, IbisCapabilities.SIGNALS, IbisCapabilities.TERMINATION,
            IbisCapabilities.ELECTIONS_UNRELIABLE, IbisCapabilities.ELECTIONS_STRICT,
            IbisCapabilities.MEMBERSHIP_UNRELIABLE, IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED,
            IbisCapabilities.MALLEABLE);

    private BaseCapabilities() {
    }
}
