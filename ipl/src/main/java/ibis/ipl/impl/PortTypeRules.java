package ibis.ipl.impl;

import ibis.io.Serialization;
import ibis.ipl.CapabilitySet;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.PortType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** What a {@link PortType} means for the ports of the implementation base. */
final class PortTypeRules {

    private static final String[] CARDINALITIES = {PortType.CONNECTION_ONE_TO_ONE, PortType.CONNECTION_ONE_TO_MANY,
        PortType.CONNECTION_MANY_TO_ONE, PortType.CONNECTION_MANY_TO_MANY};

    private PortTypeRules() {
    }

    /**
     * Checks that a port type is well formed: exactly one {@code connection.*} cardinality and at
     * least one {@code serialization.*} capability.
     *
     * @throws IbisConfigurationException naming what is wrong
     */
    static void validate(PortType type) {
        if (type == null) {
            throw new IbisConfigurationException("port type is null");
        }
        List<String> found = new ArrayList<>();
        for (String c : CARDINALITIES) {
            if (type.hasCapability(c)) {
                found.add(c);
            }
        }
        if (found.size() != 1) {
            throw new IbisConfigurationException("port type " + describe(type) + " must have exactly one of "
                    + Arrays.toString(CARDINALITIES) + ", it has " + found);
        }
        if (serializationName(type) == null) {
            throw new IbisConfigurationException("port type " + describe(type)
                    + " has no serialization (serialization.byte, .data, .object, .object.sun or .object.ibis)");
        }
    }

    /** True when several send ports may connect to one receive port of this type. */
    static boolean manySenders(CapabilitySet type) {
        return type.hasCapability(PortType.CONNECTION_MANY_TO_ONE)
                || type.hasCapability(PortType.CONNECTION_MANY_TO_MANY);
    }

    /** True when one send port of this type may connect to several receive ports (multicast). */
    static boolean manyReceivers(CapabilitySet type) {
        return type.hasCapability(PortType.CONNECTION_ONE_TO_MANY)
                || type.hasCapability(PortType.CONNECTION_MANY_TO_MANY);
    }

    /** The name of the serialization ({@link Serialization}) the port type asks for, or null. */
    static String serializationName(CapabilitySet type) {
        return Serialization.nameFor(type.getCapabilities());
    }

    static Set<String> capabilities(CapabilitySet type) {
        return new TreeSet<>(Arrays.asList(type.getCapabilities()));
    }

    /** True when both sets hold the same capabilities. */
    static boolean same(CapabilitySet a, CapabilitySet b) {
        return capabilities(a).equals(capabilities(b));
    }

    /**
     * Describes how the sender's port type differs from the receiver's, or returns null when they
     * are equal.
     */
    static String difference(CapabilitySet sender, CapabilitySet receiver) {
        Set<String> s = capabilities(sender);
        Set<String> r = capabilities(receiver);
        if (s.equals(r)) {
            return null;
        }
        Set<String> onlySender = new TreeSet<>(s);
        onlySender.removeAll(r);
        Set<String> onlyReceiver = new TreeSet<>(r);
        onlyReceiver.removeAll(s);
        StringBuilder b = new StringBuilder("port types differ:");
        if (!onlySender.isEmpty()) {
            b.append(" only the send port has ").append(onlySender);
        }
        if (!onlyReceiver.isEmpty()) {
            if (!onlySender.isEmpty()) {
                b.append(';');
            }
            b.append(" only the receive port has ").append(onlyReceiver);
        }
        return b.toString();
    }

    static String describe(CapabilitySet type) {
        return capabilities(type).toString();
    }
}
