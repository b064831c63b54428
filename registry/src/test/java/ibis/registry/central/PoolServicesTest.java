package ibis.registry.central;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.IbisProperties;
import ibis.ipl.impl.RegistryClient;
import ibis.registry.RecordingHandler;
import ibis.testsupport.ChildJvm;
import ibis.testsupport.PoolFixture;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.testng.annotations.Test;

/** Signals, closed worlds, termination, sequence numbers and tokens. */
public class PoolServicesTest {

    private static final IbisCapabilities ALL = PoolFixture.allRegistryCapabilities();

    @Test(timeOut = 60_000)
    public void signalsReachTheirTargetsOnly() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("signals", ALL, null);
            RecordingHandler hb = new RecordingHandler();
            RegistryClient b = f.join("signals", ALL, hb);
            b.enableEvents();
            RegistryClient c = f.join("signals", ALL, null);
            RegistryClient d = f.join("signals", ALL, null);

            a.signal("hello", b.identifier(), c.identifier());
            a.signal("again", c.identifier());
            hb.await("signal hello from 0");
            c.getSequenceNumber("sync"); // round trip: the signals sent before have reached c
            assertEquals(c.receivedSignals(), new String[] {"hello", "again"});
            assertEquals(c.receivedSignals(), new String[0], "receivedSignals() forgets what it returned");
            d.getSequenceNumber("sync");
            assertEquals(d.receivedSignals(), new String[0], "d was not a target");
            assertFalse(hb.events().contains("signal again from 0"));
        }
    }

    /**
     * IPL 2.x: {@code signal(s, null)} signals every member of the pool, the sender included; an
     * empty target list signals nobody.
     */
    @Test(timeOut = 120_000)
    public void aNullTargetListSignalsEveryMemberTheSenderIncluded() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RecordingHandler ha = new RecordingHandler();
            RegistryClient a = f.join("broadcast", ALL, ha);
            a.enableEvents();
            RegistryClient b = f.join("broadcast", ALL, null);
            try (ChildJvm child = ChildJvm.startPeer(List.of(), SignalledMemberProcess.class, f.server().address(),
                    "broadcast")) {
                String childName = child.await("joined ");
                a.getSequenceNumber("sync"); // round trip: a has seen the child join

                a.signal("nobody");
                a.signal("everybody", (IbisIdentifier[]) null);

                assertEquals(child.await("signal "), "everybody from " + a.identifier().name(),
                        "the child JVM (member " + childName + ") gets the broadcast, and only that");
                ha.await("signal everybody from " + a.identifier().name());
                b.getSequenceNumber("sync"); // round trip: the signals sent before have reached b
                assertEquals(b.receivedSignals(), new String[] {"everybody"});
                assertFalse(ha.events().contains("signal nobody from " + a.identifier().name()),
                        ha.events().toString());
            }
        }
    }

    @Test(timeOut = 60_000)
    public void closedWorldClosesWhenAllMembersJoinedAndRefusesMore() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            IbisCapabilities caps = new IbisCapabilities(IbisCapabilities.CLOSED_WORLD,
                    IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);
            Properties p = f.memberProperties("closed");
            p.setProperty(IbisProperties.POOL_SIZE, "3");
            ExecutorService pool = Executors.newFixedThreadPool(3);
            try {
                List<Future<RegistryClient>> joins = new ArrayList<>();
                List<RecordingHandler> handlers = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    RecordingHandler h = new RecordingHandler();
                    handlers.add(h);
                    joins.add(pool.submit(() -> {
                        RegistryClient c = f.join(p, caps, h);
                        c.enableEvents();
                        c.waitUntilPoolClosed();
                        return c;
                    }));
                }
                for (int i = 0; i < 3; i++) {
                    RegistryClient c = joins.get(i).get();
                    assertTrue(c.isClosed());
                    assertEquals(c.getPoolSize(), 3);
                    handlers.get(i).await("closed");
                    List<String> events = handlers.get(i).events();
                    assertEquals(events.get(events.size() - 1), "closed", "poolClosed comes after all joins");
                    assertEquals(events.stream().filter(e -> e.startsWith("joined")).count(), 3L);
                }
            } finally {
                pool.shutdownNow();
            }
            IOException refused = expectThrows(IOException.class, () -> f.join(p, caps, null));
            assertTrue(refused.getMessage().contains("closed"), refused.getMessage());

            IOException mismatch = expectThrows(IOException.class,
                    () -> f.join(f.memberProperties("closed"), new IbisCapabilities(), null));
            assertTrue(mismatch.getMessage().contains("open world"), mismatch.getMessage());
        }
    }

    @Test(timeOut = 60_000)
    public void openWorldHasNoPoolClosing() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("open", ALL, null);
            assertFalse(a.isClosed());
            expectThrows(IbisConfigurationException.class, a::waitUntilPoolClosed);
            assertEquals(a.getPoolSize(), -1, "an open world has no fixed pool size");
            RegistryClient b = f.join("open", ALL, null);
            assertEquals(b.getPoolSize(), -1, "also not when members join");
            assertEquals(a.getPoolSize(), -1);
        }
    }

    @Test(timeOut = 60_000)
    public void terminationReachesEveryMember() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("end", ALL, null);
            RecordingHandler hb = new RecordingHandler();
            RegistryClient b = f.join("end", ALL, hb);
            b.enableEvents();
            assertFalse(b.hasTerminated());
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<IbisIdentifier> waiter = pool.submit(b::waitUntilTerminated);
                a.terminate();
                assertEquals(waiter.get(), a.identifier());
            } finally {
                pool.shutdownNow();
            }
            assertTrue(b.hasTerminated());
            assertTrue(a.hasTerminated());
            assertEquals(a.waitUntilTerminated(), a.identifier());
            hb.await("terminated 0");
            b.terminate(); // a second terminate changes nothing
            assertEquals(b.waitUntilTerminated(), a.identifier());
            IOException refused = expectThrows(IOException.class, () -> f.join("end", ALL, null));
            assertTrue(refused.getMessage().contains("terminated"), refused.getMessage());
        }
    }

    /** IPL 2.x: terminate() "also closes the pool, if it has not been closed yet". */
    @Test(timeOut = 60_000)
    public void terminateClosesAnOpenPoolFirstThenTerminatesIt() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RecordingHandler ha = new RecordingHandler();
            RegistryClient a = f.join("end-open", ALL, ha);
            a.enableEvents();
            RecordingHandler hb = new RecordingHandler();
            RegistryClient b = f.join("end-open", ALL, hb);
            b.enableEvents();
            RegistryClient polling = f.join("end-open", ALL, null);
            assertFalse(a.isClosed());
            assertFalse(polling.isClosed());

            b.terminate();
            b.terminate(); // the second one changes nothing: no second poolClosed
            a.signal("after", (IbisIdentifier[]) null); // a later event, to see what came between
            for (RecordingHandler h : List.of(ha, hb)) {
                h.await("signal after from 0");
                List<String> events = h.events();
                assertEquals(events.subList(events.size() - 3, events.size()),
                        List.of("closed", "terminated 1", "signal after from 0"),
                        "poolClosed, then poolTerminated, in the pool's event order: " + events);
                assertEquals(events.stream().filter("closed"::equals).count(), 1L, events.toString());
            }
            assertEquals(polling.waitUntilTerminated(), b.identifier());
            for (RegistryClient m : List.of(a, b, polling)) {
                assertTrue(m.isClosed(), "a terminated pool is closed");
                assertEquals(m.getManagementProperty("pool.closed"), "true");
                // Decided: waitUntilPoolClosed still needs closed.world, as in IPL 2.x.
                expectThrows(IbisConfigurationException.class, m::waitUntilPoolClosed);
            }
            IOException refused = expectThrows(IOException.class, () -> f.join("end-open", ALL, null));
            assertTrue(refused.getMessage().contains("terminated"), refused.getMessage());
        }
    }

    @Test(timeOut = 60_000)
    public void terminateClosesAClosedWorldThatIsStillShortOfMembers() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            IbisCapabilities caps = new IbisCapabilities(IbisCapabilities.CLOSED_WORLD,
                    IbisCapabilities.TERMINATION, IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);
            Properties p = f.memberProperties("short");
            p.setProperty(IbisProperties.POOL_SIZE, "3");
            RecordingHandler ha = new RecordingHandler();
            RegistryClient a = f.join(p, caps, ha);
            a.enableEvents();
            RegistryClient b = f.join(p, caps, null);
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<Boolean> waiter = pool.submit(() -> {
                    b.waitUntilPoolClosed();
                    return b.isClosed();
                });
                assertFalse(a.isClosed(), "2 of 3 members");
                a.terminate();
                assertTrue(waiter.get(), "waitUntilPoolClosed returned once the pool was terminated");
            } finally {
                pool.shutdownNow();
            }
            ha.await("terminated 0");
            assertEquals(ha.events(), List.of("joined 0", "joined 1", "closed", "terminated 0"));
            assertTrue(a.isClosed());
            IOException refused = expectThrows(IOException.class, () -> f.join(p, caps, null));
            assertTrue(refused.getMessage().contains("terminated"), refused.getMessage());
        }
    }

    @Test(timeOut = 60_000)
    public void terminateOfACompleteClosedWorldOnlyTerminatesIt() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            IbisCapabilities caps = new IbisCapabilities(IbisCapabilities.CLOSED_WORLD, IbisCapabilities.TERMINATION,
                    IbisCapabilities.SIGNALS, IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);
            Properties p = f.memberProperties("complete");
            p.setProperty(IbisProperties.POOL_SIZE, "2");
            RecordingHandler ha = new RecordingHandler();
            RegistryClient a = f.join(p, caps, ha);
            a.enableEvents();
            RegistryClient b = f.join(p, caps, null);
            b.waitUntilPoolClosed();
            b.terminate();
            b.signal("after", a.identifier());
            ha.await("signal after from 1");
            assertEquals(ha.events(), List.of("joined 0", "joined 1", "closed", "terminated 1", "signal after from 1"),
                    "the pool was closed already: only poolTerminated");
            assertTrue(a.isClosed());
        }
    }

    @Test(timeOut = 60_000)
    public void sequenceNumbersAreUniqueAcrossThePool() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            List<RegistryClient> members = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                members.add(f.join("seq", ALL, null));
            }
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<List<Long>>> results = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    RegistryClient m = members.get(t % members.size());
                    results.add(pool.submit(() -> {
                        List<Long> got = new ArrayList<>();
                        for (int i = 0; i < 50; i++) {
                            got.add(m.getSequenceNumber("counter"));
                        }
                        return got;
                    }));
                }
                Set<Long> all = new HashSet<>();
                for (Future<List<Long>> r : results) {
                    all.addAll(r.get());
                }
                assertEquals(all.size(), 400, "no value handed out twice");
                for (long v = 0; v < 400; v++) {
                    assertTrue(all.contains(v), "values start at 0 without gaps; missing " + v);
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(members.get(0).getSequenceNumber("another"), 0L, "each name has its own counter");
        }
    }

    @Test(timeOut = 60_000)
    public void tokensAreCountedPerNameAndTakenWithoutWaiting() throws Exception {
        // More on tokens (concurrent takers, dead members, the wire) in TokenTest.
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("tokens", ALL, null);
            RegistryClient b = f.join("tokens", ALL, null);
            a.addTokens("t", 3);
            List<String> tokens = new ArrayList<>();
            tokens.add(a.getToken("t"));
            tokens.add(b.getToken("t"));
            tokens.add(b.getToken("t"));
            assertEquals(tokens, List.of("t", "t", "t"), "a token is its name (IPL 2.x)");
            assertNull(a.getToken("t"), "three added, three taken: none left, and getToken does not wait");
            a.addTokens("u", 0);
            assertNull(b.getToken("u"));
            a.addTokens("u", 1);
            assertEquals(b.getToken("u"), "u", "each name has its own tokens");
            expectThrows(IllegalArgumentException.class, () -> a.addTokens("t", -1));
            expectThrows(NullPointerException.class, () -> a.getToken(null));
        }
    }
}
