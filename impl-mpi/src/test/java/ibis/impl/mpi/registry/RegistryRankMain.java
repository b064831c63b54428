package ibis.impl.mpi.registry;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.RegistryClient;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One rank of the registry test under mpirun ({@code MpiRegistryUnderMpirunTest}): joins the pool
 * over MPI and prints what it saw, one line per step, for the test to check across ranks:
 * {@code rank R joined 0,1,2 closed}, {@code rank R leader W}, {@code rank R sequence a,b,...},
 * {@code rank R signal ping-S from S}, {@code rank R terminated by W}, {@code rank 0 left 1,2},
 * {@code rank R OK}. Exits with 1 (and a line saying why) when a step fails or waits longer than 30 s.
 * With the argument {@code rank0-ends-first}, rank 0 ends right after the join instead (see
 * {@link #rankZeroEndsFirst}).
 */
public final class RegistryRankMain {

    private static final long STEP_SECONDS = 30;

    private RegistryRankMain() {
    }

    /** Events as text, in order. */
    private static final class Events implements RegistryEventHandler {
        final BlockingQueue<String> queue = new LinkedBlockingQueue<>();
        /** The members in the order they joined: index = rank. */
        final List<IbisIdentifier> members = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void joined(IbisIdentifier m) {
            members.add(m);
            queue.add("joined " + m.name());
        }

        @Override
        public void left(IbisIdentifier m) {
            queue.add("left " + m.name());
        }

        @Override
        public void died(IbisIdentifier m) {
            queue.add("died " + m.name());
        }

        @Override
        public void gotSignal(String signal, IbisIdentifier source) {
            queue.add("signal " + signal + " from " + source.name());
        }

        @Override
        public void electionResult(String election, IbisIdentifier winner) {
            queue.add("elected " + election + " " + winner.name());
        }

        @Override
        public void poolClosed() {
            queue.add("closed");
        }

        @Override
        public void poolTerminated(IbisIdentifier source) {
            queue.add("terminated by " + source.name());
        }

        /** Events taken from the queue while looking for another kind, in order (main thread only). */
        private final List<String> passed = new ArrayList<>();

        /**
         * The next event that starts with {@code prefix}; events of other kinds stay for later
         * calls (a rank's "left" may arrive before another rank's signal that a step waits for).
         */
        String next(String prefix) throws InterruptedException {
            for (Iterator<String> it = passed.iterator(); it.hasNext();) {
                String e = it.next();
                if (e.startsWith(prefix)) {
                    it.remove();
                    return e;
                }
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STEP_SECONDS);
            while (true) {
                String e = queue.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (e == null) {
                    throw new IllegalStateException("no '" + prefix + "' event within " + STEP_SECONDS + " s");
                }
                if (e.startsWith(prefix)) {
                    return e;
                }
                passed.add(e);
            }
        }
    }

    /** Runs the steps. */
    public static void main(String[] args) throws Exception {
        Events events = new Events();
        IbisCapabilities caps = new IbisCapabilities(IbisCapabilities.CLOSED_WORLD, IbisCapabilities.ELECTIONS_STRICT,
                IbisCapabilities.SIGNALS, IbisCapabilities.TERMINATION, IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);
        Properties props = new Properties();
        RegistryClient registry = new MpiRegistryProvider().join(caps, events, props, "mpi", new byte[0], null);
        int rank = Integer.parseInt(registry.identifier().name());
        int size = registry.getPoolSize();
        try {
            registry.enableEvents();
            if (args.length > 0 && args[0].equals("rank0-ends-first")) {
                rankZeroEndsFirst(registry, events, rank);
                return;
            }
            List<String> joined = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                joined.add(events.next("joined ").substring("joined ".length()));
            }
            events.next("closed");
            say(rank, "joined " + String.join(",", joined) + " closed");

            // Every rank is a candidate at about the same moment: they must agree.
            IbisIdentifier leader = registry.elect("leader");
            say(rank, "leader " + leader.name() + " result " + registry.getElectionResult("leader", 10_000).name());

            List<String> numbers = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                numbers.add(Long.toString(registry.getSequenceNumber("seq")));
            }
            say(rank, "sequence " + String.join(",", numbers));

            int next = (rank + 1) % size;
            registry.signal("ping-" + rank, events.members.get(next));
            say(rank, events.next("signal "));

            if (rank == Integer.parseInt(leader.name())) {
                registry.terminate();
            }
            say(rank, "terminated by " + registry.waitUntilTerminated().name());

            if (rank != 0) {
                registry.leave();
            } else {
                List<String> left = new ArrayList<>();
                for (int i = 1; i < size; i++) {
                    left.add(events.next("left ").substring("left ".length()));
                }
                left.sort(null);
                say(0, "left " + String.join(",", left));
                registry.leave();
            }
            say(rank, "OK");
        } catch (Exception | Error e) {
            say(rank, "FAILED " + e);
            System.out.flush();
            System.exit(1);
        }
    }

    /**
     * Rank 0 returns from main at once, without leaving: at exit its registry leaves for it and keeps
     * coordinating. The others wait until they see rank 0 leave, then still get answers.
     */
    private static void rankZeroEndsFirst(RegistryClient registry, Events events, int rank) throws Exception {
        if (rank == 0) {
            say(0, "ends");
            return;
        }
        events.next("left 0");
        long a = registry.getSequenceNumber("after");
        long b = registry.getSequenceNumber("after");
        IbisIdentifier leader = registry.elect("late");
        say(rank, "after rank 0 ended: sequence " + a + "," + b + " leader " + leader.name());
        registry.leave();
        say(rank, "OK");
    }

    private static void say(int rank, String what) {
        System.out.println("rank " + rank + " " + what);
    }
}
