package ibis.ipl.impl;

import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import ibis.ipl.CapabilitySet;
import ibis.ipl.PortType;

import org.testng.annotations.Test;

/** How port types are compared and described. */
public class PortTypeRulesTest {

    @Test
    public void equalTypesHaveNoDifference() {
        PortType a = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA,
                PortType.RECEIVE_EXPLICIT);
        PortType b = new PortType(PortType.RECEIVE_EXPLICIT, PortType.SERIALIZATION_DATA,
                PortType.CONNECTION_ONE_TO_ONE);
        assertNull(PortTypeRules.difference(a, b));
        assertTrue(PortTypeRules.same(a, b));
    }

    @Test
    public void differenceNamesTheCapabilitiesOnEachSide() {
        PortType sender = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA,
                PortType.RECEIVE_EXPLICIT, PortType.COMMUNICATION_NUMBERED);
        CapabilitySet receiver = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_OBJECT_SUN,
                PortType.RECEIVE_EXPLICIT);
        String d = PortTypeRules.difference(sender, receiver);
        assertTrue(d.contains("only the send port has [" + PortType.COMMUNICATION_NUMBERED + ", "
                + PortType.SERIALIZATION_DATA + "]"), d);
        assertTrue(d.contains("only the receive port has [" + PortType.SERIALIZATION_OBJECT_SUN + "]"), d);
    }

    @Test
    public void cardinalitiesAreClassified() {
        assertTrue(PortTypeRules.manySenders(new CapabilitySet(PortType.CONNECTION_MANY_TO_ONE)));
        assertTrue(PortTypeRules.manySenders(new CapabilitySet(PortType.CONNECTION_MANY_TO_MANY)));
        assertTrue(!PortTypeRules.manySenders(new CapabilitySet(PortType.CONNECTION_ONE_TO_MANY)));
        assertTrue(PortTypeRules.manyReceivers(new CapabilitySet(PortType.CONNECTION_ONE_TO_MANY)));
        assertTrue(!PortTypeRules.manyReceivers(new CapabilitySet(PortType.CONNECTION_MANY_TO_ONE)));
    }
}
