package ibis.registry.central;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.io.config.PropertyTable;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.IbisProperties;
import ibis.ipl.NoSuchPropertyException;
import ibis.ipl.impl.MemberIdentifier;
import ibis.ipl.impl.RegistryClient;
import ibis.ipl.impl.RegistryProvider;
import ibis.registry.RecordingHandler;
import ibis.testsupport.PoolFixture;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;

import org.testng.annotations.Test;

/** Joining and leaving: names, identifiers, events, downcalls, configuration errors. */
public class MembershipTest {

    private static final IbisCapabilities MEMBERSHIP = new IbisCapabilities(
            IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);

    private static List<String> names(IbisIdentifier[] ids) {
        List<String> result = new ArrayList<>();
        for (IbisIdentifier id : ids) {
            result.add(id.name());
        }
        return result;
    }

    @Test
    public void providerAndPropertyTableAreRegisteredAsServices() {
        boolean central = false;
        for (RegistryProvider p : ServiceLoader.load(RegistryProvider.class)) {
            central |= p.name().equals("central") && p instanceof CentralRegistryProvider;
        }
        assertTrue(central, "META-INF/services must register the central registry provider");
        boolean table = false;
        for (PropertyTable t : ServiceLoader.load(PropertyTable.class)) {
            if (t.subsystem().equals("registry")) {
                table = t.properties().stream().anyMatch(e -> e.name().equals("ibis.registry.heartbeat.timeout"));
            }
        }
        assertTrue(table, "the registry property table documents the heartbeat timeout");
    }

