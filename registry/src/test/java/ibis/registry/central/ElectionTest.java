package ibis.registry.central;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.impl.RegistryClient;
import ibis.registry.RecordingHandler;
import ibis.testsupport.PoolFixture;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.testng.annotations.Test;

/** Elections: one winner per name, seen by everybody; a new winner after the old one leaves. */
public class ElectionTest {

    private static final IbisCapabilities CAPS = new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT,
            IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);

    private static Set<IbisIdentifier> electConcurrently(List<RegistryClient> candidates, String election)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(candidates.size());
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<IbisIdentifier>> results = new ArrayList<>();
            for (RegistryClient c : candidates) {
                Callable<IbisIdentifier> vote = () -> {
                    start.await();
                    return c.elect(election);
                };
                results.add(pool.submit(vote));
            }
            start.countDown();
            Set<IbisIdentifier> winners = new HashSet<>();
            for (Future<IbisIdentifier> r : results) {
                winners.add(r.get());
            }
            return winners;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test(timeOut = 60_000)
    public void concurrentCandidatesAllGetTheSameSingleWinner() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            List<RegistryClient> members = new ArrayList<>();
            List<RecordingHandler> handlers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                RecordingHandler h = new RecordingHandler();
                RegistryClient c = f.join("election", CAPS, h);
                c.enableEvents();
                members.add(c);
                handlers.add(h);
            }
            Set<IbisIdentifier> winners = electConcurrently(members, "leader");
            assertEquals(winners.size(), 1, "exactly one winner: " + winners);
            IbisIdentifier winner = winners.iterator().next();
            assertTrue(members.stream().anyMatch(m -> m.identifier().equals(winner)), "the winner is a candidate");
            for (int i = 0; i < members.size(); i++) {
                assertEquals(members.get(i).getElectionResult("leader"), winner);
                handlers.get(i).await("election leader " + winner.name());
                long results = handlers.get(i).events().stream().filter(e -> e.startsWith("election leader")).count();
                assertEquals(results, 1L, "one electionResult upcall per decided election");
            }
            assertEquals(members.get(0).elect("leader"), winner, "a later candidate gets the same winner");
        }
    }

    @Test(timeOut = 60_000)
    public void getElectionResultWaitsForAWinnerOrTimesOut() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("wait", CAPS, null);
            RegistryClient b = f.join("wait", CAPS, null);
            assertNull(a.getElectionResult("nobody", 50), "no candidate: null after the timeout");
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<IbisIdentifier> waiting = pool.submit(() -> a.getElectionResult("later"));
                assertEquals(b.elect("later"), b.identifier());
                assertEquals(waiting.get(), b.identifier(), "a waiting getElectionResult() gets the winner");
            } finally {
                pool.shutdownNow();
            }
            RegistryClient c = f.join("wait", CAPS, null);
            assertEquals(c.getElectionResult("later", 1), b.identifier(), "a new member knows earlier results");
        }
    }

    /**
     * IPL 2.x: a member that joins after an election was decided gets its {@code electionResult}
     * upcall too (as part of the pool's history, before its own {@code joined}), so a handler
     * that waits for the winner works whenever the member joins.
     */
    @Test(timeOut = 60_000)
    public void aMemberThatJoinsAfterTheElectionGetsTheResultUpcall() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("late", CAPS, null);
            assertEquals(a.elect("leader"), a.identifier());
            RecordingHandler h = new RecordingHandler();
            RegistryClient late = f.join("late", CAPS, h);
            late.enableEvents();
            h.await("joined " + late.identifier().name());
            assertEquals(h.events(), List.of("joined " + a.identifier().name(), "election leader "
                    + a.identifier().name(), "joined " + late.identifier().name()));
            assertEquals(late.getElectionResult("leader", -1), a.identifier());
        }
    }

    /** IPL 2.x: a timeout of -1 means "do not wait": the winner known now, or null. */
    @Test(timeOut = 60_000)
    public void getElectionResultWithTimeoutMinusOneAnswersWithoutWaiting() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("nowait", CAPS, null);
            RegistryClient b = f.join("nowait", CAPS, null);
            assertNull(a.getElectionResult("leader", -1), "no winner yet: null at once");
            assertEquals(b.elect("leader"), b.identifier());
            a.getSequenceNumber("sync"); // round trip: the election has reached a
            assertEquals(a.getElectionResult("leader", -1), b.identifier(), "the winner known now");
            assertEquals(b.getElectionResult("leader", -1), b.identifier());
            assertNull(a.getElectionResult("nobody", Long.MIN_VALUE), "any negative timeout does not wait");
        }
    }

    @Test(timeOut = 60_000)
    public void aNewWinnerIsElectedAfterTheWinnerLeaves() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            List<RegistryClient> members = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                members.add(f.join("reelect", CAPS, null));
            }
            IbisIdentifier first = electConcurrently(members, "leader").iterator().next();
            RegistryClient winner = members.stream().filter(m -> m.identifier().equals(first)).findFirst().get();
            winner.leave();
            members.remove(winner);
            for (RegistryClient m : members) {
                m.getSequenceNumber("sync"); // round trip: the leave has reached m
                assertNull(m.getElectionResult("leader", 10), "the result is cleared when the winner leaves");
            }
            Set<IbisIdentifier> second = electConcurrently(members, "leader");
            assertEquals(second.size(), 1);
            assertNotEquals(second.iterator().next(), first);
            for (RegistryClient m : members) {
                assertEquals(m.getElectionResult("leader", 0), second.iterator().next());
            }
        }
    }
}
