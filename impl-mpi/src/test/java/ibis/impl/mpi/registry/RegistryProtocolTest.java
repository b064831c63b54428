package ibis.impl.mpi.registry;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.RegistryEventHandler;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/**
 * The registry over MPI's protocol, with N simulated ranks in one JVM ({@link QueueChannels}):
 * joins in rank order, elections, signals, sequence numbers, tokens, termination, leave and
 * assumeDead, and the joins it refuses. The same behaviour under real mpirun is checked by
 * {@code MpiRegistryUnderMpirunTest}.
 */
public class RegistryProtocolTest {

    private static final IbisCapabilities ALL = new IbisCapabilities(IbisCapabilities.CLOSED_WORLD,
            IbisCapabilities.ELECTIONS_STRICT, IbisCapabilities.SIGNALS, IbisCapabilities.TERMINATION,
            IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);

    private ExecutorService threads;

    @BeforeMethod
    public void startThreads() {
        threads = Executors.newCachedThreadPool();
    }

    @AfterMethod(alwaysRun = true)
    public void stopThreads() {
        threads.shutdownNow();
    }

    /** Events received by a handler, as text, in order. */
    private static final class Recorder implements RegistryEventHandler {
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();

        @Override
        public void joined(IbisIdentifier m) {
            events.add("joined " + m.name());
        }

        @Override
        public void left(IbisIdentifier m) {
            events.add("left " + m.name());
        }

        @Override
        public void died(IbisIdentifier m) {
            events.add("died " + m.name());
        }

        @Override
        public void gotSignal(String signal, IbisIdentifier source) {
            events.add("signal " + signal + " from " + source.name());
        }

        @Override
        public void electionResult(String election, IbisIdentifier winner) {
            events.add("elected " + election + " " + winner.name());
        }

        @Override
        public void poolClosed() {
            events.add("closed");
        }

        @Override
        public void poolTerminated(IbisIdentifier source) {
            events.add("terminated by " + source.name());
        }

        String next() throws InterruptedException {
            String e = events.poll(10, TimeUnit.SECONDS);
            assertTrue(e != null, "no event within 10 s");
            return e;
        }
    }