    @Test(timeOut = 60_000)
    public void membersGetConsecutiveNamesAndCarryTheirData() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            Properties p = f.memberProperties("names");
            p.setProperty(IbisProperties.LOCATION, "node7@cluster@site");
            RegistryClient a = new CentralRegistryProvider().join(MEMBERSHIP, null, p, "test",
                    new byte[] {1, 2, 3}, "tagA".getBytes(StandardCharsets.UTF_8));
            RegistryClient b = f.join("names", MEMBERSHIP, null);
            RegistryClient other = f.join("another pool", MEMBERSHIP, null);
            try {
                MemberIdentifier id = a.identifier();
                assertEquals(id.name(), "0");
                assertEquals(b.identifier().name(), "1");
                assertEquals(other.identifier().name(), "0", "names are per pool");
                assertEquals(id.poolName(), "names");
                assertEquals(id.location().toString(), "node7@cluster@site");
                assertEquals(id.tagAsString(), "tagA");
                assertEquals(id.implementationName(), "test");
                assertEquals(id.implementationData(), new byte[] {1, 2, 3});
                assertEquals(a.getPoolName(), "names");
                assertEquals(f.server().memberCount("names"), 2);
                assertEquals(f.server().poolCount(), 2);
            } finally {
                a.leave();
            }
        }
    }

    @Test(timeOut = 60_000)
    public void newMemberSeesCurrentMembersThenLaterEvents() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RecordingHandler ha = new RecordingHandler();
            RegistryClient a = f.join("events", MEMBERSHIP, ha);
            a.enableEvents();
            RegistryClient b = f.join("events", MEMBERSHIP, null);
            RecordingHandler hc = new RecordingHandler();
            RegistryClient c = f.join("events", MEMBERSHIP, hc);
            b.leave();
            c.enableEvents();
            RegistryClient d = f.join("events", MEMBERSHIP, null);
            d.leave();

            ha.await("left 3");
            hc.await("left 3");
            assertEquals(ha.events(), List.of("joined 0", "joined 1", "joined 2", "left 1", "joined 3", "left 3"));
            assertEquals(hc.events(), List.of("joined 0", "joined 1", "joined 2", "left 1", "joined 3", "left 3"),
                    "a new member first sees the current members (itself last), then later events");
            assertFalse(ha.overlapSeen() || hc.overlapSeen(), "upcalls run one at a time");
            assertEquals(a.managementProperties().get("members"), "2", "a's view holds the current members");
            assertEquals(a.getPoolSize(), -1, "open world: the pool has no fixed size");
        }
    }

    @Test(timeOut = 60_000)
    public void eventsAreQueuedUntilEnabledAndWhileDisabled() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RecordingHandler h = new RecordingHandler();
            RegistryClient a = f.join("queued", MEMBERSHIP, h);
            RegistryClient b = f.join("queued", MEMBERSHIP, null);
            a.getSequenceNumber("sync"); // a round trip: every earlier event has reached a
            assertEquals(h.events(), List.of(), "no upcall before enableEvents()");
            assertEquals(a.getManagementProperty("events.pending"), "2");
            a.enableEvents();
            h.await("joined 1");
            a.disableEvents();
            b.leave();
            a.getSequenceNumber("sync");
            assertEquals(h.events(), List.of("joined 0", "joined 1"), "disabled: the leave stays queued");
            a.enableEvents();
            h.await("left 1");
            assertEquals(h.events(), List.of("joined 0", "joined 1", "left 1"));
        }
    }

    @Test(timeOut = 60_000)
    public void downcallsReturnAndForgetWhatHappenedSinceTheLastCall() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("downcalls", MEMBERSHIP, null);
            RegistryClient b = f.join("downcalls", MEMBERSHIP, null);
            assertEquals(names(b.joinedIbises()), List.of("0", "1"), "the current members and itself");
            assertEquals(b.joinedIbises().length, 0, "already returned");
            RegistryClient c = f.join("downcalls", MEMBERSHIP, null);
            c.leave();
            b.getSequenceNumber("sync");
            assertEquals(names(b.joinedIbises()), List.of("2"));
            assertEquals(names(b.leftIbises()), List.of("2"));
            assertEquals(b.leftIbises().length, 0);
            assertEquals(b.diedIbises().length, 0);
            a.getSequenceNumber("sync"); // round trip: the joins of b and c have reached a too
            assertEquals(names(a.joinedIbises()), List.of("0", "1", "2"));
        }
    }

    @Test(timeOut = 60_000)
    public void managementPropertiesShowRealValues() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("manage", MEMBERSHIP, null);
            f.join("manage", MEMBERSHIP, null);
            a.getSequenceNumber("sync");
            assertEquals(a.getManagementProperty("members"), "2");
            assertEquals(a.getManagementProperty("events.received"), "1");
            assertEquals(a.getManagementProperty("pool"), "manage");
            assertEquals(a.getManagementProperty("connected"), "true");
            assertTrue(a.managementProperties().containsKey("heartbeats.sent"));
            expectThrows(NoSuchPropertyException.class, () -> a.getManagementProperty("no.such.thing"));
            expectThrows(NoSuchPropertyException.class, () -> a.setManagementProperty("members", "5"));
        }
    }

    @Test(timeOut = 60_000)
    public void leaveIsIdempotentAndLaterCallsFail() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("leave", MEMBERSHIP, null);
            a.leave();
            a.leave();
            IOException e = expectThrows(IOException.class, () -> a.getSequenceNumber("x"));
            assertTrue(e.getMessage().contains("left"), e.getMessage());
        }
    }

    @Test(timeOut = 60_000)
    public void missingOrInvalidConfigurationIsReportedClearly() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            Properties noPool = f.memberProperties("x");
            noPool.remove(IbisProperties.POOL_NAME);
            IbisConfigurationException e = expectThrows(IbisConfigurationException.class,
                    () -> f.join(noPool, MEMBERSHIP, null));
            assertTrue(e.getMessage().contains(IbisProperties.POOL_NAME), e.getMessage());

            Properties noServer = f.memberProperties("x");
            noServer.remove(IbisProperties.SERVER_ADDRESS);
            e = expectThrows(IbisConfigurationException.class, () -> f.join(noServer, MEMBERSHIP, null));
            assertTrue(e.getMessage().contains(IbisProperties.SERVER_ADDRESS), e.getMessage());

            Properties noSize = f.memberProperties("x");
            e = expectThrows(IbisConfigurationException.class,
                    () -> f.join(noSize, new IbisCapabilities(IbisCapabilities.CLOSED_WORLD), null));
            assertTrue(e.getMessage().contains(IbisProperties.POOL_SIZE), e.getMessage());

            Properties badHeartbeat = f.memberProperties("x");
            badHeartbeat.setProperty("ibis.registry.heartbeat.interval", "500");
            badHeartbeat.setProperty("ibis.registry.heartbeat.timeout", "400");
            expectThrows(IbisConfigurationException.class, () -> f.join(badHeartbeat, MEMBERSHIP, null));
        }
    }

    @Test(timeOut = 60_000)
    public void callsNeedTheirCapabilities() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("caps", new IbisCapabilities(), null);
            RegistryClient b = f.join("caps", MEMBERSHIP, new RecordingHandler());
            IbisConfigurationException e = expectThrows(IbisConfigurationException.class,
                    () -> a.signal("hi", b.identifier()));
            assertTrue(e.getMessage().contains(IbisCapabilities.SIGNALS), e.getMessage());
            expectThrows(IbisConfigurationException.class, () -> a.elect("x"));
            expectThrows(IbisConfigurationException.class, () -> a.getElectionResult("x", 1));
            expectThrows(IbisConfigurationException.class, a::terminate);
            expectThrows(IbisConfigurationException.class, a::waitUntilTerminated);
            expectThrows(IbisConfigurationException.class, a::waitUntilPoolClosed);
            expectThrows(IbisConfigurationException.class, a::joinedIbises);
            expectThrows(IbisConfigurationException.class, a::receivedSignals);
            e = expectThrows(IbisConfigurationException.class, b::joinedIbises);
            assertTrue(e.getMessage().contains("RegistryEventHandler"), e.getMessage());
            assertFalse(a.isClosed());
            assertNotNull(a.identifier());
            assertNotEquals(a.identifier(), b.identifier());
            assertEquals(Arrays.asList(a.getPoolName(), b.getPoolName()), List.of("caps", "caps"));
        }
    }
}
