package ibis.gmi.testing;

import ibis.gmi.CombineReply;
import ibis.gmi.CombinedInvocation;
import ibis.gmi.ConfigurationException;
import ibis.gmi.DiscardReply;
import ibis.gmi.ForwardReply;
import ibis.gmi.Group;
import ibis.gmi.GroupInvocation;
import ibis.gmi.GroupMethod;
import ibis.gmi.InvocationScheme;
import ibis.gmi.PersonalizeReply;
import ibis.gmi.PersonalizedInvocation;
import ibis.gmi.ReplyScheme;
import ibis.gmi.ReturnReply;
import ibis.gmi.SingleInvocation;
import ibis.gmi.impl.GmiRuntime;
import ibis.testsupport.PeerMain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A process of a GMI test pool ({@link GmiTestPool}); every process runs the same role.
 * <ul>
 * <li>{@code matrix}: a group "calc" of all processes (member rank = process rank) and a group
 * "solo" of 1; all processes run the combined invocations; process 0 runs every other scheme
 * combination, the exceptions and the configuration errors. Prints {@code PASS name} per check.</li>
 * <li>{@code kill}: a combined invocation of {@code blockOn(size - 1)} by all processes; the
 * last member blocks, the test kills it, the others print {@code CALL-FAILED exception}. Before
 * that, process 0 makes a forwarded group call of {@code blockOn}; after the kill it prints
 * {@code FORWARDED results} once its forwarder got the others' results and the victim's failure;
 * process 1 also makes a group call of {@code blockOn(size - 1)} with a flat combine from another
 * thread and prints {@code GROUP-CALL outcome} once it ended.</li>
 * <li>{@code collectives}: every collective of the collectives library ({@link CollectivesPeer}).</li>
 * <li>{@code collectives-kill}: an allreduce by all but the last process, which blocks and is killed;
 * the others print {@code CALL-FAILED exception}, and the same for a second collective.</li>
 * <li>{@code join-race}: {@value #RACE_GROUPS} groups of all processes, joined one after the other;
 * process 0's member lingers in {@code groupInit}, and every other process calls it as soon as
 * its lookup returns. Each call must find member 0 joined and initialized; prints
 * {@code RACE-OK groups} when all calls returned.</li>
 * <li>{@code lookup-in-init}: a group of all processes whose members look the group up in
 * {@code groupInit} and call the next member from there; prints {@code LOOKUP-IN-INIT-OK result}.</li>
 * <li>{@code hidden}: a group of the non-public interface {@link Hidden} (stubs, skeleton and
 * parameter vectors made at run time); every process calls each member once and makes a group
 * call with a flat combine; prints {@code HIDDEN-OK sum}.</li>
 * </ul>
 */
public final class GmiPeer implements PeerMain.Role {

    private static final long WAIT = 60_000;

    private int me;
    private int n;

    @Override
    public void run(String[] args) throws Exception {
        me = Group.rank();
        n = Group.size();
        PeerMain.say("RANK " + me);
        if (args[0].equals("matrix")) {
            matrix();
        } else if (args[0].equals("collectives")) {
            new CollectivesPeer(me, n).run();
        } else if (args[0].equals("collectives-kill")) {
            new CollectivesPeer(me, n).killed();
        } else if (args[0].equals("join-race")) {
            joinRace();
        } else if (args[0].equals("hidden")) {
            hidden();
        } else if (args[0].equals("lookup-in-init")) {
            lookupInInit();
        } else {
            kill();
        }
        Group.exit();
    }

    private static void expect(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    /** Groups of the {@code join-race} role. */
    static final int RACE_GROUPS = 12;

    /** A member whose groupInit takes a while, and that says whether a call came before it ended. */
    private static final class LingeringMember extends CalcMember {
        private volatile boolean initialized;

        @Override
        public void groupInit() {
            super.groupInit();
            // Not a synchronisation: it only widens the window in which a call could arrive
            // during the join; the test passes whatever the timing when joins are complete.
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(30));
            initialized = true;
        }

        @Override
        public int rankTimes(int x) {
            if (!initialized) {
                throw new IllegalStateException("invoked before its join and groupInit were done");
            }
            return super.rankTimes(x);
        }
    }

    private void joinRace() throws Exception {
        for (int g = 0; g < RACE_GROUPS; g++) {
            String name = "race-" + g;
            if (me == 0) {
                Group.create(name, Calc.class, n);
            }
            Group.join(name, me == 0 ? new LingeringMember() : new CalcMember(), me, WAIT);
            if (me != 0) {
                Calc stub = (Calc) Group.lookup(name, WAIT);
                m(stub, "int rankTimes(int)").configure(new SingleInvocation(0), new ReturnReply(0));
                expect(stub.rankTimes(g + 1) == g + 1, "member 0 of " + name + " answered");
            }
        }
        // Nobody leaves (closing its links) before the others' calls are done.
        Calc all = (Calc) Group.lookup("race-0", WAIT);
        GroupMethod barrier = m(all, "int echo(int)");
        barrier.configure(new CombinedInvocation("race-barrier", me, n, new Combiners.TreeSumParams(),
                new SingleInvocation(0)), new ReturnReply(0));
        all.echo(1);
        PeerMain.say("RACE-OK " + RACE_GROUPS);
    }

    /** A member whose groupInit looks its own group up and calls the next member, as earlier GMI programs do. */
    private static final class LookingMember extends CalcMember {
        private final String group;
        volatile int fromNext = -1;

        LookingMember(String group) {
            this.group = group;
        }

        @Override
        public void groupInit() {
            super.groupInit();
            Calc stub = (Calc) Group.lookup(group);
            int next = (myGroupRank + 1) % groupSize;
            try {
                m(stub, "int rankTimes(int)").configure(new SingleInvocation(next), new ReturnReply(next));
            } catch (ConfigurationException | NoSuchMethodException e) {
                throw new IllegalStateException(e);
            }
            fromNext = stub.rankTimes(10);
        }
    }

    private void lookupInInit() throws Exception {
        String name = "looking";
        if (me == 0) {
            Group.create(name, Calc.class, n);
        }
        LookingMember member = new LookingMember(name);
        Group.join(name, member, me, WAIT);
        int next = (me + 1) % n;
        expect(member.fromNext == (next + 1) * 10, "member " + next + " answered the call from groupInit with "
                + member.fromNext);
        // A lookup after the join is answered by the directory as before.
        Calc all = (Calc) Group.lookup(name, WAIT);
        GroupMethod barrier = m(all, "int echo(int)");
        barrier.configure(new CombinedInvocation("looking-barrier", me, n, new Combiners.TreeSumParams(),
                new SingleInvocation(0)), new ReturnReply(0));
        all.echo(1);
        PeerMain.say("LOOKUP-IN-INIT-OK " + member.fromNext);
    }

    private void hidden() throws Exception {
        if (me == 0) {
            Group.create("hidden", Hidden.class, n);
        }
        Group.join("hidden", new HiddenMember(), me, WAIT);
        Hidden stub = (Hidden) Group.lookup("hidden", WAIT);
        GroupMethod twice = Group.findMethod(stub, "int twice(int)");
        for (int r = 0; r < n; r++) {
            twice.configure(new SingleInvocation(r), new ReturnReply(r));
            expect(stub.twice(10) == 20 + r, "member " + r + " of the hidden group answered");
        }
        Group.findMethod(stub, "int whoAmI()").configure(new GroupInvocation(), new CombineReply(new Combiners.Sum()));
        int sum = stub.whoAmI();
        expect(sum == n * (n - 1) / 2, "the flat combine of the hidden group: " + sum);
        Hidden all = (Hidden) Group.lookup("hidden", WAIT);
        Group.findMethod(all, "int twice(int)").configure(new CombinedInvocation("hidden-barrier", me, n,
                new Combiners.TreeSumParams(), new SingleInvocation(0)), new ReturnReply(0));
        all.twice(1);
        PeerMain.say("HIDDEN-OK " + sum);
    }

    private static void pass(String name) {
        PeerMain.say("PASS " + name);
    }

    private static GroupMethod m(Calc stub, String signature) throws NoSuchMethodException {
        return Group.findMethod(stub, signature);
    }

    private static int[] all(int n) {
        int[] t = new int[n];
        Arrays.setAll(t, i -> i);
        return t;
    }

    private void matrix() throws Exception {
        if (me == 0) {
            Group.create("calc", Calc.class, n);
            Group.create("solo", Calc.class, 1);
        }
        CalcMember member = new CalcMember();
        Group.join("calc", member, me, WAIT);
        expect(member.initSaw.equals(me + "/" + n), "groupInit saw " + member.initSaw);
        expect(member.myGroupRank == me && member.groupSize == n, "rank and size fields");
        if (me == 0) {
            CalcMember solo = new CalcMember();
            Group.join("solo", solo, -1, WAIT);
            expect(solo.getRank() == 0 && solo.getSize() == 1, "solo rank/size");
        }
        Calc collective = (Calc) Group.lookup("calc", WAIT);
        // The last collective is the barrier: nobody leaves before process 0 is done.
        Calc barrier = (Calc) Group.lookup("calc", WAIT);
        GroupMethod echo = m(barrier, "int echo(int)");
        echo.configure(new CombinedInvocation("barrier", me, n, new Combiners.TreeSumParams(),
                new SingleInvocation(0)), new ReturnReply(0));
        combined(collective);
        if (me == 0) {
            Calc g = (Calc) Group.lookup("calc", WAIT);
            table(g);
            exceptions(g);
            configuration(g);
            groupOfOne();
            byValue(g);
            concurrentCalls();
        }
        expect(barrier.echo(1) == n, "barrier");
        PeerMain.say("DONE");
    }

    /**
     * The combined (collective) invocations: every process is an invoker. Then every process makes a
     * group call combined in a tree at once: the invoker's own member (which combines in the invoking
     * thread) is at every position of the tree once.
     */
    private void combined(Calc c) throws Exception {
        combinedInvocations(c);
        int sum = n * (n + 1) / 2;
        Calc every = (Calc) Group.lookup("calc", WAIT);
        m(every, "int rankTimes(int)").configure(new GroupInvocation(), new CombineReply(new Combiners.TreeSum()));
        for (int i = 1; i <= 20; i++) {
            expect(every.rankTimes(i) == i * sum, "group/combine-binomial by process " + me);
        }
        pass("group/combine-binomial/every-invoker");
    }

    private void combinedInvocations(Calc c) throws Exception {
        int sum = n * (n + 1) / 2;
        GroupMethod echo = m(c, "int echo(int)");
        GroupMethod rankTimes = m(c, "int rankTimes(int)");
        GroupMethod record = m(c, "void record(int)");

        echo.configure(new CombinedInvocation("flat-single", me, n, new Combiners.SumParams(), new SingleInvocation(0)),
                new ReturnReply(0));
        expect(c.echo(me + 1) == sum, "combined flat single return");
        pass("combined-flat/single/return");

        echo.configure(new CombinedInvocation("bin-single", me, n, new Combiners.TreeSumParams(),
                new SingleInvocation(n - 1)), new ReturnReply(n - 1));
        expect(c.echo(me + 1) == sum, "combined binomial single return");
        pass("combined-binomial/single/return");

        // allreduce-like: combined parameters, group invocation, results combined in a tree
        rankTimes.configure(new CombinedInvocation("bin-group", me, n, new Combiners.TreeSumParams(),
                new GroupInvocation()), new CombineReply(new Combiners.TreeSum()));
        expect(c.rankTimes(me + 1) == sum * sum, "combined binomial group combine-binomial");
        pass("combined-binomial/group/combine-binomial");

        rankTimes.configure(new CombinedInvocation("flat-group", me, n, new Combiners.SumParams(),
                new GroupInvocation()), new CombineReply(new Combiners.Sum()));
        expect(c.rankTimes(me + 1) == sum * sum, "combined flat group combine-flat");
        pass("combined-flat/group/combine-flat");

        // scatter after combining: member r gets sum + r
        rankTimes.configure(new CombinedInvocation("flat-personal", me, n, new Combiners.SumParams(),
                new PersonalizedInvocation(new Combiners.PlusRank())), new CombineReply(new Combiners.Sum()));
        int want = 0;
        for (int r = 0; r < n; r++) {
            want += (r + 1) * (sum + r);
        }
        expect(c.rankTimes(me + 1) == want, "combined flat personalized combine-flat");
        pass("combined-flat/personalized/combine-flat");

        // personalized replies: invoker i gets result * 100 + i
        echo.configure(new CombinedInvocation("bin-single-pers", me, n, new Combiners.TreeSumParams(),
                new SingleInvocation(0)), new PersonalizeReply(new Combiners.PerInvoker(100), new ReturnReply(0)));
        expect(c.echo(me + 1) == sum * 100 + me, "personalized return");
        pass("combined-binomial/single/personalized-return");

        rankTimes.configure(new CombinedInvocation("bin-group-pers", me, n, new Combiners.TreeSumParams(),
                new GroupInvocation()), new PersonalizeReply(new Combiners.PerInvoker(100),
                        new CombineReply(new Combiners.TreeSum())));
        expect(c.rankTimes(me + 1) == sum * sum * 100 + me, "personalized combine");
        pass("combined-binomial/group/personalized-combine-binomial");

        // forwarded, and forwarded personalized: every invoker's forwarder gets every member's result
        Combiners.Collect plain = new Combiners.Collect();
        rankTimes.configure(new CombinedInvocation("flat-group-fwd", me, n, new Combiners.SumParams(),
                new GroupInvocation()), new ForwardReply(plain));
        expect(c.rankTimes(me + 1) == 0, "forwarded call returns the default");
        Set<String> wantForward = new TreeSet<>();
        for (int r = 0; r < n; r++) {
            wantForward.add(r + ":" + (r + 1) * sum);
        }
        expect(drain(plain, n).equals(wantForward), "combined forward");
        expect(plain.sizes.equals(Set.of(n)), "combined forward: the forwarder's size is the results' count "
                + plain.sizes);
        pass("combined-flat/group/forward");

        Combiners.Collect mine = new Combiners.Collect();
        rankTimes.configure(new CombinedInvocation("bin-group-pfwd", me, n, new Combiners.TreeSumParams(),
                new GroupInvocation()), new PersonalizeReply(new Combiners.PerInvoker(1), new ForwardReply(mine)));
        c.rankTimes(me + 1);
        Set<String> wantMine = new TreeSet<>();
        for (int r = 0; r < n; r++) {
            wantMine.add(r + ":" + ((r + 1) * sum + me));
        }
        expect(drain(mine, n).equals(wantMine), "combined personalized forward");
        pass("combined-binomial/group/personalized-forward");

        // discarded: member 1 % n records the sum once
        record.configure(new CombinedInvocation("flat-discard", me, n, new Combiners.SumParams(),
                new SingleInvocation(1 % n)), new DiscardReply());
        c.record(me + 1);
        if (me == 0) {
            GroupMethod await = m(c, "int awaitRecorded(int)");
            await.configure(new SingleInvocation(1 % n), new ReturnReply(1 % n));
            expect(c.awaitRecorded(1) == sum, "combined discard");
            pass("combined-flat/single/discard");
        }
    }

    private static Set<String> drain(Combiners.Collect f, int count) throws InterruptedException {
        Set<String> got = new TreeSet<>();
        for (int i = 0; i < count; i++) {
            String s = f.got.poll(30, TimeUnit.SECONDS);
            if (s == null) {
                throw new AssertionError("only forwarded: " + got);
            }
            got.add(s);
        }
        return got;
    }

    /** Seed 004 Table 1 (and the subset form of group invocation), from process 0 alone. */
    private void table(Calc g) throws Exception {
        int sum = n * (n + 1) / 2;
        GroupMethod rankTimes = m(g, "int rankTimes(int)");
        GroupMethod name = m(g, "String name()");
        GroupMethod record = m(g, "void record(int)");
        GroupMethod await = m(g, "awaitRecorded(int)");
        GroupMethod weigh = m(g, "double weigh(double[])");
        int single = n - 1;
        int[] subset = n > 2 ? new int[] { 1, n - 1 } : new int[] { n - 1 };

        // single invocation
        record.configure(new SingleInvocation(single), new DiscardReply());
        g.record(7);
        await.configure(new SingleInvocation(single), new ReturnReply(single));
        expect(g.awaitRecorded(1) == 7, "single discard");
        pass("single/discard");
        Combiners.Collect f = new Combiners.Collect();
        rankTimes.configure(new SingleInvocation(single), new ForwardReply(f));
        expect(g.rankTimes(5) == 0, "forward returns default");
        expect(drain(f, 1).equals(Set.of(single + ":" + (single + 1) * 5)), "single forward");
        expect(f.sizes.equals(Set.of(1)), "single forward: one result, so size 1, not " + f.sizes);
        pass("single/forward");
        rankTimes.configure(new SingleInvocation(single), new ReturnReply(single));
        expect(g.rankTimes(5) == (single + 1) * 5, "single return");
        pass("single/return");
        Combiners.Sum flat = new Combiners.Sum();
        rankTimes.configure(new SingleInvocation(single), new CombineReply(flat));
        expect(g.rankTimes(5) == (single + 1) * 5 && flat.lastLength == 1, "single combine flat");
        pass("single/combine-flat");
        rankTimes.configure(new SingleInvocation(single), new CombineReply(new Combiners.TreeSum()));
        expect(g.rankTimes(5) == (single + 1) * 5, "single combine binomial");
        pass("single/combine-binomial");

        // group invocation
        record.configure(new GroupInvocation(), new DiscardReply());
        g.record(11);
        await.configure(new GroupInvocation(), new CombineReply(new Combiners.Sum()));
        expect(g.awaitRecorded(1) == 11 * n, "group discard");
        pass("group/discard");
        f = new Combiners.Collect();
        rankTimes.configure(new GroupInvocation(), new ForwardReply(f));
        g.rankTimes(2);
        Set<String> want = new TreeSet<>();
        for (int r = 0; r < n; r++) {
            want.add(r + ":" + (r + 1) * 2);
        }
        expect(drain(f, n).equals(want), "group forward");
        expect(f.sizes.equals(Set.of(n)), "group forward: size " + f.sizes);
        pass("group/forward");
        rankTimes.configure(new GroupInvocation(), new ReturnReply(n - 1));
        expect(g.rankTimes(2) == n * 2, "group return");
        pass("group/return");
        String names = "";
        for (int r = 0; r < n; r++) {
            names += "m" + r;
        }
        rankTimes.configure(new GroupInvocation(), new CombineReply(new Combiners.Sum()));
        name.configure(new GroupInvocation(), new CombineReply(new Combiners.Sum()));
        expect(g.rankTimes(1) == sum && g.name().equals(names), "group combine flat, in rank order: " + g.name());
        pass("group/combine-flat");
        rankTimes.configure(new GroupInvocation(), new CombineReply(new Combiners.TreeSum()));
        name.configure(new GroupInvocation(), new CombineReply(new Combiners.TreeSum()));
        expect(g.rankTimes(1) == sum && g.name().equals(names), "group combine binomial: " + g.name());
        pass("group/combine-binomial");

        // a subset of the group
        int subsetSum = 0;
        for (int r : subset) {
            subsetSum += r + 1;
        }
        int last = subset[subset.length - 1];
        record.configure(new GroupInvocation(subset), new DiscardReply());
        g.record(5);
        await.configure(new GroupInvocation(subset), new CombineReply(new Combiners.Sum()));
        expect(g.awaitRecorded(1) == 5 * subset.length, "subset discard");
        pass("subset/discard");
        f = new Combiners.Collect();
        rankTimes.configure(new GroupInvocation(subset), new ForwardReply(f));
        g.rankTimes(1);
        want = new TreeSet<>();
        for (int r : subset) {
            want.add(r + ":" + (r + 1));
        }
        expect(drain(f, subset.length).equals(want), "subset forward");
        expect(f.sizes.equals(Set.of(subset.length)), "subset forward: size " + f.sizes);
        pass("subset/forward");
        rankTimes.configure(new GroupInvocation(subset), new ReturnReply(last));
        expect(g.rankTimes(1) == last + 1, "subset return");
        pass("subset/return");
        flat = new Combiners.Sum();
        rankTimes.configure(new GroupInvocation(subset), new CombineReply(flat));
        expect(g.rankTimes(1) == subsetSum && flat.lastLength == subset.length, "subset combine flat");
        pass("subset/combine-flat");
        rankTimes.configure(new GroupInvocation(subset), new CombineReply(new Combiners.TreeSum()));
        expect(g.rankTimes(1) == subsetSum, "subset combine binomial");
        pass("subset/combine-binomial");

        // personalized invocation
        record.configure(new PersonalizedInvocation(new Combiners.PlusRank()), new DiscardReply());
        g.record(100);
        await.configure(new GroupInvocation(), new CombineReply(new Combiners.Sum()));
        expect(g.awaitRecorded(1) == 100 * n + n * (n - 1) / 2, "personalized discard");
        pass("personalized/discard");
        double[] data = new double[2 * n];
        Arrays.setAll(data, i -> i + 1);
        double total = 0;
        want = new TreeSet<>();
        for (int r = 0; r < n; r++) {
            double w = (r + 1) * (data[2 * r] + data[2 * r + 1]);
            total += w;
            want.add(r + ":" + w);
        }
        f = new Combiners.Collect();
        weigh.configure(new PersonalizedInvocation(new Combiners.Pairs()), new ForwardReply(f));
        g.weigh(data);
        expect(drain(f, n).equals(want), "personalized forward");
        pass("personalized/forward");
        weigh.configure(new PersonalizedInvocation(new Combiners.Pairs()), new ReturnReply(n - 1));
        expect(g.weigh(data) == n * (data[2 * n - 2] + data[2 * n - 1]), "personalized return");
        pass("personalized/return");
        weigh.configure(new PersonalizedInvocation(new Combiners.Pairs()), new CombineReply(new Combiners.Sum()));
        expect(g.weigh(data) == total, "personalized combine flat");
        pass("personalized/combine-flat");
        weigh.configure(new PersonalizedInvocation(new Combiners.Pairs()),
                new CombineReply(new Combiners.TreeSum()));
        expect(g.weigh(data) == total, "personalized combine binomial");
        pass("personalized/combine-binomial");
    }

    private void exceptions(Calc g) throws Exception {
        GroupMethod failOdd = m(g, "int failOdd(String)");
        failOdd.configure(new SingleInvocation(1 % n), new ReturnReply(1 % n));
        if (n > 1) {
            try {
                g.failOdd("f");
                throw new AssertionError("no exception from rank 1");
            } catch (IllegalStateException e) {
                expect(e.getMessage().equals("f1"), "the member's exception: " + e);
            }
            pass("exception/return");
        }
        failOdd.configure(new GroupInvocation(), new CombineReply(new Combiners.CountFailures()));
        expect(g.failOdd("f") == n / 2, "exceptions reach the flat combiner by rank");
        pass("exception/combine-flat");
        failOdd.configure(new GroupInvocation(), new CombineReply(new Combiners.TreeSum()));
        if (n > 1) {
            try {
                g.failOdd("f");
                throw new AssertionError("the binomial combiner's exception did not reach the caller");
            } catch (IllegalArgumentException e) {
                expect(e.getMessage().startsWith("tree saw ") && e.getMessage().endsWith("saw f1"),
                        "combiner exception: " + e);
            }
            pass("exception/combine-binomial");
            Combiners.Collect f = new Combiners.Collect();
            failOdd.configure(new GroupInvocation(), new ForwardReply(f));
            g.failOdd("f");
            Set<String> want = new TreeSet<>();
            for (int r = 0; r < n; r++) {
                want.add(r % 2 == 1 ? r + ":!f" + r : r + ":" + r);
            }
            expect(drain(f, n).equals(want), "exceptions forwarded");
            pass("exception/forward");
        }
        GroupMethod check = m(g, "long check(long, double, boolean, char, Object)");
        check.configure(new SingleInvocation(0), new ReturnReply(0));
        expect(g.check(Long.MIN_VALUE, 0.25, true, 'q', "obj") == 0, "primitive parameters");
        try {
            g.check(-1, 0, false, 'x', null);
            throw new AssertionError("no checked exception");
        } catch (java.io.IOException e) {
            expect(e.getMessage().equals("declared checked exception"), "checked: " + e);
        }
        pass("exception/checked");
        GroupMethod rankTimes = m(g, "int rankTimes(int)");
        rankTimes.configure(new GroupInvocation(), new CombineReply(new Combiners.ObjectsOnly()));
        try {
            g.rankTimes(1);
            throw new AssertionError("an overload that is not overridden was called silently");
        } catch (UnsupportedOperationException e) {
            expect(e.getMessage().contains(Combiners.ObjectsOnly.class.getName())
                    && e.getMessage().contains("int combine(int[], Exception[])"), "overload message: " + e);
        }
        pass("exception/not-overridden");
        Calc fresh = (Calc) Group.lookup("calc", WAIT);
        try {
            fresh.echo(1);
            throw new AssertionError("an unconfigured method ran");
        } catch (IllegalStateException e) {
            expect(e.getMessage().contains("not configured"), "unconfigured: " + e);
        }
        pass("exception/unconfigured");
    }

    private void configuration(Calc g) throws Exception {
        GroupMethod rankTimes = m(g, "int rankTimes(int)");
        expect(Group.findMethod(g, "rankTimes(int)") == rankTimes, "signature without return type");
        try {
            Group.findMethod(g, "int nothing()");
            throw new AssertionError("found a method that does not exist");
        } catch (NoSuchMethodException e) {
            pass("configure/no-such-method");
        }
        rejected(rankTimes, new SingleInvocation(n), new ReturnReply(0), "single beyond the group");
        rejected(rankTimes, new GroupInvocation(new int[] { 0, n }), new DiscardReply(), "subset beyond the group");
        rejected(rankTimes, new GroupInvocation(), new ReturnReply(n), "return rank beyond the group");
        rejected(rankTimes, new SingleInvocation(0), new ReturnReply(n - 1 == 0 ? 1 : n - 1),
                "return of a rank not invoked");
        rejected(rankTimes, new GroupInvocation(new int[] { n - 1 }), new ReturnReply(n == 1 ? 1 : 0),
                "return outside the subset");
        rejected(rankTimes, new GroupInvocation(),
                new PersonalizeReply(new Combiners.PerInvoker(1), new ReturnReply(0)),
                "personalized reply, not combined");
        if (n > 1) {
            rejected(rankTimes, new CombinedInvocation("flat-single", 1, n, new Combiners.SumParams(),
                    new SingleInvocation(0)), new ReturnReply(0), "an invoker rank another process holds");
        }
        List<Runnable> constructors = List.of(
                () -> construct(() -> new SingleInvocation(-1)),
                () -> construct(() -> new GroupInvocation(new int[0])),
                () -> construct(() -> new GroupInvocation(new int[] { 1, 1 })),
                () -> construct(() -> new ReturnReply(-1)),
                () -> construct(() -> new PersonalizedInvocation(null)),
                () -> construct(() -> new ForwardReply(null)),
                () -> construct(() -> new PersonalizeReply(new Combiners.PerInvoker(1), new DiscardReply())),
                () -> construct(() -> new CombinedInvocation("x", 2, 2, new Combiners.SumParams(),
                        new SingleInvocation(0))),
                () -> construct(() -> new CombinedInvocation("x", 0, 1, new Combiners.SumParams(),
                        new CombinedInvocation("y", 0, 1, new Combiners.SumParams(), new SingleInvocation(0)))));
        for (Runnable r : constructors) {
            r.run();
        }
        // The method still works as configured before the rejections.
        rankTimes.configure(new SingleInvocation(0), new ReturnReply(0));
        expect(g.rankTimes(3) == 3, "configuration after rejections");
        pass("configure/rejected");
    }

    private interface Construction {
        Object make() throws ConfigurationException;
    }

    private static void construct(Construction c) {
        try {
            c.make();
            throw new AssertionError("a scheme constructor accepted bad arguments");
        } catch (ConfigurationException expected) {
            // rejected, as it should be
        }
    }

    private static void rejected(GroupMethod m, InvocationScheme inv, ReplyScheme rep, String what) {
        try {
            m.configure(inv, rep);
            throw new AssertionError("configure accepted: " + what);
        } catch (ConfigurationException expected) {
            PeerMain.say("REJECTED " + what + ": " + expected.getMessage());
        }
    }

    private void groupOfOne() throws Exception {
        Calc solo = (Calc) Group.lookup("solo", WAIT);
        GroupMethod rankTimes = m(solo, "int rankTimes(int)");
        rankTimes.configure(new GroupInvocation(), new CombineReply(new Combiners.TreeSum()));
        expect(solo.rankTimes(3) == 3, "group of 1, binomial");
        rankTimes.configure(new GroupInvocation(), new CombineReply(new Combiners.Sum()));
        expect(solo.rankTimes(4) == 4, "group of 1, flat");
        rankTimes.configure(new PersonalizedInvocation(new Combiners.PlusRank()), new ReturnReply(0));
        expect(solo.rankTimes(5) == 5, "group of 1, personalized");
        pass("group-of-1");
    }

    /**
     * Parameters and results pass by value also to the member of the invoking process, which runs
     * the call in the invoking thread: the member changes the array it got, the caller's stays as it
     * was; the caller changes the array it got back, the member's stays as it was; and the same in
     * a group call whose results are combined.
     */
    private void byValue(Calc g) throws Exception {
        long before = GmiRuntime.get().callsRunLocally();
        GroupMethod keep = m(g, "int[] keep(int[])");
        GroupMethod keptSum = m(g, "int keptSum()");
        keep.configure(new SingleInvocation(0), new ReturnReply(0));
        keptSum.configure(new SingleInvocation(0), new ReturnReply(0));
        int[] mine = { 1, 2, 3 };
        int[] got = g.keep(mine);
        expect(Arrays.equals(mine, new int[] { 1, 2, 3 }), "the caller's array changed: " + Arrays.toString(mine));
        expect(Arrays.equals(got, new int[] { 2, 3, 4 }), "keep returned " + Arrays.toString(got));
        got[0] = 1000;
        expect(g.keptSum() == 9, "the member's array changed with the caller's result");
        keep.configure(new GroupInvocation(), new CombineReply(new Combiners.FirstArray()));
        int[] first = g.keep(mine);
        expect(first != mine && Arrays.equals(first, new int[] { 2, 3, 4 }), "group keep gave "
                + Arrays.toString(first));
        expect(Arrays.equals(mine, new int[] { 1, 2, 3 }), "the group call changed the caller's array");
        expect(GmiRuntime.get().callsRunLocally() - before == 3, "member 0 did not run in the calling thread");
        pass("by-value/local");
    }

    /**
     * Calls that wait for their replies from several threads at once: each gets its own results
     * (the waiting threads read the replies in turns, one for all), and every reply came through
     * the reply port that the waiting threads read (none was handed over by an upcall).
     */
    private void concurrentCalls() throws Exception {
        int threads = 4;
        int calls = 200;
        long before = GmiRuntime.get().repliesReadByWaitingCalls();
        long before0 = GmiRuntime.get().callsRunLocally();
        ExecutorService callers = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int target = t % n;
                done.add(callers.submit(() -> {
                    Calc one = (Calc) Group.lookup("calc", WAIT);
                    m(one, "int rankTimes(int)").configure(new SingleInvocation(target), new ReturnReply(target));
                    Calc all = (Calc) Group.lookup("calc", WAIT);
                    m(all, "int rankTimes(int)").configure(new GroupInvocation(),
                            new CombineReply(new Combiners.Sum()));
                    for (int i = 1; i <= calls; i++) {
                        expect(one.rankTimes(i) == (target + 1) * i, "single/return of member " + target);
                        expect(all.rankTimes(i) == i * n * (n + 1) / 2, "group/combine-flat");
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(WAIT, TimeUnit.MILLISECONDS);
            }
        } finally {
            callers.shutdownNow();
        }
        long read = GmiRuntime.get().repliesReadByWaitingCalls() - before;
        long local = GmiRuntime.get().callsRunLocally() - before0;
        // Member 0 is this process's: its outcome is no reply (one per group call, and the single
        // calls of the threads that call member 0); every other one came through the reply port.
        long threadsOnZero = (threads + n - 1) / n;
        expect(local == (long) threads * calls + threadsOnZero * calls, "calls run locally: " + local);
        expect(read == (long) threads * calls * (1 + n) - local, "replies read from the reply port: " + read);
        pass("concurrent-replies");
    }

    /** All processes invoke blockOn(last) combined; the last member blocks until the test kills it. */
    private void kill() throws Exception {
        if (me == 0) {
            Group.create("victims", Calc.class, n);
        }
        CalcMember member = new CalcMember();
        Group.join("victims", member, me, WAIT);
        Calc c = (Calc) Group.lookup("victims", WAIT);
        Combiners.Collect forwarded = new Combiners.Collect();
        if (me == 0) {
            // A forwarded group call first: its forwarder must hear of the victim's death too.
            Calc f = (Calc) Group.lookup("victims", WAIT);
            m(f, "int blockOn(int)").configure(new GroupInvocation(), new ForwardReply(forwarded));
            expect(f.blockOn(n - 1) == 0, "a forwarded call returns at once");
        }
        String[] groupCall = new String[1];
        Thread groupCaller = null;
        if (me == 1) {
            // A group call whose thread waits in the reply port for the victim's reply.
            Calc g = (Calc) Group.lookup("victims", WAIT);
            m(g, "int blockOn(int)").configure(new GroupInvocation(), new CombineReply(new Combiners.Sum()));
            groupCaller = new Thread(() -> {
                try {
                    groupCall[0] = "RETURNED " + g.blockOn(n - 1);
                } catch (RuntimeException e) {
                    groupCall[0] = "FAILED " + e;
                }
            }, "group-caller");
            groupCaller.start();
        }
        GroupMethod blockOn = m(c, "int blockOn(int)");
        blockOn.configure(new CombinedInvocation("kill", me, n, new Combiners.TreeSumParams(), new GroupInvocation()),
                new CombineReply(new Combiners.TreeSum()));
        PeerMain.say("CALLING");
        try {
            int r = c.blockOn(me == 0 ? n - 1 : 0);
            PeerMain.say("RETURNED " + r);
        } catch (RuntimeException e) {
            PeerMain.say("CALL-FAILED " + e);
        }
        if (groupCaller != null) {
            groupCaller.join(WAIT);
            PeerMain.say("GROUP-CALL " + groupCall[0]);
        }
        if (me == 0) {
            Set<String> got = drain(forwarded, n);
            for (int r = 0; r < n - 1; r++) {
                expect(got.contains(r + ":" + r), "forwarded result of rank " + r + ": " + got);
            }
            expect(got.stream().anyMatch(g -> g.startsWith((n - 1) + ":!")), "forwarded failure: " + got);
            PeerMain.say("FORWARDED " + got);
        }
    }
}
