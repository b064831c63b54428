package ibis.ipl.tck;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.Location;
import ibis.ipl.Registry;
import ibis.testsupport.PoolFixture;
import ibis.testsupport.Waits;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.annotations.Test;

/**
 * The registry as an IPL program sees it through {@code ibis.registry()}: membership events,
 * elections, signals, closed worlds, termination, pool facts and identifiers.
 */
public class RegistryContractTest {

    private static final IbisCapabilities MEMBERSHIP = new IbisCapabilities(
            IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);

    /** Runs {@code n} tasks at the same moment and returns their results in task order. */
    private static <T> List<T> concurrently(int n, java.util.function.IntFunction<Callable<T>> task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Callable<T> c = task.apply(i);
                futures.add(pool.submit(() -> {
                    go.await();
                    return c.call();
                }));
            }
            go.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                results.add(f.get(60, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test(timeOut = 60_000)
    public void eventsAreDeliveredOnlyAfterEnableEvents() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            RegistryLog log = new RegistryLog();
            Ibis a = pool.create(new IbisCapabilities(IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED,
                    IbisCapabilities.ELECTIONS_STRICT), log, Types.ONE_TO_ONE);
            RegistryLog logB = new RegistryLog();
            Ibis b = pool.create(new IbisCapabilities(IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED,
                    IbisCapabilities.ELECTIONS_STRICT), logB, Types.ONE_TO_ONE);
            b.registry().enableEvents();
            logB.awaitEvent("joined " + b.identifier().name());
            // Round trips through a's registry give its events time to arrive (not a guarantee).
            a.registry().elect("probe");
            a.registry().getElectionResult("probe");
            assertEquals(log.events(), List.of(), "events delivered before enableEvents()");
            a.registry().enableEvents();
            log.await("joins of a and b", l -> l.contains("joined " + a.identifier().name())
                    && l.contains("joined " + b.identifier().name()));
            assertEquals(log.events("joined"), List.of("joined " + a.identifier().name(),
                    "joined " + b.identifier().name()), "joins in join order, own join included");
        }
    }