    private <T> List<T> all(int n, Callable<T>[] tasks) throws Exception {
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            futures.add(threads.submit(tasks[i]));
        }
        List<T> results = new ArrayList<>();
        for (Future<T> f : futures) {
            results.add(f.get(20, TimeUnit.SECONDS));
        }
        return results;
    }

    @SuppressWarnings("unchecked")
    private List<MpiRegistryClient> joinAll(int n, IbisCapabilities caps, RegistryEventHandler[] handlers,
            Properties props) throws Exception {
        QueueChannels channels = new QueueChannels(n);
        Callable<MpiRegistryClient>[] joins = new Callable[n];
        for (int r = 0; r < n; r++) {
            int rank = r;
            joins[r] = () -> MpiRegistryClient.join(channels.channel(rank), caps,
                    handlers == null ? null : handlers[rank], props, "mpi", new byte[] {(byte) rank}, null);
        }
        return all(n, joins);
    }

    private static Properties pool(String name) {
        Properties p = new Properties();
        p.setProperty("ibis.pool.name", name);
        return p;
    }

    @Test(timeOut = 30_000)
    public void everyMemberSeesEveryRankJoinInRankOrderThenTheClosedPool() throws Exception {
        Recorder[] recorders = {new Recorder(), new Recorder(), new Recorder(), new Recorder()};
        List<MpiRegistryClient> members = joinAll(4, ALL, recorders, pool("order"));
        for (int r = 0; r < 4; r++) {
            MpiRegistryClient m = members.get(r);
            assertEquals(m.identifier().name(), Integer.toString(r));
            assertEquals(m.getPoolSize(), 4);
            assertEquals(m.getPoolName(), "order");
            assertTrue(m.isClosed());
            m.waitUntilPoolClosed();
            m.enableEvents();
            for (int j = 0; j < 4; j++) {
                assertEquals(recorders[r].next(), "joined " + j);
            }
            assertEquals(recorders[r].next(), "closed");
        }
        // The identifier carries each rank's contact data.
        assertEquals(members.get(2).identifier().implementationData(), new byte[] {2});
    }

    @Test(timeOut = 30_000)
    public void withoutAHandlerTheFirstJoinedIbisesCallListsEveryRankInOrder() throws Exception {
        List<MpiRegistryClient> members = joinAll(3, ALL, null, pool("downcalls"));
        IbisIdentifier[] joined = members.get(1).joinedIbises();
        assertEquals(joined.length, 3);
        for (int r = 0; r < 3; r++) {
            assertEquals(joined[r].name(), Integer.toString(r));
        }
        assertEquals(members.get(1).joinedIbises().length, 0, "forgotten once fetched");
    }

    /** IPL 2.x: a timeout of -1 means "do not wait": the winner known now, or null. */
    @Test(timeOut = 30_000)
    public void getElectionResultWithTimeoutMinusOneAnswersWithoutWaiting() throws Exception {
        List<MpiRegistryClient> members = joinAll(2, ALL, null, pool("nowait"));
        assertNull(members.get(0).getElectionResult("leader", -1), "no winner yet: null at once");
        IbisIdentifier winner = members.get(1).elect("leader");
        members.get(0).getSequenceNumber("flush"); // round trip: the election has reached rank 0's member
        assertEquals(members.get(0).getElectionResult("leader", -1), winner, "the winner known now");
    }

    /** IPL 2.x: {@code signal(s, null)} signals every member, the sender included. */
    @Test(timeOut = 30_000)
    public void aNullTargetListSignalsEveryMemberTheSenderIncluded() throws Exception {
        Recorder[] recorders = {new Recorder(), new Recorder(), new Recorder()};
        List<MpiRegistryClient> members = joinAll(3, ALL, recorders, pool("broadcast"));
        members.get(1).signal("nobody");
        members.get(1).signal("everybody", (IbisIdentifier[]) null);
        for (int r = 0; r < 3; r++) {
            members.get(r).enableEvents();
            for (int j = 0; j < 4; j++) {
                recorders[r].next(); // 3 joins, closed
            }
            assertEquals(recorders[r].next(), "signal everybody from 1", "rank " + r);
        }
    }

    @SuppressWarnings("unchecked")
    @Test(timeOut = 30_000)
    public void concurrentCandidatesAgreeOnOneWinnerAndEveryoneLearnsIt() throws Exception {
        List<MpiRegistryClient> members = joinAll(4, ALL, null, pool("elect"));
        Callable<IbisIdentifier>[] candidates = new Callable[4];
        for (int r = 0; r < 4; r++) {
            MpiRegistryClient m = members.get(r);
            candidates[r] = () -> m.elect("leader");
        }
        List<IbisIdentifier> winners = all(4, candidates);
        for (IbisIdentifier w : winners) {
            assertEquals(w, winners.get(0));
        }
        for (MpiRegistryClient m : members) {
            assertEquals(m.getElectionResult("leader", 5000), winners.get(0));
            assertEquals(m.elect("leader", 5000), winners.get(0), "a later candidate gets the same winner");
        }
        assertNull(members.get(0).getElectionResult("nobody-ran", 50), "no candidate: no winner in time");
    }

    @Test(timeOut = 30_000)
    public void aSignalReachesExactlyItsTargetsWithItsSender() throws Exception {
        Recorder[] recorders = {new Recorder(), new Recorder(), new Recorder()};
        List<MpiRegistryClient> members = joinAll(3, ALL, recorders, pool("signals"));
        members.get(1).signal("hello", members.get(0).identifier(), members.get(2).identifier());
        members.get(0).signal("back", members.get(1).identifier());
        for (int r = 0; r < 3; r++) {
            members.get(r).enableEvents();
            for (int j = 0; j < 4; j++) {
                recorders[r].next(); // 3 joins, closed
            }
        }
        assertEquals(recorders[0].next(), "signal hello from 1");
        assertEquals(recorders[2].next(), "signal hello from 1");
        assertEquals(recorders[1].next(), "signal back from 0");
        // A round trip of rank 2 flushes every earlier event to it: nothing else came.
        members.get(2).getSequenceNumber("flush");
        assertTrue(recorders[2].events.isEmpty(), recorders[2].events.toString());
    }

    @SuppressWarnings("unchecked")
    @Test(timeOut = 30_000)
    public void sequenceNumbersAreUniqueAndIncreasePerCaller() throws Exception {
        List<MpiRegistryClient> members = joinAll(3, ALL, null, pool("sequence"));
        Callable<List<Long>>[] callers = new Callable[3];
        for (int r = 0; r < 3; r++) {
            MpiRegistryClient m = members.get(r);
            callers[r] = () -> {
                List<Long> got = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    got.add(m.getSequenceNumber("s"));
                }
                return got;
            };
        }
        Set<Long> seen = new HashSet<>();
        for (List<Long> got : all(3, callers)) {
            for (int i = 1; i < got.size(); i++) {
                assertTrue(got.get(i) > got.get(i - 1), "increasing: " + got);
            }
            seen.addAll(got);
        }
        assertEquals(seen.size(), 300, "unique");
        for (long v = 0; v < 300; v++) {
            assertTrue(seen.contains(v), "0..299 without gaps, missing " + v);
        }
        assertEquals(members.get(0).getSequenceNumber("other"), 0L, "one counter per name");
    }

    @Test(timeOut = 30_000)
    public void terminationIsSeenByEveryMemberWithItsTerminator() throws Exception {
        Recorder[] recorders = {new Recorder(), new Recorder(), new Recorder()};
        List<MpiRegistryClient> members = joinAll(3, ALL, recorders, pool("terminate"));
        assertFalse(members.get(0).hasTerminated());
        members.get(2).terminate();
        members.get(0).terminate(); // a second terminate is ignored
        members.get(1).signal("after", (IbisIdentifier[]) null); // a later event, to see what came between
        for (int r = 0; r < 3; r++) {
            assertEquals(members.get(r).waitUntilTerminated(), members.get(2).identifier());
            assertTrue(members.get(r).hasTerminated());
            members.get(r).enableEvents();
            for (int j = 0; j < 3; j++) {
                assertEquals(recorders[r].next(), "joined " + j);
            }
            assertEquals(recorders[r].next(), "closed", "closed once every rank joined");
            // The pool was closed already: terminate (which closes a pool that is not, IPL 2.x) adds no poolClosed.
            assertEquals(recorders[r].next(), "terminated by 2");
            assertEquals(recorders[r].next(), "signal after from 1");
            assertTrue(members.get(r).isClosed());
            members.get(r).waitUntilPoolClosed();
        }
    }

    @Test(timeOut = 30_000)
    public void leavingMembersAreSeenLeftTheirElectionsClearAndRankZeroKeepsCoordinating() throws Exception {
        List<MpiRegistryClient> members = joinAll(3, ALL, null, pool("leave"));
        for (MpiRegistryClient m : members) {
            m.joinedIbises();
        }
        assertEquals(members.get(1).elect("e"), members.get(1).identifier());
        members.get(1).leave();
        members.get(1).leave(); // idempotent
        expectThrows(IOException.class, () -> members.get(1).getSequenceNumber("after"));
        // Rank 0, the coordinator, leaves too: it goes on serving rank 2.
        members.get(0).leave();
        MpiRegistryClient last = members.get(2);
        assertEquals(last.elect("e"), last.identifier(), "the winner left: the next candidate wins");
        assertEquals(last.getSequenceNumber("after"), 0L);
        IbisIdentifier[] left = last.leftIbises();
        assertEquals(left.length, 2);
        assertEquals(left[0].name(), "1");
        assertEquals(left[1].name(), "0");
        last.leave();
    }

    /** IPL 2.x: getToken never waits; with no token left it returns null at once (it would hang here if it waited). */
    @Test(timeOut = 30_000)
    public void getTokenWithNoneAvailableReturnsNullAtOnce() throws Exception {
        List<MpiRegistryClient> members = joinAll(2, ALL, null, pool("no-tokens"));
        assertNull(members.get(1).getToken("t"), "a name that never had tokens has none");
        members.get(0).addTokens("t", 0);
        assertNull(members.get(0).getToken("t"), "adding 0 tokens adds none");
        members.get(0).addTokens("t", 1);
        assertEquals(members.get(1).getToken("t"), "t");
        assertNull(members.get(0).getToken("t"), "the only token was taken by the other rank");
        assertEquals(members.get(1).getSequenceNumber("after"), 0L, "a null answer leaves the member usable");
    }

    @Test(timeOut = 30_000)
    public void getTokenReturnsTheNameAndTakesExactlyTheAddedCountAcrossMembers() throws Exception {
        List<MpiRegistryClient> members = joinAll(3, ALL, null, pool("tokens"));
        members.get(0).addTokens("t", 3);
        members.get(2).addTokens("t", 1);
        members.get(1).addTokens("u", 1);
        for (int i = 0; i < 4; i++) {
            assertEquals(members.get(i % 3).getToken("t"), "t", "token " + i + " of 4");
        }
        for (MpiRegistryClient m : members) {
            assertNull(m.getToken("t"), "4 added, 4 taken: none left");
        }
        assertEquals(members.get(0).getToken("u"), "u", "each name has its own tokens");
        assertNull(members.get(2).getToken("u"));
        expectThrows(IllegalArgumentException.class, () -> members.get(0).addTokens("t", -1));
        expectThrows(NullPointerException.class, () -> members.get(0).getToken(null));
    }

    @Test(timeOut = 60_000)
    public void tokenNamesAreBoundedButANameThatHasTokensStillTakesMore() throws Exception {
        List<MpiRegistryClient> members = joinAll(2, ALL, null, pool("token-names"));
        MpiRegistryClient m = members.get(1);
        for (int i = 0; i < RegistryCoordinator.MAX_ENTRIES; i++) {
            m.addTokens("n" + i, 1);
        }
        IOException full = expectThrows(IOException.class, () -> m.addTokens("one-too-many", 1));
        assertTrue(full.getMessage().contains("too many token names"), full.getMessage());
        members.get(0).addTokens("n0", 1);
        assertEquals(members.get(0).getToken("n0"), "n0");
        assertEquals(m.getToken("n0"), "n0");
        assertNull(m.getToken("n0"));
        m.addTokens("one-more", 1); // n0 ran out and was forgotten: room for one name
        assertEquals(members.get(0).getToken("one-more"), "one-more");
    }

    @Test(timeOut = 30_000)
    public void aMemberDeclaredDeadIsReportedDiedEverywhereAndCanNoLongerCall() throws Exception {
        Recorder[] recorders = {new Recorder(), new Recorder(), new Recorder()};
        List<MpiRegistryClient> members = joinAll(3, ALL, recorders, pool("dead"));
        members.get(0).maybeDead(members.get(2).identifier()); // MPI is fail-stop: nothing happens
        members.get(0).assumeDead(members.get(2).identifier());
        for (int r = 0; r < 3; r++) {
            members.get(r).enableEvents();
            for (int j = 0; j < 4; j++) {
                recorders[r].next();
            }
            assertEquals(recorders[r].next(), "died 2");
        }
        expectThrows(IOException.class, () -> members.get(2).getSequenceNumber("x"));
        expectThrows(IOException.class, () -> members.get(2).getToken("x"));
        expectThrows(IOException.class, () -> members.get(2).addTokens("x", 1));
        assertEquals(members.get(1).getSequenceNumber("x"), 0L);
    }

    @Test(timeOut = 30_000)
    public void ranksThatDisagreeOnThePoolAreRefusedSayingWhy() throws Exception {
        QueueChannels channels = new QueueChannels(2);
        Future<?> a = threads.submit(() -> MpiRegistryClient.join(channels.channel(0), ALL, null, pool("one"), "mpi",
                null, null));
        Future<?> b = threads.submit(() -> MpiRegistryClient.join(channels.channel(1), ALL, null, pool("two"), "mpi",
                null, null));
        for (Future<?> f : List.of(a, b)) {
            Exception e = expectThrows(Exception.class, () -> f.get(10, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof IOException, e.toString());
            assertTrue(e.getCause().getMessage().contains("ibis.pool.name"), e.getCause().getMessage());
        }
    }

    @Test(timeOut = 30_000)
    public void aPoolSizeOtherThanTheJobsIsRefused() throws Exception {
        Properties p = pool("size");
        p.setProperty("ibis.pool.size", "3");
        Exception e = expectThrows(Exception.class, () -> joinAll(2, ALL, null, p));
        assertTrue(e.getCause().getMessage().contains("ibis.pool.size=3 but the MPI job has 2 ranks"),
                e.getCause().getMessage());
    }

    @Test
    public void aMalleablePoolCannotBeOfferedAndTheMessageNamesTheFix() {
        IbisCapabilities malleable = new IbisCapabilities(IbisCapabilities.MALLEABLE);
        IbisConfigurationException e = expectThrows(IbisConfigurationException.class,
                () -> MpiRegistryClient.join(new QueueChannels(1).channel(0), malleable, null, pool("m"), "mpi", null,
                        null));
        assertTrue(e.getMessage().contains("ibis.registry.implementation=central"), e.getMessage());
    }

    @Test(timeOut = 30_000)
    public void aJoinWithoutTheOtherRanksTimesOutSayingEveryRankMustJoin() {
        Properties p = pool("alone");
        p.setProperty(MpiRegistryProperties.JOIN_TIMEOUT, "200");
        IOException e = expectThrows(IOException.class, () -> MpiRegistryClient.join(new QueueChannels(2).channel(1),
                ALL, null, p, "mpi", null, null));
        assertTrue(e.getMessage().contains("every rank must create its Ibis"), e.getMessage());
    }

    @Test
    public void capabilitiesNotAskedForGiveAConfigurationError() throws Exception {
        List<MpiRegistryClient> members = joinAll(1, new IbisCapabilities(), null, pool("caps"));
        MpiRegistryClient m = members.get(0);
        expectThrows(IbisConfigurationException.class, () -> m.elect("x"));
        expectThrows(IbisConfigurationException.class, () -> m.signal("s", m.identifier()));
        expectThrows(IbisConfigurationException.class, m::terminate);
        expectThrows(IbisConfigurationException.class, m::waitUntilPoolClosed);
        assertEquals(m.getPoolSize(), 1);
        m.leave();
    }

    @Test
    public void theDefaultPoolNameComesFromTheJobSoEveryRankAgrees() {
        assertEquals(MpiRegistryClient.defaultPoolName(java.util.Map.of("OMPI_MCA_ess_base_jobid", "123")), "ompi-123");
        assertEquals(MpiRegistryClient.defaultPoolName(java.util.Map.of("SLURM_JOB_ID", "9")), "slurm-9");
        assertEquals(MpiRegistryClient.defaultPoolName(java.util.Map.of()), "mpi-world");
    }
}
