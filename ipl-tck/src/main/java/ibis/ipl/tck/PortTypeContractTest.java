package ibis.ipl.tck;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;
import static org.testng.Assert.fail;

import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisFactory;
import ibis.ipl.PortMismatchException;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PoolFixture;

import java.util.Properties;

import org.testng.annotations.Test;

/**
 * Port types: equality-based matching, well-formedness, and the rule that an Ibis only works with
 * the port types given to {@code createIbis}; also how {@code IbisFactory} explains a failed
 * selection.
 */
public class PortTypeContractTest {

    private static final PortType DATA = Types.ONE_TO_ONE;
    private static final PortType OBJECT = Types.OBJECT_ONE_TO_ONE;

    @Test(timeOut = 60_000)
    public void connectingToAReceivePortOfAnotherPortTypeGivesPortMismatchNamingTheDifference() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(DATA, OBJECT);
            Ibis b = pool.create(DATA, OBJECT);
            ReceivePort rp = b.createReceivePort(OBJECT, "objects");
            rp.enableConnections();
            SendPort sp = a.createSendPort(DATA);
            PortMismatchException byId = expectThrows(PortMismatchException.class,
                    () -> sp.connect(rp.identifier(), 10_000, false));
            String m = String.valueOf(byId.getMessage());
            assertTrue(m.contains(PortType.SERIALIZATION_DATA) || m.contains(PortType.SERIALIZATION_OBJECT),
                    "the exception names the differing capability: " + m);
            PortMismatchException byName = expectThrows(PortMismatchException.class,
                    () -> sp.connect(b.identifier(), "objects"));
            assertNotNull(byName.getMessage());
            assertEquals(sp.connectedTo().length, 0, "no connection after a mismatch");
            assertEquals(rp.connectedTo().length, 0, "no connection after a mismatch");
        }
    }

    @Test(timeOut = 60_000)
    public void portTypesWithTheSameCapabilitiesInAnotherOrderAreEqualAndConnect() throws Exception {
        PortType one = new PortType(PortType.SERIALIZATION_DATA, PortType.CONNECTION_ONE_TO_ONE,
                PortType.RECEIVE_EXPLICIT, PortType.COMMUNICATION_RELIABLE);
        PortType other = new PortType(PortType.COMMUNICATION_RELIABLE, PortType.RECEIVE_EXPLICIT,
                PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA, PortType.SERIALIZATION_DATA);
        assertEquals(one, other);
        assertEquals(one.hashCode(), other.hashCode());
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(one);
            Ibis b = pool.create(other);
            ReceivePort rp = b.createReceivePort(other, "in");
            rp.enableConnections();
            SendPort sp = a.createSendPort(one);
            sp.connect(rp.identifier());
            WriteMessage w = sp.newMessage();
            w.writeInt(42);
            w.finish();
            ReadMessage r = rp.receive();
            assertEquals(r.readInt(), 42);
            r.finish();
        }
    }

    @Test
    public void aPortTypeWithoutConnectionCardinalityIsRejected() {
        expectThrows(IbisConfigurationException.class,
                () -> new PortType(PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT));
    }

    @Test
    public void aPortTypeWithTwoConnectionCardinalitiesIsRejected() {
        expectThrows(IbisConfigurationException.class, () -> new PortType(PortType.CONNECTION_ONE_TO_ONE,
                PortType.CONNECTION_ONE_TO_MANY, PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT));
        expectThrows(IbisConfigurationException.class, () -> new PortType(PortType.CONNECTION_MANY_TO_ONE,
                PortType.CONNECTION_MANY_TO_MANY, PortType.SERIALIZATION_BYTE));
    }

    @Test
    public void aPortTypeWithoutSerializationIsRejected() {
        expectThrows(IbisConfigurationException.class,
                () -> new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.RECEIVE_EXPLICIT));
    }

    @Test
    public void everyWellFormedCombinationIsAccepted() {
        String[] cardinalities = {PortType.CONNECTION_ONE_TO_ONE, PortType.CONNECTION_ONE_TO_MANY,
            PortType.CONNECTION_MANY_TO_ONE, PortType.CONNECTION_MANY_TO_MANY};
        String[] serializations = {PortType.SERIALIZATION_BYTE, PortType.SERIALIZATION_DATA,
            PortType.SERIALIZATION_OBJECT, PortType.SERIALIZATION_OBJECT_SUN, PortType.SERIALIZATION_OBJECT_IBIS};
        for (String c : cardinalities) {
            for (String s : serializations) {
                PortType t = new PortType(c, s);
                assertTrue(t.hasCapability(c) && t.hasCapability(s), t.toString());
            }
        }
    }

    @Test(timeOut = 60_000)
    public void portsOfAPortTypeNotGivenToCreateIbisAreRejected() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(DATA);
            expectThrows(IbisConfigurationException.class, () -> a.createSendPort(OBJECT));
            expectThrows(IbisConfigurationException.class, () -> a.createSendPort(OBJECT, "named"));
            expectThrows(IbisConfigurationException.class, () -> a.createReceivePort(OBJECT, "in"));
            expectThrows(IbisConfigurationException.class,
                    () -> a.createReceivePort(OBJECT, "up", m -> { }));
            // The given type still works.
            assertNotNull(a.createSendPort(DATA));
            assertNotNull(a.createReceivePort(DATA, "in"));
        }
    }

    @Test(timeOut = 60_000)
    public void receiveOnAnUpcallPortThrowsIbisConfigurationException() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(DATA);
            ReceivePort rp = a.createReceivePort(DATA, "up", m -> { });
            rp.enableConnections();
            rp.enableMessageUpcalls();
            expectThrows(IbisConfigurationException.class, rp::receive);
            expectThrows(IbisConfigurationException.class, () -> rp.receive(100));
        }
    }

    @Test(timeOut = 60_000)
    public void anUpcallPortNeedsAnUpcallCapability() throws Exception {
        PortType explicitOnly = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA,
                PortType.RECEIVE_EXPLICIT, PortType.COMMUNICATION_RELIABLE);
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(explicitOnly);
            expectThrows(IbisConfigurationException.class, () -> a.createReceivePort(explicitOnly, "up", m -> { }));
        }
    }

    @Test(timeOut = 60_000)
    public void receiveWithATimeoutNeedsTheReceiveTimeoutCapability() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(Types.CLASSIC);
            ReceivePort rp = a.createReceivePort(Types.CLASSIC, "in");
            rp.enableConnections();
            expectThrows(IbisConfigurationException.class, () -> rp.receive(100));
        }
    }

    @Test(timeOut = 60_000)
    public void aSendPortDisconnectUpcallNeedsConnectionUpcalls() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(Types.CLASSIC);
            expectThrows(IbisConfigurationException.class,
                    () -> a.createSendPort(Types.CLASSIC, "s", (port, receiver, cause) -> { }, null));
        }
    }

    @Test(timeOut = 60_000)
    public void aFailedSelectionNamesTheImplementationAndTheCapabilityItLacks() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            // The implementation named explicitly.
            IbisCreationFailedException named = expectThrows(IbisCreationFailedException.class,
                    () -> pool.create(new IbisCapabilities("contract.no.such.capability"), null, DATA));
            String m = fullMessage(named);
            assertTrue(m.contains("contract.no.such.capability"), m);
            assertTrue(m.contains(ImplementationUnderTest.nickname()), m);

            // Selection among every starter found: each is listed with what it lacks.
            Properties p = pool.properties();
            p.remove("ibis.implementation");
            PortType impossible = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA,
                    "communication.contract.impossible");
            IbisCreationFailedException chosen = ImplementationUnderTest.withoutSystemProperty(() ->
                    expectThrows(IbisCreationFailedException.class,
                            () -> IbisFactory.createIbis(new IbisCapabilities(), p, true, null, impossible)));
            String m2 = fullMessage(chosen);
            assertTrue(m2.contains(ImplementationUnderTest.nickname()), m2);
            assertTrue(m2.contains("communication.contract.impossible"), m2);
        }
    }

    @Test(timeOut = 60_000)
    public void anUnknownImplementationNameFailsCreation() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Properties p = pool.properties();
            p.setProperty("ibis.implementation", "contract-no-such-implementation");
            IbisCreationFailedException e = expectThrows(IbisCreationFailedException.class,
                    () -> IbisFactory.createIbis(new IbisCapabilities(), p, true, null, DATA));
            assertTrue(fullMessage(e).contains("contract-no-such-implementation"), fullMessage(e));
        }
    }

    @Test(timeOut = 60_000)
    public void withoutAnImplementationNameAnImplementationIsChosen() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Properties p = pool.properties();
            p.remove("ibis.implementation");
            Ibis ibis = pool.track(ImplementationUnderTest.withoutSystemProperty(
                    () -> IbisFactory.createIbis(new IbisCapabilities(), p, true, null, DATA)));
            assertNotNull(ibis.identifier());
        }
    }

    @Test(timeOut = 60_000)
    public void theImplementationMayBeNamedByClassName() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Properties p = pool.properties();
            p.setProperty("ibis.implementation", ImplementationUnderTest.starter().getClass().getName());
            Ibis ibis = pool.track(IbisFactory.createIbis(new IbisCapabilities(), p, true, null, DATA));
            assertNotNull(ibis.identifier());
        } catch (IbisCreationFailedException e) {
            fail("ibis.implementation given as a class name: " + fullMessage(e), e);
        }
    }

    static String fullMessage(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            b.append(c).append(" | ");
        }
        return b.toString();
    }
}