    @Test(timeOut = 60_000)
    public void disableEventsQueuesEventsUntilTheyAreEnabledAgain() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            RegistryLog log = new RegistryLog();
            Ibis a = pool.create(MEMBERSHIP, log, Types.ONE_TO_ONE);
            a.registry().enableEvents();
            log.awaitEvent("joined " + a.identifier().name());
            a.registry().disableEvents();
            Ibis b = pool.create(MEMBERSHIP, null, Types.ONE_TO_ONE);
            String bName = b.identifier().name();
            a.registry().enableEvents();
            log.awaitEvent("joined " + bName);
            b.end();
            log.awaitEvent("left " + bName);
        }
    }

    @Test(timeOut = 90_000)
    public void everyMemberSeesJoinsAndLeavesInTheSameOrder() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            int n = 5;
            List<RegistryLog> logs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                logs.add(new RegistryLog());
            }
            List<Ibis> members = concurrently(n, i -> () -> {
                Ibis ibis = pool.create(MEMBERSHIP, logs.get(i), Types.ONE_TO_ONE);
                ibis.registry().enableEvents();
                return ibis;
            });
            for (RegistryLog log : logs) {
                log.await(n + " joins", l -> l.stream().filter(e -> e.startsWith("joined ")).count() == n);
            }
            // Two members leave at the same time.
            String left1 = members.get(1).identifier().name();
            String left2 = members.get(3).identifier().name();
            concurrently(2, i -> () -> {
                members.get(i == 0 ? 1 : 3).end();
                return null;
            });
            List<List<String>> seen = new ArrayList<>();
            for (int i : new int[] {0, 2, 4}) {
                seen.add(logs.get(i).await("both leaves",
                        l -> l.contains("left " + left1) && l.contains("left " + left2)));
            }
            for (List<String> s : seen) {
                assertEquals(s, seen.get(0), "members saw different event orders");
            }
            Set<String> joined = new HashSet<>();
            for (Ibis m : members) {
                joined.add("joined " + m.identifier().name());
            }
            assertEquals(new HashSet<>(seen.get(0).subList(0, n)), joined);
            for (RegistryLog log : logs) {
                assertFalse(log.overlapped(), "two events were delivered at the same time");
            }
        }
    }

    @Test(timeOut = 60_000)
    public void membershipCanBePolledWithoutAnEventHandler() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(MEMBERSHIP, null, Types.ONE_TO_ONE);
            Ibis b = pool.create(MEMBERSHIP, null, Types.ONE_TO_ONE);
            List<IbisIdentifier> joined = new ArrayList<>();
            Waits.until("joinedIbises() shows both members", () -> {
                joined.addAll(Arrays.asList(a.registry().joinedIbises()));
                return joined.contains(a.identifier()) && joined.contains(b.identifier());
            });
            assertEquals(new HashSet<>(joined).size(), joined.size(), "each join is reported once");
            IbisIdentifier bId = b.identifier();
            b.end();
            List<IbisIdentifier> left = new ArrayList<>();
            Waits.until("leftIbises() shows b", () -> {
                left.addAll(Arrays.asList(a.registry().leftIbises()));
                return left.contains(bId);
            });
            assertEquals(a.registry().diedIbises().length, 0);
        }
    }

    @Test(timeOut = 90_000)
    public void strictElectionsHaveExactlyOneWinnerAmongConcurrentCandidates() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            int n = 6;
            IbisCapabilities caps = new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT);
            List<Ibis> members = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                members.add(pool.create(caps, null, Types.ONE_TO_ONE));
            }
            List<IbisIdentifier> winners = concurrently(n, i -> () -> members.get(i).registry().elect("master"));
            IbisIdentifier winner = winners.get(0);
            assertNotNull(winner);
            for (IbisIdentifier w : winners) {
                assertEquals(w, winner, "candidates saw different winners: " + winners);
            }
            Set<IbisIdentifier> ids = new HashSet<>();
            for (Ibis m : members) {
                ids.add(m.identifier());
            }
            assertTrue(ids.contains(winner), "the winner is a candidate");
            Ibis late = pool.create(caps, null, Types.ONE_TO_ONE);
            assertEquals(late.registry().elect("master"), winner, "a later candidate gets the same winner");
            assertEquals(late.registry().getElectionResult("master"), winner);
            assertEquals(late.registry().getElectionResult("master", 5_000), winner);
            assertNull(late.registry().getElectionResult("never-held", 300), "no winner known in time");
        }
    }

    @Test(timeOut = 60_000)
    public void getElectionResultWaitsForAnElectionHeldLater() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            IbisCapabilities caps = new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT);
            Ibis a = pool.create(caps, null, Types.ONE_TO_ONE);
            Ibis b = pool.create(caps, null, Types.ONE_TO_ONE);
            AtomicReference<Thread> waiter = new AtomicReference<>();
            CountDownLatch started = new CountDownLatch(1);
            CompletableFuture<IbisIdentifier> result = Async.supply(() -> {
                waiter.set(Thread.currentThread());
                started.countDown();
                try {
                    return a.registry().getElectionResult("later");
                } catch (java.io.IOException e) {
                    throw new RuntimeException(e);
                }
            });
            started.await();
            Waits.untilBlockedOrDone(waiter.get());
            assertFalse(result.isDone(), "getElectionResult returned before anybody was elected: "
                    + (result.isDone() ? result.get() : ""));
            assertEquals(b.registry().elect("later"), b.identifier());
            assertEquals(result.get(40, TimeUnit.SECONDS), b.identifier());
        }
    }

    @Test(timeOut = 60_000)
    public void aNewWinnerIsElectedWhenTheWinnerLeaves() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            IbisCapabilities caps = new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT);
            Ibis a = pool.create(caps, null, Types.ONE_TO_ONE);
            Ibis b = pool.create(caps, null, Types.ONE_TO_ONE);
            assertEquals(a.registry().elect("leader"), a.identifier());
            assertEquals(b.registry().elect("leader"), a.identifier());
            a.end();
            IbisIdentifier next = b.registry().elect("leader");
            assertEquals(next, b.identifier(), "the winner left, so the remaining candidate wins");
        }
    }

    @Test(timeOut = 60_000)
    public void electionResultsAreDeliveredAsEvents() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            IbisCapabilities caps = new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT,
                    IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);
            RegistryLog logA = new RegistryLog();
            RegistryLog logB = new RegistryLog();
            Ibis a = pool.create(caps, logA, Types.ONE_TO_ONE);
            Ibis b = pool.create(caps, logB, Types.ONE_TO_ONE);
            a.registry().enableEvents();
            b.registry().enableEvents();
            IbisIdentifier w = b.registry().elect("boss");
            logA.awaitEvent("election boss " + w.name());
            logB.awaitEvent("election boss " + w.name());
        }
    }

    @Test(timeOut = 60_000)
    public void signalsAreDeliveredToTheNamedMembers() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            IbisCapabilities caps = new IbisCapabilities(IbisCapabilities.SIGNALS);
            RegistryLog logB = new RegistryLog();
            RegistryLog logC = new RegistryLog();
            RegistryLog logD = new RegistryLog();
            Ibis a = pool.create(caps, null, Types.ONE_TO_ONE);
            Ibis b = pool.create(caps, logB, Types.ONE_TO_ONE);
            Ibis c = pool.create(caps, logC, Types.ONE_TO_ONE);
            Ibis d = pool.create(caps, logD, Types.ONE_TO_ONE);
            for (Ibis i : List.of(b, c, d)) {
                i.registry().enableEvents();
            }
            a.registry().signal("wake up", b.identifier(), c.identifier());
            String expected = "signal wake up from " + a.identifier().name();
            logB.awaitEvent(expected);
            logC.awaitEvent(expected);
            // d was not named; a signal sent to d afterwards arrives, and the first one never did.
            a.registry().signal("only d", d.identifier());
            List<String> dEvents = logD.awaitEvent("signal only d from " + a.identifier().name());
            assertFalse(dEvents.contains(expected), "a signal reached a member it was not sent to");
        }
    }

    @Test(timeOut = 60_000)
    public void signalsCanBePolledWithoutAnEventHandler() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            IbisCapabilities caps = new IbisCapabilities(IbisCapabilities.SIGNALS);
            Ibis a = pool.create(caps, null, Types.ONE_TO_ONE);
            Ibis b = pool.create(caps, null, Types.ONE_TO_ONE);
            a.registry().signal("polled", b.identifier());
            List<String> got = new ArrayList<>();
            Waits.until("receivedSignals() shows the signal", () -> {
                got.addAll(Arrays.asList(b.registry().receivedSignals()));
                return got.contains("polled");
            });
        }
    }

    @Test(timeOut = 60_000)
    public void aClosedWorldClosesWhenPoolSizeMembersJoined() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            int n = 3;
            IbisCapabilities caps = new IbisCapabilities(IbisCapabilities.CLOSED_WORLD,
                    IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);
            List<RegistryLog> logs = new ArrayList<>();
            List<Ibis> members = new ArrayList<>();
            for (int i = 0; i < n - 1; i++) {
                RegistryLog log = new RegistryLog();
                logs.add(log);
                Ibis m = pool.create(pool.properties(n), caps, log, Types.ONE_TO_ONE);
                m.registry().enableEvents();
                members.add(m);
            }
            Registry first = members.get(0).registry();
            assertEquals(first.getPoolSize(), n);
            assertEquals(first.getPoolName(), pool.poolName());
            assertFalse(first.isClosed(), "closed with " + (n - 1) + " of " + n + " members");
            AtomicReference<Thread> waiter = new AtomicReference<>();
            CountDownLatch started = new CountDownLatch(1);
            CompletableFuture<Boolean> waited = Async.supply(() -> {
                waiter.set(Thread.currentThread());
                started.countDown();
                first.waitUntilPoolClosed();
                return true;
            });
            started.await();
            Waits.untilBlockedOrDone(waiter.get());
            assertFalse(waited.isDone(), "waitUntilPoolClosed() returned before the pool was complete");
            RegistryLog lastLog = new RegistryLog();
            logs.add(lastLog);
            Ibis last = pool.create(pool.properties(n), caps, lastLog, Types.ONE_TO_ONE);
            last.registry().enableEvents();
            members.add(last);
            assertTrue(waited.get(40, TimeUnit.SECONDS));
            for (Ibis m : members) {
                m.registry().waitUntilPoolClosed();
                assertTrue(m.registry().isClosed());
                assertEquals(m.registry().getPoolSize(), n);
            }
            for (RegistryLog log : logs) {
                List<String> events = log.awaitEvent("closed");
                assertEquals(events.stream().filter(e -> e.startsWith("joined ")).count(), (long) n,
                        "every member was told about all joins by the time the pool closed: " + events);
            }
        }
    }

    @Test(timeOut = 60_000)
    public void terminationReachesEveryMember() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            IbisCapabilities caps = new IbisCapabilities(IbisCapabilities.TERMINATION,
                    IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);
            RegistryLog logB = new RegistryLog();
            Ibis a = pool.create(caps, null, Types.ONE_TO_ONE);
            Ibis b = pool.create(caps, logB, Types.ONE_TO_ONE);
            Ibis c = pool.create(caps, null, Types.ONE_TO_ONE);
            b.registry().enableEvents();
            assertFalse(c.registry().hasTerminated());
            CompletableFuture<IbisIdentifier> waiting = Async.supply(
                    () -> c.registry().waitUntilTerminated());
            a.registry().terminate();
            assertEquals(waiting.get(40, TimeUnit.SECONDS), a.identifier());
            assertTrue(c.registry().hasTerminated());
            assertEquals(b.registry().waitUntilTerminated(), a.identifier());
            logB.awaitEvent("terminated " + a.identifier().name());
        }
    }

    @Test(timeOut = 60_000)
    public void terminateClosesAnOpenPoolFirstAndRefusesLaterJoins() throws Exception {
        // IPL 2.x Registry.terminate: "Also closes the pool, if it has not been closed yet, stopping any new
        // ibisses from joining the pool."
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            IbisCapabilities caps = new IbisCapabilities(IbisCapabilities.TERMINATION,
                    IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);
            RegistryLog logB = new RegistryLog();
            Ibis a = pool.create(caps, null, Types.ONE_TO_ONE);
            Ibis b = pool.create(caps, logB, Types.ONE_TO_ONE);
            b.registry().enableEvents();
            assertFalse(a.registry().isClosed(), "an open world is not closed before it is terminated");
            a.registry().terminate();
            String terminated = "terminated " + a.identifier().name();
            List<String> events = logB.awaitEvent(terminated);
            assertEquals(events.subList(events.size() - 2, events.size()), List.of("closed", terminated),
                    "poolClosed comes right before poolTerminated: " + events);
            assertTrue(a.registry().isClosed());
            assertTrue(b.registry().isClosed());
            expectThrows(IbisCreationFailedException.class, () -> pool.create(caps, null, Types.ONE_TO_ONE));
        }
    }

    @Test(timeOut = 60_000)
    public void registryMethodsNeedTheirCapability() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(new IbisCapabilities(), null, Types.ONE_TO_ONE);
            Ibis b = pool.create(new IbisCapabilities(), null, Types.ONE_TO_ONE);
            expectThrows(IbisConfigurationException.class, () -> a.registry().signal("x", b.identifier()));
            expectThrows(IbisConfigurationException.class, () -> a.registry().terminate());
            expectThrows(IbisConfigurationException.class, () -> a.registry().waitUntilPoolClosed());
        }
    }

    @Test(timeOut = 60_000)
    public void sequenceNumbersAreUniqueAndIncreasingAcrossMembers() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(new IbisCapabilities(), null, Types.ONE_TO_ONE);
            Ibis b = pool.create(new IbisCapabilities(), null, Types.ONE_TO_ONE);
            List<List<Long>> seqs = concurrently(2, i -> () -> {
                Registry r = (i == 0 ? a : b).registry();
                List<Long> mine = new ArrayList<>();
                for (int k = 0; k < 20; k++) {
                    mine.add(r.getSequenceNumber("counter"));
                }
                return mine;
            });
            Set<Long> all = new HashSet<>();
            for (List<Long> mine : seqs) {
                for (int k = 1; k < mine.size(); k++) {
                    assertTrue(mine.get(k) > mine.get(k - 1), "increasing: " + mine);
                }
                all.addAll(mine);
            }
            assertEquals(all.size(), 40, "unique: " + seqs);
        }
    }

    @Test(timeOut = 60_000)
    public void identifiersCarryNamePoolTagAndLocationAndCompareConsistently() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            RegistryLog log = new RegistryLog();
            Ibis a = pool.createTagged("tag-α", MEMBERSHIP, log, Types.ONE_TO_ONE);
            a.registry().enableEvents();
            Properties pb = pool.properties();
            pb.setProperty("ibis.location", "node7@rack2@site");
            Ibis b = pool.create(pb, MEMBERSHIP, null, Types.ONE_TO_ONE);
            IbisIdentifier ia = a.identifier();
            IbisIdentifier ib = b.identifier();
            assertEquals(ia.tagAsString(), "tag-α");
            assertEquals(ia.tag(), "tag-α".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertNull(ib.tag());
            assertNull(ib.tagAsString());
            assertEquals(ia.poolName(), pool.poolName());
            assertEquals(ib.poolName(), pool.poolName());
            assertNotNull(ia.name());
            assertNotEquals(ia.name(), ib.name());
            assertNotEquals(ia, ib);
            assertTrue(ia.toString().contains(ia.name()), ia.toString());
            assertEquals(ia.compareTo(ia), 0);
            assertEquals(Integer.signum(ia.compareTo(ib)), -Integer.signum(ib.compareTo(ia)));
            assertNotEquals(ia.compareTo(ib), 0);
            Location loc = ib.location();
            assertNotNull(loc);
            assertEquals(loc.numberOfLevels(), 3);
            assertEquals(new HashSet<>(Arrays.asList(loc.getLevels())), Set.of("node7", "rack2", "site"));
            assertNotNull(ia.location());
            assertTrue(ia.location().numberOfLevels() >= 1);

            // The identifier another member is told about equals the member's own.
            log.awaitEvent("joined " + ib.name());
            IbisIdentifier copy = ConnectionContractTest.roundTrip(ib);
            assertEquals(copy, ib);
            assertEquals(copy.hashCode(), ib.hashCode());
            assertEquals(copy.compareTo(ib), 0);
            assertEquals(copy.tagAsString(), ib.tagAsString());
        }
    }

    @Test(timeOut = 60_000)
    public void theRegistryEventHandlerSeesTheSameIdentifiersAsTheMembers() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            List<IbisIdentifier> joined = new ArrayList<>();
            CountDownLatch two = new CountDownLatch(2);
            ibis.ipl.RegistryEventHandler handler = new ibis.ipl.RegistryEventHandler() {
                @Override
                public void joined(IbisIdentifier id) {
                    synchronized (joined) {
                        joined.add(id);
                    }
                    two.countDown();
                }

                @Override
                public void left(IbisIdentifier id) {
                }

                @Override
                public void died(IbisIdentifier id) {
                }

                @Override
                public void gotSignal(String signal, IbisIdentifier source) {
                }

                @Override
                public void electionResult(String electionName, IbisIdentifier winner) {
                }

                @Override
                public void poolClosed() {
                }

                @Override
                public void poolTerminated(IbisIdentifier source) {
                }
            };
            Ibis a = pool.create(MEMBERSHIP, handler, Types.ONE_TO_ONE);
            a.registry().enableEvents();
            Ibis b = pool.create(MEMBERSHIP, null, Types.ONE_TO_ONE);
            assertTrue(two.await(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS));
            synchronized (joined) {
                assertEquals(joined, List.of(a.identifier(), b.identifier()));
            }
        }
    }

    @Test(timeOut = 60_000)
    public void propertiesReflectWhatTheIbisWasCreatedWith() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Properties p = pool.properties();
            p.setProperty("contract.marker", "present");
            Ibis a = pool.create(p, new IbisCapabilities(), null, Types.ONE_TO_ONE);
            Properties seen = a.properties();
            assertEquals(seen.getProperty("contract.marker"), "present");
            assertEquals(seen.getProperty("ibis.pool.name"), pool.poolName());
            assertEquals(seen.getProperty("ibis.server.address"), pool.serverAddress());
            assertEquals(seen.getProperty("ibis.implementation"), ImplementationUnderTest.nickname());
            seen.setProperty("contract.marker", "changed");
            assertEquals(a.properties().getProperty("contract.marker"), "present", "properties() returns a copy");
            assertEquals(a.registry().getPoolName(), pool.poolName());
            assertNotNull(a.getVersion());
        }
    }

    @Test(timeOut = 60_000)
    public void assumeDeadReportsTheMemberDiedToEveryoneAndReplacesItAsElectionWinner() throws Exception {
        IbisCapabilities caps = new IbisCapabilities(IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED,
                IbisCapabilities.ELECTIONS_STRICT);
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            RegistryLog logA = new RegistryLog();
            Ibis a = pool.create(caps, logA, Types.ONE_TO_ONE);
            a.registry().enableEvents();
            RegistryLog logC = new RegistryLog();
            Ibis c = pool.create(caps, logC, Types.ONE_TO_ONE);
            c.registry().enableEvents();
            Ibis b = pool.create(caps, null, Types.ONE_TO_ONE);
            String bName = b.identifier().name();
            assertEquals(b.registry().elect("boss"), b.identifier());
            logA.awaitEvent("joined " + bName);
            a.registry().assumeDead(b.identifier());
            logA.awaitEvent("died " + bName);
            logC.awaitEvent("died " + bName);
            assertEquals(c.registry().elect("boss"), c.identifier(), "the dead winner was replaced");
        }
    }

    @Test(timeOut = 60_000)
    public void getTokenTakesOneOfTheAddedTokensAndReturnsNullAtOnceWhenNoneIsLeft() throws Exception {
        // IPL 2.x Registry.getToken: "Gets and subtracts a token from the registry. If it is not available,
        // NULL is returned." A getToken that waited for a token would hang here and fail by the timeOut.
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(new IbisCapabilities(), null, Types.ONE_TO_ONE);
            Ibis b = pool.create(new IbisCapabilities(), null, Types.ONE_TO_ONE);
            assertNull(b.registry().getToken("work"), "no token was ever added");
            a.registry().addTokens("work", 2);
            assertEquals(b.registry().getToken("work"), "work", "a token is its name");
            assertEquals(a.registry().getToken("work"), "work");
            assertNull(b.registry().getToken("work"), "two added, two taken: none left");
            assertNull(a.registry().getToken("work"));
        }
    }

    @Test(timeOut = 60_000)
    public void aPoolWithoutClosedWorldHasNoFixedSize() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(new IbisCapabilities(), null, Types.ONE_TO_ONE);
            assertEquals(a.registry().getPoolSize(), -1);
        }
    }
}
