package ibis.benchmarks.gmi;

import ibis.benchmarks.JitActivity;
import ibis.gmi.CombineReply;
import ibis.gmi.CombinedInvocation;
import ibis.gmi.DiscardReply;
import ibis.gmi.Group;
import ibis.gmi.GroupInvocation;
import ibis.gmi.GroupMethod;
import ibis.gmi.PersonalizedInvocation;
import ibis.gmi.ReturnReply;
import ibis.gmi.SingleInvocation;
import ibis.gmi.collectives.Collectives;
import ibis.gmi.collectives.ReduceOp;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One process of a gmi suite job ({@link GmiSuite}): an ordinary GMI program, every process of the
 * pool a member of one group {@code bench} of {@link BenchGroup} and of the collectives
 * {@code bench-collectives}; started as a rank of {@code mpirun} (or directly, without MPI).
 *
 * <p>Arguments: {@code OPS REPS MEDIUM LARGE [PEER-CLASS]}: operations per timed run of a
 * scheme (and of a collective of 8 bytes), timed repetitions (after one untimed one), operations of
 * a collective of 8 KB and of 1 MB, and the class of the {@link MpiCollectivesPeer} to load (absent:
 * no MPI peer). The peer initializes MPI before GMI makes this process's Ibis, so that impl-mpi
 * ({@code ibis.implementation=mpi}) shares that initialization.
 *
 * <p>Process 0 ({@link Group#rank()}) prints per timed repetition
 * {@code RESULT scheme NAME MICROS} and {@code RESULT coll ibis|mpi allreduce|broadcast BYTES MICROS}
 * (microseconds per operation), and {@code PEER reason} when the peer could not be loaded. Every
 * result is checked: a wrong one ends the process with an exception.
 */
public final class GmiRank {

    /** The collectives' vector sizes in bytes (doubles: 1, 1024 and 131,072 elements). */
    static final int[] COLLECTIVE_BYTES = {8, 8 * 1024, 1024 * 1024};

    /** The schemes, in the order they are measured and reported. */
    static final List<String> SCHEMES = List.of("single/return", "group/discard", "group/return",
            "group/combine-flat", "group/combine-binomial", "personalized/discard", "personalized/combine-flat",
            "combined/allreduce");

    /** System property: milliseconds of the untimed warm-up of each measurement ({@link #warmUp}). */
    static final String WARMUP_MS_PROPERTY = "ibis.bench.gmi.warmup.ms";
    /** The default of {@link #WARMUP_MS_PROPERTY}. */
    static final long DEFAULT_WARMUP_MS = 1000;
    /** The most rounds of a warm-up. */
    static final int MAX_WARMUP_ROUNDS = 1000;
    /** A warm-up goes on while a JIT is busy up to this many times {@link #WARMUP_MS_PROPERTY} in all. */
    static final int WARMUP_EXTENSION = 5;

    private final int me;
    private final int n;
    private final int ops;
    private final long warmupNanos = Long.getLong(WARMUP_MS_PROPERTY, DEFAULT_WARMUP_MS) * 1_000_000L;
    private final Collectives collectives;
    private final BenchGroup barrierStub;
    private long pingsSent;

    private GmiRank(int ops, Collectives collectives) throws Exception {
        this.me = Group.rank();
        this.n = Group.size();
        this.ops = ops;
        this.collectives = collectives;
        this.barrierStub = (BenchGroup) Group.lookup("bench");
        if (me == 0) {
            method(barrierStub, "int awaitPings(int)").configure(new GroupInvocation(),
                    new CombineReply(new BenchCombiners.FlatSum()));
        }
    }

    /** Runs one process. */
    public static void main(String[] args) throws Exception {
        int ops = Integer.parseInt(args[0]);
        int reps = Integer.parseInt(args[1]);
        int[] collectiveOps = {ops, Integer.parseInt(args[2]), Integer.parseInt(args[3])};
        MpiCollectivesPeer peer = null;
        String peerMissing = null;
        if (args.length > 4) {
            try {
                peer = (MpiCollectivesPeer) Class.forName(args[4]).getDeclaredConstructor().newInstance();
                peer.init();
            } catch (Exception | LinkageError e) {
                peer = null;
                peerMissing = "loading or initializing the MPI peer failed in this process: " + e;
            }
        }
        boolean ibisOwnsMpi = "mpi".equals(System.getProperty("ibis.implementation"));

        int me = Group.rank();
        int n = Group.size();
        if (me == 0) {
            Group.create("bench", BenchGroup.class, n);
        }
        Group.join("bench", new BenchMember(), me);
        Collectives collectives = Collectives.open("bench-collectives", n);
        if (me == 0 && peerMissing != null) {
            System.out.println("PEER " + peerMissing);
        }
        GmiRank rank = new GmiRank(ops, collectives);
        rank.schemes(reps);
        rank.collectives(reps, collectiveOps, peer);
        collectives.barrier();
        Group.exit();
        if (peer != null) {
            peer.finish(ibisOwnsMpi);
        }
        System.out.flush();
        System.exit(0);
    }

    private static GroupMethod method(BenchGroup stub, String signature) throws NoSuchMethodException {
        return Group.findMethod(stub, signature);
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("wrong result: " + what);
        }
    }

    // ---------------------------------------------------------------- schemes

    /** A scheme's stub, configured once; {@link #run} does {@code ops} operations and waits for completion. */
    private abstract class Scheme {
        final String name;
        final BenchGroup stub;

        Scheme(String name) {
            this.name = name;
            this.stub = (BenchGroup) Group.lookup("bench");
        }

        /** Whether every process invokes (a combined invocation) or process 0 alone. */
        boolean collective() {
            return false;
        }

        abstract void run() throws Exception;
    }

    private List<Scheme> makeSchemes() throws Exception {
        List<Scheme> all = new ArrayList<>();
        int last = n - 1;
        all.add(new Scheme("single/return") {
            @Override
            void run() throws Exception {
                for (int i = 0; i < ops; i++) {
                    check(stub.value(i) == i + 1, name);
                }
            }
        });
        all.add(new Scheme("group/discard") {
            @Override
            void run() throws Exception {
                for (int i = 0; i < ops; i++) {
                    stub.ping(i);
                }
                awaitPings(ops);
            }
        });
        all.add(new Scheme("group/return") {
            @Override
            void run() throws Exception {
                for (int i = 0; i < ops; i++) {
                    check(stub.value(i) == i + 1, name);
                }
            }
        });
        all.add(new Scheme("group/combine-flat") {
            @Override
            void run() throws Exception {
                for (int i = 0; i < ops; i++) {
                    check(stub.value(i) == n * (i + 1), name);
                }
            }
        });
        all.add(new Scheme("group/combine-binomial") {
            @Override
            void run() throws Exception {
                for (int i = 0; i < ops; i++) {
                    check(stub.value(i) == n * (i + 1), name);
                }
            }
        });
        all.add(new Scheme("personalized/discard") {
            @Override
            void run() throws Exception {
                for (int i = 0; i < ops; i++) {
                    stub.ping(i);
                }
                awaitPings(ops);
            }
        });
        all.add(new Scheme("personalized/combine-flat") {
            @Override
            void run() throws Exception {
                int extra = n * (n + 1) / 2; // member r returns i + r + 1
                for (int i = 0; i < ops; i++) {
                    check(stub.value(i) == n * i + extra, name);
                }
            }
        });
        all.add(new Scheme("combined/allreduce") {
            @Override
            boolean collective() {
                return true;
            }

            @Override
            void run() throws Exception {
                // Every process invokes value(me): the parameters are summed in a binomial tree of
                // invokers, member 0 runs it once, and every invoker gets its result.
                int want = n * (n - 1) / 2 + 1;
                for (int i = 0; i < ops; i++) {
                    check(stub.value(me) == want, name);
                }
            }
        });
        for (Scheme s : all) {
            GroupMethod ping = method(s.stub, "void ping(int)");
            GroupMethod value = method(s.stub, "int value(int)");
            switch (s.name) {
                case "single/return" -> value.configure(new SingleInvocation(last), new ReturnReply(last));
                case "group/discard" -> ping.configure(new GroupInvocation(), new DiscardReply());
                case "group/return" -> value.configure(new GroupInvocation(), new ReturnReply(last));
                case "group/combine-flat" -> value.configure(new GroupInvocation(),
                        new CombineReply(new BenchCombiners.FlatSum()));
                case "group/combine-binomial" -> value.configure(new GroupInvocation(),
                        new CombineReply(new BenchCombiners.TreeSum()));
                case "personalized/discard" -> ping.configure(
                        new PersonalizedInvocation(new BenchCombiners.PlusRank()), new DiscardReply());
                case "personalized/combine-flat" -> value.configure(
                        new PersonalizedInvocation(new BenchCombiners.PlusRank()),
                        new CombineReply(new BenchCombiners.FlatSum()));
                case "combined/allreduce" -> value.configure(new CombinedInvocation("bench-allreduce", me, n,
                        new BenchCombiners.TreeSumParameters(), new SingleInvocation(0)), new ReturnReply(0));
                default -> throw new IllegalStateException(s.name);
            }
        }
        if (!all.stream().map(s -> s.name).toList().equals(SCHEMES)) {
            throw new IllegalStateException("schemes out of step with SCHEMES");
        }
        return all;
    }

    /** The completion barrier of discarded invocations: every member has counted every ping. */
    private void awaitPings(int sent) {
        pingsSent += sent;
        check(barrierStub.awaitPings((int) pingsSent) == n, "awaitPings");
    }

    private void schemes(int reps) throws Exception {
        List<Scheme> all = me == 0 ? makeSchemes() : collectiveSchemesOnly();
        for (int rep = -1; rep < reps; rep++) {
            for (String name : SCHEMES) {
                Scheme s = find(all, name);
                if (rep < 0) {
                    warmUp(() -> runScheme(s));
                    continue;
                }
                collectives.barrier();
                long start = System.nanoTime();
                runScheme(s);
                long end = System.nanoTime();
                if (me == 0 && rep >= 0) {
                    print("RESULT scheme %s %.3f", name, (end - start) / 1e3 / ops);
                }
            }
        }
        collectives.barrier();
    }

    /** One run of {@code ops} operations of a scheme (null: not configured here) and its completion. */
    private void runScheme(Scheme s) throws Exception {
        if (s != null && (me == 0 || s.collective())) {
            s.run();
        }
        if (s != null && s.collective()) {
            collectives.barrier();
        }
    }

    /** What a warm-up repeats. */
    private interface Body {
        void run() throws Exception;
    }

    /**
     * The untimed warm-up of a measurement: repeats {@code body} (one timed run's work) until process
     * 0 has spent {@link #WARMUP_MS_PROPERTY} in it, at least once, and after that while the JIT of any
     * process compiled for more than a twentieth of the last round ({@link JitActivity}), up to
     * {@value #WARMUP_EXTENSION} times that time in all; at most {@value #MAX_WARMUP_ROUNDS} rounds.
     * After each round the processes learn whether any JIT was busy (an allreduce of one int) and
     * process 0 broadcasts whether to go on, so every process repeats it equally often. A JVM reaches
     * its steady state (the JIT's compiled code) only after tens of thousands of messages, and later
     * on a host whose cores the spinning processes keep busy: a 1 MB allreduce between two processes
     * over ucx still ran at 450-600 µs after its first 3,000 operations (a 1 s warm-up), while the
     * JIT was compiling, and at 370-400 µs from about 3,500 on. The timed runs measure that steady
     * state, as the MPI peer's do.
     *
     * @return the rounds done
     */
    private int warmUp(Body body) throws Exception {
        long start = System.nanoTime();
        JitActivity jit = new JitActivity();
        int[] busy = new int[1];
        int[] go = new int[1];
        int rounds = 0;
        do {
            body.run();
            rounds++;
            busy[0] = jit.busy() ? 1 : 0;
            collectives.allreduce(busy, ReduceOp.MAX);
            long spent = System.nanoTime() - start;
            go[0] = me == 0 && rounds < MAX_WARMUP_ROUNDS && (spent < warmupNanos
                    || busy[0] != 0 && spent < WARMUP_EXTENSION * warmupNanos) ? 1 : 0;
            collectives.broadcast(go, 0);
        } while (go[0] != 0);
        return rounds;
    }

    /** Processes other than 0 configure only the combined invocation, in which they invoke too. */
    private List<Scheme> collectiveSchemesOnly() throws Exception {
        List<Scheme> mine = new ArrayList<>();
        for (Scheme s : makeSchemes()) {
            if (s.collective()) {
                mine.add(s);
            }
        }
        return mine;
    }

    private static Scheme find(List<Scheme> all, String name) {
        for (Scheme s : all) {
            if (s.name.equals(name)) {
                return s;
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- collectives

    /** Element i of process r's vector: exactly representable, so sums are exact. */
    private static double[] data(int rank, int count) {
        double[] d = new double[count];
        for (int i = 0; i < count; i++) {
            d[i] = (rank + 1) * (double) (i % 7 + 1);
        }
        return d;
    }

    private void collectives(int reps, int[] opsBySize, MpiCollectivesPeer peer) throws Exception {
        int mpiRank = peer == null ? -1 : peer.rank();
        for (int rep = -1; rep < reps; rep++) {
            for (int s = 0; s < COLLECTIVE_BYTES.length; s++) {
                int bytes = COLLECTIVE_BYTES[s];
                int count = bytes / Double.BYTES;
                int k = opsBySize[s];
                for (String op : List.of("allreduce", "broadcast")) {
                    boolean allreduce = op.equals("allreduce");
                    double[] buf = data(me, count);
                    int rounds = 0;
                    if (rep < 0) {
                        runIbis(allreduce, buf);
                        verify(buf, allreduce, "Ibis " + op + " of " + bytes + " bytes");
                        double[] warm = data(me, count);
                        rounds = warmUp(() -> {
                            for (int i = 0; i < k; i++) {
                                runIbis(allreduce, warm);
                            }
                        });
                    } else {
                        collectives.barrier();
                        long start = System.nanoTime();
                        for (int i = 0; i < k; i++) {
                            runIbis(allreduce, buf);
                        }
                        collectives.barrier();
                        long end = System.nanoTime();
                        if (me == 0) {
                            print("RESULT coll ibis %s %d %.3f", op, bytes, (end - start) / 1e3 / k);
                        }
                    }
                    if (peer == null) {
                        continue;
                    }
                    if (rep < 0) {
                        peer.load(data(mpiRank, count));
                        if (allreduce) {
                            peer.allreduce();
                        } else {
                            peer.broadcast();
                        }
                        verify(peer.contents(), allreduce, "MPI " + op + " of " + bytes + " bytes");
                    }
                    peer.load(data(mpiRank, count));
                    peer.barrier();
                    // The warm-up: as many operations as Ibis's (the same count at every process).
                    int timed = rep < 0 ? rounds * k : k;
                    long start = System.nanoTime();
                    for (int i = 0; i < timed; i++) {
                        if (allreduce) {
                            peer.allreduce();
                        } else {
                            peer.broadcast();
                        }
                    }
                    peer.barrier();
                    long end = System.nanoTime();
                    if (me == 0 && rep >= 0) {
                        print("RESULT coll mpi %s %d %.3f", op, bytes, (end - start) / 1e3 / k);
                    }
                }
            }
        }
    }

    private void runIbis(boolean allreduce, double[] buf) {
        if (allreduce) {
            collectives.allreduce(buf, ReduceOp.SUM);
        } else {
            collectives.broadcast(buf, 0);
        }
    }

    /** Allreduce: the sum of every process's {@link #data}; broadcast: process 0's data. */
    private void verify(double[] got, boolean allreduce, String what) {
        double factor = allreduce ? n * (n + 1) / 2.0 : 1;
        for (int i = 0; i < got.length; i++) {
            if (got[i] != factor * (i % 7 + 1)) {
                throw new IllegalStateException("wrong result: " + what + ": element " + i + " is " + got[i]
                        + ", not " + factor * (i % 7 + 1));
            }
        }
    }

    private static void print(String format, Object... args) {
        System.out.println(String.format(Locale.ROOT, format, args));
        System.out.flush();
    }
}
