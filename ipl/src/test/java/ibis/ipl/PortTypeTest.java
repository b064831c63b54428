package ibis.ipl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import org.testng.annotations.Test;

public class PortTypeTest {

    @Test
    public void validPortTypesAreAccepted() {
        for (String cardinality : new String[] { PortType.CONNECTION_ONE_TO_ONE, PortType.CONNECTION_ONE_TO_MANY,
                PortType.CONNECTION_MANY_TO_ONE, PortType.CONNECTION_MANY_TO_MANY }) {
            PortType type = new PortType(cardinality, PortType.SERIALIZATION_BYTE);
            assertTrue(type.hasCapability(cardinality));
        }
        PortType type = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_OBJECT_IBIS,
                PortType.SERIALIZATION_DATA, PortType.COMMUNICATION_FIFO);
        assertEquals(type.size(), 4);
    }

    @Test
    public void portTypeWithoutConnectionCardinalityIsRejected() {
        IbisConfigurationException e = expectThrows(IbisConfigurationException.class,
                () -> new PortType(PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT));
        assertTrue(e.getMessage().contains("no connection cardinality"), e.getMessage());
        assertTrue(e.getMessage().contains(PortType.CONNECTION_MANY_TO_MANY), e.getMessage());
    }

    @Test
    public void portTypeWithTwoConnectionCardinalitiesIsRejected() {
        IbisConfigurationException e = expectThrows(IbisConfigurationException.class,
                () -> new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.CONNECTION_MANY_TO_ONE,
                        PortType.SERIALIZATION_DATA));
        assertTrue(e.getMessage().contains(PortType.CONNECTION_ONE_TO_ONE), e.getMessage());
        assertTrue(e.getMessage().contains(PortType.CONNECTION_MANY_TO_ONE), e.getMessage());
    }

    @Test
    public void portTypeWithoutSerializationIsRejected() {
        IbisConfigurationException e = expectThrows(IbisConfigurationException.class,
                () -> new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.RECEIVE_EXPLICIT));
        assertTrue(e.getMessage().contains("no serialization"), e.getMessage());
    }

    @Test
    public void emptyPortTypeIsRejected() {
        expectThrows(IbisConfigurationException.class, () -> new PortType());
    }

    @Test
    public void portTypesAreEqualByCapabilities() {
        PortType a = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA);
        PortType b = new PortType(PortType.SERIALIZATION_DATA, PortType.CONNECTION_ONE_TO_ONE);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
    }

    @Test
    public void constantsKeepTheirIpl2Values() {
        assertEquals(PortType.CONNECTION_ONE_TO_MANY, "connection.onetomany");
        assertEquals(PortType.SERIALIZATION_OBJECT_IBIS, "serialization.object.ibis");
        assertEquals(PortType.COMMUNICATION_RELIABLE_UNSAFE, "communication.reliable.unsafe");
        assertEquals(PortType.RECEIVE_POLL_UPCALLS, "receive.pollupcalls");
        assertEquals(IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED, "membership.totally.ordered");
        assertEquals(ReadMessage.INITIAL_SEQNO, 1L);
        assertEquals(IbisFactory.DEFAULT_IMPLEMENTATION, "tcp");
    }
}
