package ibis.gmi.impl;

import ibis.gmi.BinomialCombiner;
import ibis.gmi.CombineReply;
import ibis.gmi.CombinedInvocation;
import ibis.gmi.ConfigurationException;
import ibis.gmi.ForwardReply;
import ibis.gmi.Forwarder;
import ibis.gmi.GroupInterface;
import ibis.gmi.GroupMember;
import ibis.gmi.GroupMethod;
import ibis.gmi.ParameterVector;
import ibis.gmi.PersonalizedInvocation;
import ibis.gmi.ReplyScheme;
import ibis.gmi.ReturnReply;
import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.MessageUpcall;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.ReceivePortConnectUpcall;
import ibis.ipl.ReceivePortIdentifier;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortDisconnectUpcall;
import ibis.ipl.SendPortIdentifier;
import ibis.ipl.WriteMessage;
import ibis.ipl.impl.ImplPropertyTable;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GMI in one process: one Ibis instance in a closed-world pool (ranks are the members' identifiers
 * in sorted order, the same everywhere), one receive port with automatic upcalls for every GMI
 * message but the replies a caller waits for, which arrive at a second port that the waiting
 * threads read themselves ({@link ReplyChannel}), one send port per destination process for
 * unicasts (and one to its reply port) and one per destination set for multicasts. The process
 * of rank 0 also serves the {@link GroupDirectory}.
 *
 * <p>Waiting is by {@link Waiter}s that watch the processes that must answer: when the registry
 * reports one dead or gone, or a connection to it is lost, the waits on it fail with an
 * {@link IOException} instead of hanging. Message handlers read the whole message and finish it
 * before running a member's method or waiting, so the port is never held up.
 */
public final class GmiRuntime implements MessageUpcall, RegistryEventHandler, ReceivePortConnectUpcall,
        SendPortDisconnectUpcall {

    private static final Logger LOG = LoggerFactory.getLogger(GmiRuntime.class);

    /** Property: milliseconds to wait for a connection, or for the pool's members at start. */
    public static final String CONNECT_TIMEOUT = "ibis.gmi.connect.timeout";

    /** How often a wait for an invoker of a combined invocation checks whether a process is gone. */
    private static final long INVOKER_CHECK_MS = 500;

    /** Every GMI message: many senders to many receivers, served by upcalls. */
    static final PortType PORT_TYPE = new PortType(PortType.CONNECTION_MANY_TO_MANY,
            PortType.SERIALIZATION_OBJECT_IBIS, PortType.RECEIVE_AUTO_UPCALLS, PortType.COMMUNICATION_RELIABLE,
            PortType.COMMUNICATION_FIFO, PortType.CONNECTION_UPCALLS, PortType.CONNECTION_TIMEOUT);

    /**
     * The ports of {@code ibis.gmi.collectives}: one per ordered pair of processes, received by the
     * thread that waits for the message (no upcall, no hand-off).
     */
    public static final PortType COLLECTIVES_PORT_TYPE = new PortType(PortType.CONNECTION_ONE_TO_ONE,
            PortType.SERIALIZATION_OBJECT_IBIS, PortType.RECEIVE_EXPLICIT, PortType.RECEIVE_TIMEOUT,
            PortType.COMMUNICATION_RELIABLE, PortType.COMMUNICATION_FIFO, PortType.CONNECTION_TIMEOUT);

    /**
     * The reply port of each process: every process to it, read by the threads that wait for the
     * replies ({@link ReplyChannel}: no upcall, no hand-off).
     */
    static final PortType REPLY_PORT_TYPE = new PortType(PortType.CONNECTION_MANY_TO_ONE,
            PortType.SERIALIZATION_OBJECT_IBIS, PortType.RECEIVE_EXPLICIT, PortType.RECEIVE_TIMEOUT,
            PortType.COMMUNICATION_RELIABLE, PortType.COMMUNICATION_FIFO, PortType.CONNECTION_TIMEOUT);

    /**
     * How often a call waiting for replies yields the processor while it polls on a crowded host
     * ({@value ImplPropertyTable#RECEIVE_YIELD_EVERY} of the reply port): at every fourth wait
     * instead of every sixteenth. The replies come from member processes, often on the same host,
     * that need a processor to run the call and answer; a waiting caller that holds its processor
     * keeps them off it. {@code bin/ibis-bench gmi --impl ucx}, 4 processes on 2 cores, alternated
     * runs: group/combine-flat 22 → 13-18 µs, combined/allreduce 25-29 → 16-18 µs per call; a
     * yield at every second wait gained as much at 4 processes and looked slower at 2 (single/return
     * 3.3-4.5 against 1.8-2.0 µs). The collectives' one-to-one links keep the default: there
     * yielding more often slowed a 1 MB allreduce by half.
     */
    static final int REPLY_YIELD_EVERY = 4;

    static final IbisCapabilities CAPABILITIES = new IbisCapabilities(IbisCapabilities.CLOSED_WORLD,
            IbisCapabilities.ELECTIONS_STRICT, IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);

    private static GmiRuntime instance;

    private final Ibis ibis;
    private final long connectTimeout;
    private final List<IbisIdentifier> joined = new ArrayList<>();
    private final CountDownLatch ranked = new CountDownLatch(1);
    private volatile IbisIdentifier[] processes;
    private volatile int myRank = -1;
    private final ReceivePort port;
    private final Map<Integer, SendPort> unicast = new ConcurrentHashMap<>();
    /** Per process, the send port to its reply port (made on the first reply). */
    private final Map<Integer, SendPort> replyUnicast = new ConcurrentHashMap<>();
    private final ReceivePort replyPort;
    private final ReplyChannel replies;
    private final Map<String, SendPort> multicast = new ConcurrentHashMap<>();
    private final Set<Integer> gone = ConcurrentHashMap.newKeySet();
    /** The waits that fail when a process they watch goes (or GMI ends), besides the {@link #pending} calls. */
    private final Set<Waiter> waiters = ConcurrentHashMap.newKeySet();
    /**
     * The calls that wait for replies, by call id: a reply finds its call here, and a process that
     * goes fails the calls that watch it (one map per call instead of two, {@link #processGone}).
     */
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    private final Map<String, Waiter> slots = new ConcurrentHashMap<>();
    private final Map<Integer, GroupMember> members = new ConcurrentHashMap<>();
    private final Map<Integer, GroupInfo> groups = new ConcurrentHashMap<>();
    /** Groups whose join waits for the directory's answer that they are complete (its monitor: installs). */
    private final Set<Integer> joining = ConcurrentHashMap.newKeySet();
    /** The group whose groupInit this thread runs, if any. */
    private final ThreadLocal<GroupInfo> initializing = new ThreadLocal<>();
    private final Map<String, AtomicLong> collectiveSeq = new ConcurrentHashMap<>();
    private final Map<String, IbisIdentifier> invokers = new ConcurrentHashMap<>();
    private final Map<String, InvokerForwarder> invokerForwarders = new ConcurrentHashMap<>();
    private final AtomicLong nextCall = new AtomicLong();
    private final LongAdder localCalls = new LongAdder();
    private volatile GroupDirectory directory;
    private volatile boolean ended;

    private GmiRuntime() throws IOException, IbisCreationFailedException, InterruptedException {
        ibis = IbisFactory.createIbis(CAPABILITIES, null, true, this, PORT_TYPE, COLLECTIVES_PORT_TYPE,
                REPLY_PORT_TYPE);
        String t = ibis.properties().getProperty(CONNECT_TIMEOUT, System.getProperty(CONNECT_TIMEOUT, "60000"));
        connectTimeout = Long.parseLong(t.trim());
        port = ibis.createReceivePort(PORT_TYPE, GmiProtocol.PORT_NAME, this, this, null);
        port.enableConnections();
        port.enableMessageUpcalls();
        Properties replyPortProperties = new Properties();
        replyPortProperties.setProperty(ImplPropertyTable.RECEIVE_YIELD_EVERY, String.valueOf(REPLY_YIELD_EVERY));
        replyPort = ibis.createReceivePort(REPLY_PORT_TYPE, GmiProtocol.REPLY_PORT_NAME, null, null,
                replyPortProperties);
        replyPort.enableConnections();
        replies = new ReplyChannel(replyPort, this::fromReplyPort);
        ibis.registry().enableEvents();
        ibis.registry().waitUntilPoolClosed();
        int size = ibis.registry().getPoolSize();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(connectTimeout);
        synchronized (joined) {
            while (joined.size() < size) {
                long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
                if (left <= 0) {
                    throw new IOException("only " + joined.size() + " of the pool's " + size
                            + " members are known after "
                            + connectTimeout + " ms");
                }
                joined.wait(left);
            }
            IbisIdentifier[] sorted = joined.subList(0, size).toArray(new IbisIdentifier[0]);
            Arrays.sort(sorted);
            processes = sorted;
            myRank = Arrays.asList(sorted).indexOf(ibis.identifier());
        }
        if (myRank < 0) {
            throw new IOException("this process " + ibis.identifier() + " is not among the pool's members");
        }
        if (myRank == 0) {
            directory = new GroupDirectory(this);
        }
        ranked.countDown();
        LOG.debug("GMI started: process {} of {} ({})", myRank, size, ibis.identifier());
    }

    /**
     * The runtime of this process, started on first use.
     *
     * @return the runtime
     */
    public static synchronized GmiRuntime get() {
        if (instance == null) {
            try {
                instance = new GmiRuntime();
                Runtime.getRuntime().addShutdownHook(new Thread(GmiRuntime::shutdown, "gmi-shutdown"));
            } catch (IbisCreationFailedException e) {
                throw new IllegalStateException("cannot start GMI (check ibis.server.address, ibis.pool.name and "
                        + "ibis.pool.size): " + e.getMessage(), e);
            } catch (IOException e) {
                throw new IllegalStateException("cannot start GMI: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting GMI", e);
            }
        }
        return instance;
    }

    /**
     * {@code Group.exit()}: waits until every process of the pool has called it (or is gone), then
     * ends GMI in this process. As in the earlier GMI, the exit is a barrier: a process that is done
     * early keeps serving its members until the others no longer need them. Without a barrier, a
     * program where only process 0 invokes the group would lose its members to their processes'
     * exits. When process 0 (the barrier's keeper) is gone, this process ends without waiting.
     */
    public static void exit() {
        GmiRuntime r;
        synchronized (GmiRuntime.class) {
            r = instance;
        }
        if (r != null && !r.ended) {
            try {
                r.control(GmiProtocol.OP_EXIT, "", null, 0, 0);
            } catch (RuntimeException e) {
                LOG.debug("exit without the barrier: {}", e.toString());
            }
        }
        shutdown();
    }

    /** Ends GMI in this process, if it runs, at once (no barrier: the JVM's shutdown hook). */
    public static void shutdown() {
        GmiRuntime r;
        synchronized (GmiRuntime.class) {
            r = instance;
            instance = null;
        }
        if (r != null) {
            r.end();
        }
    }

    private void end() {
        ended = true;
        for (SendPort p : unicast.values()) {
            closeQuietly(p);
        }
        for (SendPort p : replyUnicast.values()) {
            closeQuietly(p);
        }
        for (SendPort p : multicast.values()) {
            closeQuietly(p);
        }
        try {
            port.close(1000);
        } catch (IOException | RuntimeException e) {
            LOG.debug("closing the GMI port: {}", e.toString());
        }
        try {
            replyPort.close(1000);
        } catch (IOException | RuntimeException e) {
            LOG.debug("closing the GMI reply port: {}", e.toString());
        }
        try {
            ibis.end();
        } catch (IOException | RuntimeException e) {
            LOG.debug("ending the GMI Ibis: {}", e.toString());
        }
        failWaits(-1, new IOException("GMI ended in this process"));
    }

    /**
     * Fails the waits ({@link #waiters}) and the calls ({@link #pending}) that watch {@code process},
     * or all of them for -1.
     */
    private void failWaits(int process, IOException cause) {
        for (Waiter w : waiters) {
            if (process < 0 || w.watches(process)) {
                w.fail(cause);
            }
        }
        for (Pending c : pending.values()) {
            if (process < 0 || c.watches(process)) {
                c.fail(cause);
            }
        }
    }

    /**
     * Replies to this process's calls read from its reply port by the threads that waited for them
     * (diagnostics and tests: each was read without a hand-off from an upcall thread).
     *
     * @return the number of replies read so far
     */
    public long repliesReadByWaitingCalls() {
        return replies.replies();
    }

    /**
     * For tests: invocations of this process's own members that ran in the invoking thread instead of
     * going through this process's GMI port.
     *
     * @return the number of such invocations so far
     */
    public long callsRunLocally() {
        return localCalls.sum();
    }

    /** @return this process's rank */
    public int processRank() {
        return myRank;
    }

    /** @return the number of processes */
    public int processCount() {
        return processes.length;
    }

    /**
     * The Ibis of this process, for libraries on GMI that open ports of
     * {@link #COLLECTIVES_PORT_TYPE} (the collectives).
     *
     * @return the Ibis
     */
    public Ibis ibis() {
        return ibis;
    }

    /**
     * @param rank a process rank
     * @return the Ibis identifier of that process
     */
    public IbisIdentifier process(int rank) {
        return processes[rank];
    }

    /** @return milliseconds to wait for a connection ({@link #CONNECT_TIMEOUT}) */
    public long connectTimeout() {
        return connectTimeout;
    }

    // ------------------------------------------------------------------ groups

    /**
     * Defines a group.
     *
     * @param name the name
     * @param type the group interface
     * @param size the number of members
     */
    public void create(String name, Class<?> type, int size) {
        if (name == null || type == null) {
            throw new IllegalArgumentException("Group.create: a name and a group interface are needed");
        }
        MethodTable.of(type);
        if (size < 1) {
            throw new IllegalArgumentException("Group.create " + name + ": size " + size + " < 1");
        }
        control(GmiProtocol.OP_CREATE, name, type.getName(), size, 0);
    }

    /**
     * Joins a member to a group and waits for the group to be complete.
     *
     * @param name the group
     * @param member the member
     * @param rank the wanted rank, or negative for any
     * @param timeout milliseconds, 0 for no limit
     */
    public void join(String name, GroupMember member, int rank, long timeout) {
        if (name == null || member == null) {
            throw new IllegalArgumentException("Group.join: a name and a member are needed");
        }
        ControlAnswer joinedAs = control(GmiProtocol.OP_JOIN, name, null, rank < 0 ? -1 : rank, timeout);
        MethodTable table = tableOf(joinedAs.type);
        if (!table.type.isInstance(member)) {
            throw new IllegalArgumentException("Group.join " + name + ": " + member.getClass().getName()
                    + " does not implement the group interface " + table.type.getName());
        }
        members.put(joinedAs.groupId, member);
        GroupInfo g;
        joining.add(joinedAs.groupId);
        try {
            ControlAnswer complete = control(GmiProtocol.OP_READY, name, null, joinedAs.rank, timeout);
            g = new GroupInfo(complete.groupId, name, table, complete.processes);
            member.myGroupRank = joinedAs.rank;
            member.groupSize = g.size;
            groups.put(complete.groupId, g);
        } finally {
            synchronized (joining) {
                joining.remove(joinedAs.groupId);
                joining.notifyAll();
            }
        }
        GroupInfo outer = initializing.get();
        initializing.set(g);
        try {
            member.groupInit();
        } finally {
            initializing.set(outer);
        }
        // Lookups are answered once every member got here: a stub's first invocation must not
        // reach a member whose join has not installed the group yet (it would be dropped).
        control(GmiProtocol.OP_INSTALLED, name, null, joinedAs.rank, timeout);
    }

    /**
     * A new stub of a complete group.
     *
     * @param name the group
     * @param timeout milliseconds, 0 for no limit
     * @return the stub
     */
    public GroupInterface lookup(String name, long timeout) {
        if (name == null) {
            throw new IllegalArgumentException("Group.lookup: no name");
        }
        GroupInfo g = initializing.get();
        if (g == null || !g.name.equals(name)) {
            ControlAnswer a = control(GmiProtocol.OP_LOOKUP, name, null, 0, timeout);
            g = groups.computeIfAbsent(a.groupId, id -> new GroupInfo(id, name, tableOf(a.type), a.processes));
        }
        // else: a lookup in the groupInit of that group, answered here: the directory answers
        // lookups once every member's groupInit ended, so it would wait for itself. The group is
        // complete; a call that reaches a member still installing it waits for that (knownGroup).
        try {
            GroupStub stub = GroupStubGenerator.stubClass(g.table).getDeclaredConstructor().newInstance();
            stub.runtime = this;
            stub.group = g;
            stub.table = g.table;
            stub.methods = new StubMethod[g.table.methods.length];
            for (int i = 0; i < stub.methods.length; i++) {
                stub.methods[i] = new StubMethod(stub, i);
            }
            return stub;
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalStateException("cannot make the group stub of " + g.table.type.getName() + ": " + e, e);
        }
    }

    /**
     * The method of a stub with a source signature.
     *
     * @param stub the stub
     * @param desc the signature
     * @return the method
     * @throws NoSuchMethodException when there is none
     */
    public static GroupMethod findMethod(GroupInterface stub, String desc) throws NoSuchMethodException {
        if (!(stub instanceof GroupStub s)) {
            throw new IllegalArgumentException("not a group stub from Group.lookup: "
                    + (stub == null ? "null" : stub.getClass().getName()));
        }
        if (desc == null) {
            throw new NoSuchMethodException("no signature");
        }
        return s.methods[s.table.find(desc)];
    }

    private MethodTable tableOf(String typeName) {
        try {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            return MethodTable.of(Class.forName(typeName, false,
                    loader != null ? loader : GmiRuntime.class.getClassLoader()));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("cannot load the group interface " + typeName + ": " + e, e);
        }
    }

    private record ControlAnswer(int groupId, String type, int rank, int[] processes) {
    }

    private ControlAnswer control(byte op, String name, String type, int number, long timeout) {
        long callId = nextCall.incrementAndGet();
        Waiter w = new Waiter(0);
        String key = "C/" + callId;
        slots.put(key, w);
        waiters.add(w);
        try {
            if (gone.contains(0)) {
                throw new IOException("the group directory (process 0) is gone");
            }
            send(0, m -> {
                m.writeByte(GmiProtocol.CONTROL);
                m.writeByte(op);
                m.writeLong(callId);
                m.writeInt(myRank);
                m.writeString(name);
                if (op == GmiProtocol.OP_CREATE) {
                    m.writeString(type);
                    m.writeInt(number);
                } else if (op != GmiProtocol.OP_LOOKUP && op != GmiProtocol.OP_EXIT) {
                    m.writeInt(number); // join, ready, installed: the rank
                }
            });
            Object answer = timeout > 0 ? awaitTimed(w, timeout, "group " + name) : w.await(0, replies);
            if (answer instanceof String error) {
                throw new IllegalStateException(error);
            }
            return (ControlAnswer) answer;
        } catch (IOException e) {
            throw new UncheckedIOException("group " + name + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for group " + name, e);
        } finally {
            slots.remove(key);
            waiters.remove(w);
        }
    }

    private Object awaitTimed(Waiter w, long timeout, String what) throws IOException, InterruptedException {
        ScheduledFuture<?> alarm = TIMER.schedule(
                () -> w.fail(new IOException(what + ": not complete after " + timeout + " ms")), timeout,
                TimeUnit.MILLISECONDS);
        try {
            return w.await(0, replies);
        } finally {
            alarm.cancel(false);
        }
    }

    /** Ends waits for join and lookup that have a time limit (one daemon thread per JVM, idle otherwise). */
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "gmi-timeouts");
        t.setDaemon(true);
        return t;
    });

    /** Sends a directory answer (from the directory). */
    void sendControlReply(GroupDirectory.Reply r) throws IOException {
        sendToWaiter(r.to(), m -> {
            m.writeByte(GmiProtocol.CONTROL_REPLY);
            m.writeLong(r.callId());
            m.writeBoolean(r.error() == null);
            if (r.error() != null) {
                m.writeString(r.error());
                return;
            }
            if (r.group() == null) { // the end of the exit barrier
                m.writeString("");
                m.writeInt(0);
                m.writeInt(0);
                m.writeInt(0);
                m.writeArray(new int[0]);
                return;
            }
            m.writeString(r.group().type);
            m.writeInt(r.group().id);
            m.writeInt(r.rank());
            int[] procs = r.complete() ? r.group().process : new int[0];
            m.writeInt(procs.length);
            m.writeArray(procs);
        });
    }

    private void controlReply(ReadMessage m) throws IOException {
        long callId = m.readLong();
        Object answer;
        if (m.readBoolean()) {
            String type = m.readString();
            int id = m.readInt();
            int rank = m.readInt();
            int n = m.readInt();
            if (n < 0 || n > 1 << 20) {
                throw new IOException("bad group size " + n + " in a directory reply");
            }
            int[] procs = new int[n];
            m.readArray(procs);
            for (int p : procs) {
                if (p < 0 || p >= processes.length) {
                    throw new IOException("bad process " + p + " in a directory reply");
                }
            }
            answer = new ControlAnswer(id, type, rank, procs);
        } else {
            answer = m.readString();
        }
        m.finish();
        Waiter w = slots.get("C/" + callId);
        if (w != null) {
            w.deliver(0, answer);
        }
    }

    // ------------------------------------------------------------------ invocations (the invoker)

    /** A call waiting for member replies: by rank, or handed to a sink as they come. */
    private final class Pending extends Waiter {
        final long id;
        final GroupInfo group;
        final int method;
        final int[] targets;
        final ReplySink sink;
        int outstanding;

        Pending(long id, GroupInfo group, int method, int[] targets, int expected, ReplySink sink, int[] watched) {
            super(watched);
            this.id = id;
            this.group = group;
            this.method = method;
            this.targets = targets;
            this.outstanding = expected;
            this.sink = sink;
        }

        /**
         * Which targets replied, by position in {@code targets} (sorted); for forwarding, to tell the
         * forwarder who never will. Guarded by this.
         */
        private boolean[] replied;

        /** Marks the target {@code rank} as replied; false when it is none or replied before. Holds this. */
        private boolean markReplied(int rank) {
            int i = Arrays.binarySearch(targets, rank);
            if (i < 0) {
                return false;
            }
            if (replied == null) {
                replied = new boolean[targets.length];
            }
            if (replied[i]) {
                return false;
            }
            replied[i] = true;
            return true;
        }

        void reply(int rank, Outcome o) {
            boolean last;
            synchronized (this) {
                if (!markReplied(rank)) {
                    LOG.debug("an unexpected reply of rank {} to call {}", rank, id);
                    return;
                }
                outstanding--;
                last = outstanding <= 0;
            }
            if (last) {
                forget(this);
            }
            if (sink != null) {
                sink.accept(rank, o);
            } else {
                deliver(rank, o);
            }
        }

        /** A forwarded call whose member is gone: the forwarder gets the failure for each missing rank. */
        @Override
        void fail(IOException cause) {
            super.fail(cause);
            if (sink == null) {
                return;
            }
            List<Integer> missing = new ArrayList<>();
            synchronized (this) {
                for (int t : targets) {
                    if (markReplied(t)) {
                        missing.add(t);
                    }
                }
                outstanding = 0;
            }
            forget(this);
            Outcome failed = new Outcome(null, new UncheckedIOException(cause.getMessage(), cause));
            for (int t : missing) {
                sink.accept(t, failed);
            }
        }
    }

    /** Where forwarded outcomes go. */
    private interface ReplySink {
        void accept(int rank, Outcome o);
    }

    private void forget(Pending p) {
        pending.remove(p.id);
    }

    /** What a stub's method does when called. */
    Object call(GroupStub stub, int method, Object[] args) throws Throwable {
        StubMethod sm = stub.methods[method];
        StubMethod.Config c = sm.config;
        if (c == null) {
            throw new IllegalStateException(sm.describe() + " is not configured: call GroupMethod.configure first");
        }
        GeneratedParameterVector params = ParameterVectorGenerator.of(stub.table, method, args);
        Outcome o = c.combined != null ? collective(stub, method, c, params)
                : perform(stub.group, method, c, params, forwardSink(stub.group, method, c));
        if (o == null) {
            return stub.table.resultKinds[method].defaultValue();
        }
        if (o.error != null) {
            throw o.error;
        }
        return o.value;
    }

    /** Hands the replies of a forwarded call to its forwarder, with the number of replies it gets (its targets). */
    private ReplySink forwardSink(GroupInfo g, int method, StubMethod.Config c) {
        if (!(c.handling instanceof ForwardReply f)) {
            return null;
        }
        ValueKind kind = g.table.resultKinds[method];
        int replies = c.targets.length;
        return (rank, o) -> callForwarder(f.forwarder(), kind, rank, replies, o);
    }

    private static void callForwarder(Forwarder f, ValueKind kind, int rank, int size, Outcome o) {
        try {
            UserCalls.forward(f, kind, rank, size, o);
        } catch (RuntimeException | Error e) {
            LOG.warn("forwarder {} threw on the result of rank {}: {}", f.getClass().getName(), rank, e.toString());
        }
    }

    /**
     * Forwards an invocation with (combined) parameters as configured and handles the replies:
     * returns the outcome for return and combine, null for discard and forward.
     */
    private Outcome perform(GroupInfo g, int method, StubMethod.Config c, GeneratedParameterVector params,
            ReplySink forwardTo) throws IOException, InterruptedException {
        int[] targets = c.targets;
        for (int t : targets) {
            if (gone.contains(g.processOf[t])) {
                return new Outcome(null, new UncheckedIOException(new IOException("member " + t + " of group "
                        + g.name + " (process " + g.processOf[t] + ") is gone")));
            }
        }
        ReplyScheme h = c.handling;
        byte mode;
        int replyRank = -1;
        int expected;
        int[] watched;
        if (h.mode() == ReplyScheme.R_DISCARD) {
            mode = GmiProtocol.REPLY_NONE;
            expected = 0;
            watched = new int[0];
        } else if (h instanceof ReturnReply r) {
            mode = GmiProtocol.REPLY_ONE;
            replyRank = r.rank();
            expected = 1;
            watched = new int[] { g.processOf[replyRank] };
        } else if (h instanceof CombineReply cr && cr.binomialCombiner() != null) {
            mode = GmiProtocol.REPLY_TREE;
            expected = 1;
            watched = processesOf(g, targets);
        } else {
            mode = GmiProtocol.REPLY_ALL;
            expected = targets.length;
            watched = processesOf(g, targets);
        }
        long callId = nextCall.incrementAndGet();
        Pending p = null;
        if (expected > 0) {
            p = new Pending(callId, g, method, targets, expected, forwardTo, watched);
            pending.put(callId, p); // (failures find it there: processGone, end)
            for (int w : watched) {
                if (gone.contains(w)) {
                    p.fail(new IOException("process " + w + " is gone"));
                }
            }
        }
        // A reply this thread waits for comes to the reply port, which this thread reads itself.
        byte wireMode = p != null && forwardTo == null ? (byte) (mode | GmiProtocol.REPLY_TO_WAITING_CALLER) : mode;
        // The member of this process, when the call waits for its outcome, runs in this thread.
        BinomialCombiner tree = mode == GmiProtocol.REPLY_TREE ? ((CombineReply) h).binomialCombiner() : null;
        GroupMember local = p != null && forwardTo == null && (tree == null || STATELESS.get(tree.getClass()))
                && ValueKind.copiedLocally(g.table.methods[method].getReturnType()) ? members.get(g.id) : null;
        int localRank = local != null && groups.containsKey(g.id) && g.processOf[local.myGroupRank] == myRank
                && Arrays.binarySearch(targets, local.myGroupRank) >= 0 ? local.myGroupRank : -1;
        Object[] localArgs = null;
        try {
            Header head = new Header(g.id, method, myRank, callId, wireMode, replyRank,
                    tree != null ? targets : null, tree);
            if (c.forwarding instanceof PersonalizedInvocation pi) {
                ParameterVector[] out = new ParameterVector[g.size];
                for (int r = 0; r < out.length; r++) {
                    out[r] = params.getVector();
                }
                pi.personalizer().personalize(params, out);
                for (int r : targets) {
                    ((GeneratedParameterVector) out[r]).checkComplete(pi.personalizer().getClass().getName());
                }
                localArgs = localRank < 0 ? null : ((GeneratedParameterVector) out[localRank]).argumentsByValue();
                for (int r : targets) {
                    if (r != localRank || localArgs == null) {
                        GeneratedParameterVector mine = (GeneratedParameterVector) out[r];
                        send(g.processOf[r], m -> writeInvoke(m, head, mine));
                    }
                }
            } else {
                localArgs = localRank < 0 ? null : params.argumentsByValue();
                int[] remote = localArgs == null ? targets : without(targets, localRank);
                if (remote.length == 1) {
                    send(g.processOf[remote[0]], m -> writeInvoke(m, head, params));
                } else if (remote.length > 1) {
                    multicast(processesOf(g, remote), m -> writeInvoke(m, head, params));
                }
            }
        } catch (IOException | RuntimeException e) {
            if (p != null) {
                forget(p);
            }
            if (e instanceof IOException io) {
                return new Outcome(null, new UncheckedIOException("cannot invoke " + g.table.signature(method)
                        + " on group " + g.name + ": " + io.getMessage(), io));
            }
            throw (RuntimeException) e;
        }
        if (p == null || forwardTo != null) {
            return null;
        }
        if (localArgs != null) {
            Outcome o = callLocally(g, method, local, localArgs);
            if (tree != null) {
                o = combineInTree(g, method, myRank, callId, targets, tree, localRank, o, false, true);
                if (o != null) {
                    p.reply(targets[0], o);
                }
            } else if (mode == GmiProtocol.REPLY_ALL || replyRank == localRank) {
                p.reply(localRank, o);
            }
        }
        try {
            if (mode == GmiProtocol.REPLY_ALL) {
                Object[] results = new Object[targets.length];
                Exception[] ex = new Exception[targets.length];
                for (int i = 0; i < targets.length; i++) {
                    Outcome o = (Outcome) p.await(targets[i], replies);
                    results[i] = o.error == null ? o.value : null;
                    ex[i] = UserCalls.asException(o.error);
                }
                ValueKind kind = g.table.resultKinds[method];
                try {
                    return new Outcome(UserCalls.flatCombine(((CombineReply) h).flatCombiner(), kind, results, ex),
                            null);
                } catch (RuntimeException | Error e) {
                    return new Outcome(null, e);
                }
            }
            return (Outcome) p.await(mode == GmiProtocol.REPLY_ONE ? replyRank : targets[0], replies);
        } catch (IOException e) {
            return new Outcome(null, new UncheckedIOException(g.table.signature(method) + " on group " + g.name
                    + " failed: " + e.getMessage(), e));
        } finally {
            forget(p);
        }
    }

    /**
     * Whether a binomial combiner class has no instance fields: then the combiner a member would
     * deserialize from the invocation is as good as the invoker's own, and the invoker's member may
     * combine in the invoker's thread with the invoker's object.
     */
    private static final ClassValue<Boolean> STATELESS = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            for (Class<?> c = type; c != null && c != BinomialCombiner.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers())) {
                        return false;
                    }
                }
            }
            return true;
        }
    };

    /** {@code ranks} (sorted) without {@code rank}. */
    private static int[] without(int[] ranks, int rank) {
        int[] rest = new int[ranks.length - 1];
        int i = 0;
        for (int r : ranks) {
            if (r != rank) {
                rest[i++] = r;
            }
        }
        return rest;
    }

    /**
     * Runs an invocation on the member of this process in the calling thread, after the call went
     * to the other members: what a message to this process's own GMI port would do, without the
     * hand-off to its upcall thread and back. The arguments and the result are passed by value as
     * serialization would ({@link ValueKind#localCopy}; {@link #perform} does this only where copies
     * are cheap). Only for calls whose caller waits for outcomes (return, flat and binomial
     * combine): a discarded or forwarded call still returns at once. With the return of another member's result the
     * caller now returns after its own member ran too, as after the several RMI calls a group
     * invocation is equivalent to (seed 004); GMI orders no group invocations, so that a member runs
     * a call in the invoker's thread rather than its upcall thread is no new order.
     */
    private Outcome callLocally(GroupInfo g, int method, GroupMember member, Object[] args) {
        localCalls.increment();
        try {
            Object v = SkeletonGenerator.skeleton(g.table).dispatch(member, method, args);
            return new Outcome(ValueKind.localCopy(v), null);
        } catch (Throwable t) {
            return new Outcome(null, t);
        }
    }

    private static int[] processesOf(GroupInfo g, int[] targets) {
        int[] procs = new int[targets.length];
        for (int i = 0; i < procs.length; i++) {
            procs[i] = g.processOf[targets[i]];
        }
        return procs;
    }

    /** The invocation header. */
    private record Header(int group, int method, int caller, long callId, byte mode, int replyRank, int[] tree,
            BinomialCombiner combiner) {
    }

    /**
     * Invocation: {@code byte INVOKE, int group, int method, int callerProcess, long callId, byte
     * replyMode, int replyRank, int n, int[n] treeRanks, [Object binomialCombiner when n > 0],
     * parameters}.
     */
    private static void writeInvoke(WriteMessage m, Header h, GeneratedParameterVector params) throws IOException {
        m.writeByte(GmiProtocol.INVOKE);
        m.writeInt(h.group);
        m.writeInt(h.method);
        m.writeInt(h.caller);
        m.writeLong(h.callId);
        m.writeByte(h.mode);
        m.writeInt(h.replyRank);
        int n = h.tree == null ? 0 : h.tree.length;
        m.writeInt(n);
        if (n > 0) {
            m.writeArray(h.tree);
            m.writeObject(h.combiner);
        }
        params.writeParameters(m);
    }

    // ------------------------------------------------------------------ invocations (the member)

    private void invoke(ReadMessage m) throws IOException {
        int groupId = m.readInt();
        int method = m.readInt();
        int caller = m.readInt();
        long callId = m.readLong();
        byte wireMode = m.readByte();
        boolean toWaitingCaller = (wireMode & GmiProtocol.REPLY_TO_WAITING_CALLER) != 0;
        byte mode = (byte) (wireMode & ~GmiProtocol.REPLY_TO_WAITING_CALLER);
        int replyRank = m.readInt();
        int n = m.readInt();
        GroupMember member = members.get(groupId);
        GroupInfo g = groups.get(groupId);
        if (member == null || g == null) {
            throw new IOException("an invocation for group " + groupId + ", of which this process holds no member");
        }
        if (method < 0 || method >= g.table.methods.length || caller < 0 || caller >= processes.length
                || n < 0 || n > g.size) {
            throw new IOException("a bad invocation header for group " + g.name);
        }
        if (mode < GmiProtocol.REPLY_NONE || mode > GmiProtocol.REPLY_TREE
                || (mode == GmiProtocol.REPLY_TREE) != (n > 0)) {
            throw new IOException("a bad reply mode " + mode + " for group " + g.name);
        }
        int[] tree = new int[n];
        BinomialCombiner combiner = null;
        if (mode == GmiProtocol.REPLY_ONE && (replyRank < 0 || replyRank >= g.size)) {
            throw new IOException("a bad reply rank " + replyRank + " for group " + g.name);
        }
        if (n > 0) {
            m.readArray(tree);
            for (int i = 0; i < n; i++) {
                if (tree[i] < 0 || tree[i] >= g.size || (i > 0 && tree[i] <= tree[i - 1])) {
                    throw new IOException("a bad combining tree " + Arrays.toString(tree) + " for group " + g.name);
                }
            }
            if (Arrays.binarySearch(tree, member.myGroupRank) < 0) {
                throw new IOException("a combining tree " + Arrays.toString(tree) + " without this member");
            }
            try {
                combiner = (BinomialCombiner) m.readObject();
            } catch (ClassNotFoundException | ClassCastException e) {
                throw new IOException("cannot read the binomial combiner of an invocation: " + e, e);
            }
        }
        Object[] args = new Object[g.table.parameterTypes[method].length];
        for (int i = 0; i < args.length; i++) {
            args[i] = g.table.parameterKinds[method][i].read(m, g.table.parameterTypes[method][i]);
        }
        m.finish();
        Outcome o;
        try {
            o = new Outcome(SkeletonGenerator.skeleton(g.table).dispatch(member, method, args), null);
        } catch (Throwable t) {
            o = new Outcome(null, t);
        }
        int myMember = member.myGroupRank;
        ValueKind kind = g.table.resultKinds[method];
        switch (mode) {
        case GmiProtocol.REPLY_NONE:
            if (o.error != null) {
                LOG.debug("discarded exception of {}: {}", g.table.signature(method), o.error.toString());
            }
            return;
        case GmiProtocol.REPLY_ONE:
            if (myMember != replyRank) {
                return;
            }
            sendReply(caller, callId, myMember, o, kind, toWaitingCaller);
            return;
        case GmiProtocol.REPLY_ALL:
            sendReply(caller, callId, myMember, o, kind, toWaitingCaller);
            return;
        default:
            combineInTree(g, method, caller, callId, tree, combiner, myMember, o, toWaitingCaller, false);
        }
    }

    /**
     * Reply: {@code byte REPLY, long callId, int memberRank, outcome}, to the caller's reply port when
     * it waits for it ({@code toWaitingCaller}), else to its GMI port; when the reply port cannot be
     * reached, to the GMI port too (its upcall hands the reply to the waiting call).
     */
    private void sendReply(int caller, long callId, int rank, Outcome o, ValueKind kind, boolean toWaitingCaller) {
        Body reply = w -> {
            w.writeByte(GmiProtocol.REPLY);
            w.writeLong(callId);
            w.writeInt(rank);
            o.write(w, kind);
        };
        try {
            if (toWaitingCaller) {
                sendToWaiter(caller, reply);
            } else {
                send(caller, reply);
            }
        } catch (IOException e) {
            LOG.debug("cannot reply to process {}: {}", caller, e.toString());
        }
    }

    /**
     * Sends a message that a thread of {@code process} waits for to that process's reply port, where
     * the waiting thread reads it itself; when that port cannot be reached, to its GMI port (whose
     * upcall hands it to the wait).
     */
    private void sendToWaiter(int process, Body body) throws IOException {
        SendPort p = null;
        try {
            p = replyPort(process);
            write(p, body);
        } catch (IOException e) {
            if (p != null && replyUnicast.remove(process, p)) {
                closeQuietly(p); // broken: the next message connects anew
            }
            LOG.debug("cannot reach the reply port of process {}, sending to its GMI port: {}", process,
                    e.toString());
            send(process, body);
        }
    }

    /** The send port to the reply port of {@code process}, connected on first use. */
    private SendPort replyPort(int process) throws IOException {
        return cachedPort(replyUnicast, process, () -> {
            if (ended) {
                throw new IOException("GMI ended in this process");
            }
            SendPort p = ibis.createSendPort(REPLY_PORT_TYPE);
            try {
                p.connect(processes[process], GmiProtocol.REPLY_PORT_NAME, connectTimeout, true);
            } catch (IOException e) {
                closeQuietly(p);
                throw e;
            }
            return p;
        });
    }

    /**
     * Binomial combining among the invoked members: member at tree position i receives from
     * i + 1, i + 2, i + 4, ... while bit k of i is 0, then sends to i - 2^k; position 0 replies.
     * Combine part: {@code byte COMBINE_PART, int group, int method, int caller, long callId, int
     * fromPosition, outcome}.
     */
    private Outcome combineInTree(GroupInfo g, int method, int caller, long callId, int[] tree, BinomialCombiner c,
            int myMember, Outcome mine, boolean toWaitingCaller, boolean callerHere) {
        int n = tree.length;
        int i = Arrays.binarySearch(tree, myMember);
        ValueKind kind = g.table.resultKinds[method];
        Outcome acc = mine;
        String key = "B/" + caller + "/" + callId;
        try {
            for (int mask = 1; mask < n; mask <<= 1) {
                if ((i & mask) != 0) {
                    int parent = tree[i - mask];
                    Outcome part = acc;
                    int from = i;
                    sendToWaiter(g.processOf[parent], w -> {
                        w.writeByte(GmiProtocol.COMBINE_PART);
                        w.writeInt(g.id);
                        w.writeInt(method);
                        w.writeInt(caller);
                        w.writeLong(callId);
                        w.writeInt(from);
                        part.write(w, kind);
                    });
                    return null;
                }
                if (i + mask < n) {
                    int child = tree[i + mask];
                    Outcome other = (Outcome) awaitSlot(key, i + mask, g.processOf[child], caller);
                    acc = UserCalls.binomialCombine(c, kind, tree[i], acc, child, other, n);
                }
            }
            if (callerHere) {
                return acc;
            }
            sendReply(caller, callId, tree[0], acc, kind, toWaitingCaller);
        } catch (IOException e) {
            LOG.debug("binomial combine of {} given up: {}", g.table.signature(method), e.toString());
            if (callerHere) {
                return new Outcome(null, new UncheckedIOException("the binomial combine of "
                        + g.table.signature(method) + " on group " + g.name + " failed: " + e.getMessage(), e));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (callerHere) {
                return new Outcome(null, new UncheckedIOException(new InterruptedIOException("interrupted in the "
                        + "binomial combine of " + g.table.signature(method) + " on group " + g.name)));
            }
        } finally {
            dropSlot(key);
        }
        return null;
    }

    private Waiter slot(String key) {
        return slots.computeIfAbsent(key, k -> {
            Waiter w = new Waiter();
            waiters.add(w);
            return w;
        });
    }

    /**
     * Waits for part {@code index} of slot {@code key} (made on first use by either side); fails
     * when one of {@code watched} goes first. The waiter drops the slot with {@link #dropSlot}.
     */
    private Object awaitSlot(String key, int index, int... watched) throws IOException, InterruptedException {
        Waiter w = slot(key);
        w.watch(watched);
        for (int p : watched) {
            if (gone.contains(p)) {
                w.fail(new IOException("process " + p + " is gone"));
            }
        }
        return w.await(index, replies);
    }

    private void dropSlot(String key) {
        Waiter w = slots.remove(key);
        if (w != null) {
            waiters.remove(w);
        }
    }

    private void combinePart(ReadMessage m) throws IOException {
        int groupId = m.readInt();
        int method = m.readInt();
        int caller = m.readInt();
        long callId = m.readLong();
        int from = m.readInt();
        GroupInfo g = groups.get(groupId);
        if (g == null || method < 0 || method >= g.table.methods.length) {
            throw new IOException("a combine part for unknown group " + groupId + " or method " + method);
        }
        Outcome o = Outcome.read(m, g.table.resultKinds[method], g.table.methods[method].getReturnType());
        m.finish();
        slot("B/" + caller + "/" + callId).deliver(from, o);
    }

    private void reply(ReadMessage m) throws IOException {
        long callId = m.readLong();
        int rank = m.readInt();
        Pending p = pending.get(callId);
        if (p == null) {
            m.finish();
            return;
        }
        Outcome o = Outcome.read(m, p.group.table.resultKinds[p.method],
                p.group.table.methods[p.method].getReturnType());
        m.finish();
        p.reply(rank, o);
    }

    // ------------------------------------------------------------------ combined invocations

    /** Claims an invoker rank of a combined invocation for this process (an election per rank). */
    void claimInvoker(GroupStub stub, StubMethod sm, CombinedInvocation ci, ReplyScheme handling, int replies)
            throws ConfigurationException {
        String name = invokerElection(stub.group, ci.identifier(), ci.rank());
        try {
            IbisIdentifier winner = ibis.registry().elect(name, connectTimeout);
            if (winner == null || !winner.equals(ibis.identifier())) {
                throw new ConfigurationException(sm.describe() + ": rank " + ci.rank() + " of combined invocation "
                        + ci.identifier() + " is taken by " + winner);
            }
        } catch (IOException e) {
            throw new ConfigurationException(sm.describe() + ": cannot claim rank " + ci.rank()
                    + " of combined invocation " + ci.identifier() + ": " + e.getMessage());
        }
        String key = stub.group.id + "/" + ci.identifier();
        if (handling instanceof ForwardReply f) {
            invokerForwarders.put(key, new InvokerForwarder(f.forwarder(), replies));
        } else {
            invokerForwarders.remove(key);
        }
    }

    private static String invokerElection(GroupInfo g, String identifier, int rank) {
        return "gmi-combined/" + g.id + "/" + identifier + "/" + rank;
    }

    private int invokerProcess(GroupInfo g, String identifier, int rank) throws IOException {
        String name = invokerElection(g, identifier, rank);
        IbisIdentifier id = invokers.get(name);
        if (id == null) {
            // In slices, so that a process that dies meanwhile (perhaps the invoker, whose claim the
            // registry then drops) ends the wait at once instead of after the whole time-out.
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(connectTimeout);
            while (id == null) {
                long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
                if (left <= 0) {
                    throw new IOException("invoker " + rank + " of combined invocation " + identifier
                            + " did not configure it within " + connectTimeout + " ms");
                }
                id = ibis.registry().getElectionResult(name, Math.min(left, INVOKER_CHECK_MS));
                if (id == null && !gone.isEmpty()) {
                    int p = gone.iterator().next();
                    throw new IOException("invoker " + rank + " of combined invocation " + identifier
                            + " has not configured it, and process " + p + " (" + processes[p] + ") is gone");
                }
            }
            invokers.put(name, id);
        }
        int p = Arrays.asList(processes).indexOf(id);
        if (p < 0) {
            throw new IOException("invoker " + rank + " of combined invocation " + identifier + " is not in the pool");
        }
        return p;
    }

    /**
     * A combined invocation at one invoker. Invoker part: {@code byte INVOKER_PART, int group, int
     * method, String identifier, long seq, int fromRank, parameters}; invoker reply: {@code byte
     * INVOKER_REPLY, int group, int method, String identifier, long seq, outcome}.
     */
    private Outcome collective(GroupStub stub, int method, StubMethod.Config c, GeneratedParameterVector mine)
            throws IOException, InterruptedException {
        GroupInfo g = stub.group;
        CombinedInvocation ci = c.combined;
        String id = ci.identifier();
        long seq = collectiveSeq.computeIfAbsent(g.id + "/" + id, k -> new AtomicLong()).getAndIncrement();
        String partKey = "IP/" + g.id + "/" + id + "/" + seq;
        int rank = ci.rank();
        int size = ci.size();
        GeneratedParameterVector combined = null;
        try {
            if (ci.flatCombiner() != null) {
                if (rank != 0) {
                    sendInvokerPart(invokerProcess(g, id, 0), g, method, id, seq, rank, mine);
                } else {
                    ParameterVector[] in = new ParameterVector[size];
                    in[0] = mine;
                    for (int r = 1; r < size; r++) {
                        in[r] = (ParameterVector) awaitSlot(partKey, r, invokerProcess(g, id, r));
                    }
                    GeneratedParameterVector out = (GeneratedParameterVector) mine.getVector();
                    ci.flatCombiner().combine(in, out);
                    out.checkComplete(ci.flatCombiner().getClass().getName());
                    combined = out;
                }
            } else {
                GeneratedParameterVector acc = mine;
                boolean sent = false;
                for (int mask = 1; mask < size && !sent; mask <<= 1) {
                    if ((rank & mask) != 0) {
                        sendInvokerPart(invokerProcess(g, id, rank - mask), g, method, id, seq, rank, acc);
                        sent = true;
                    } else if (rank + mask < size) {
                        ParameterVector other = (ParameterVector) awaitSlot(partKey, rank + mask,
                                invokerProcess(g, id, rank + mask));
                        GeneratedParameterVector out = (GeneratedParameterVector) mine.getVector();
                        ci.binomialCombiner().combine(acc, other, out);
                        out.checkComplete(ci.binomialCombiner().getClass().getName());
                        acc = out;
                    }
                }
                combined = sent ? null : acc;
            }
        } catch (IOException e) {
            Outcome failed = new Outcome(null, new UncheckedIOException("combined invocation " + id + " of "
                    + g.table.signature(method) + " failed: " + e.getMessage(), e));
            // The others must not wait for this invoker: its parent in the tree gets the failure
            // instead of its part; invoker 0 hands it to every invoker that waits for the outcome.
            if (rank != 0) {
                int parent = ci.flatCombiner() != null ? 0 : rank - Integer.lowestOneBit(rank);
                sendInvokerPartFailed(g, method, id, seq, rank, parent, e.getMessage());
            } else {
                replyToInvokers(g, method, id, seq, c, size, failed);
            }
            return failed;
        } finally {
            dropSlot(partKey);
        }
        ReplyScheme h = c.handling;
        ValueKind kind = g.table.resultKinds[method];
        if (rank != 0) {
            if (h.mode() == ReplyScheme.R_DISCARD || h instanceof ForwardReply) {
                return null;
            }
            String replyKey = "IR/" + g.id + "/" + id + "/" + seq;
            try {
                return (Outcome) awaitSlot(replyKey, 0, invokerProcess(g, id, 0));
            } catch (IOException e) {
                return new Outcome(null, new UncheckedIOException("combined invocation " + id + " of "
                        + g.table.signature(method) + " failed: " + e.getMessage(), e));
            } finally {
                dropSlot(replyKey);
            }
        }
        int[] invokerProcs = new int[size];
        for (int r = 1; r < size; r++) {
            invokerProcs[r] = invokerProcess(g, id, r);
        }
        ReplySink sink = null;
        if (h instanceof ForwardReply f) {
            sink = (memberRank, o) -> {
                Outcome[] outs = split(c, kind, o, size);
                callForwarder(f.forwarder(), kind, memberRank, c.targets.length, outs[0]);
                for (int r = 1; r < size; r++) {
                    Outcome part = outs[r];
                    trySend(invokerProcs[r], w -> {
                        w.writeByte(GmiProtocol.INVOKER_FORWARD);
                        w.writeInt(g.id);
                        w.writeInt(method);
                        w.writeString(id);
                        w.writeInt(memberRank);
                        part.write(w, kind);
                    });
                }
            };
        }
        Outcome result;
        try {
            result = perform(g, method, c, combined, sink);
        } catch (RuntimeException | Error e) {
            replyToInvokers(g, method, id, seq, c, size, new Outcome(null, e));
            throw e;
        }
        if (result == null) {
            return null;
        }
        Outcome[] outs = split(c, kind, result, size);
        for (int r = 1; r < size; r++) {
            sendInvokerReply(invokerProcs[r], g, method, id, seq, outs[r]);
        }
        return outs[0];
    }

    /** Invoker 0: the same outcome (a failure) for every other invoker that waits for one. */
    private void replyToInvokers(GroupInfo g, int method, String id, long seq, StubMethod.Config c, int size,
            Outcome o) {
        ReplyScheme h = c.handling;
        if (h.mode() == ReplyScheme.R_DISCARD || h instanceof ForwardReply) {
            return; // they do not wait
        }
        for (int r = 1; r < size; r++) {
            int process = reachableInvoker(g, id, r);
            if (process >= 0) {
                sendInvokerReply(process, g, method, id, seq, o);
            }
        }
    }

    /** The process of invoker {@code rank}, or -1 when it is gone or cannot be found out. */
    private int reachableInvoker(GroupInfo g, String id, int rank) {
        try {
            int process = invokerProcess(g, id, rank);
            return gone.contains(process) ? -1 : process;
        } catch (IOException | RuntimeException e) {
            LOG.debug("invoker {} of combined invocation {} is not reachable: {}", rank, id, e.toString());
            return -1;
        }
    }

    /** What every message among the invokers of a combined invocation starts with. */
    private static void writeInvokerHeader(WriteMessage w, byte kind, GroupInfo g, int method, String id, long seq)
            throws IOException {
        w.writeByte(kind);
        w.writeInt(g.id);
        w.writeInt(method);
        w.writeString(id);
        w.writeLong(seq);
    }

    private void sendInvokerReply(int process, GroupInfo g, int method, String id, long seq, Outcome o) {
        ValueKind kind = g.table.resultKinds[method];
        trySendToWaiter(process, w -> {
            writeInvokerHeader(w, GmiProtocol.INVOKER_REPLY, g, method, id, seq);
            o.write(w, kind);
        });
    }

    /** A failed invoker's message to its parent in the combining tree (instead of its part). */
    private void sendInvokerPartFailed(GroupInfo g, int method, String id, long seq, int from, int parent,
            String why) {
        int process = reachableInvoker(g, id, parent);
        if (process < 0) {
            return;
        }
        trySendToWaiter(process, w -> {
            writeInvokerHeader(w, GmiProtocol.INVOKER_PART_FAILED, g, method, id, seq);
            w.writeInt(from);
            w.writeString(String.valueOf(why));
        });
    }

    /** What {@link #writeInvokerHeader} wrote after the kind: the group, method, invocation id and sequence. */
    private record InvokerHeader(GroupInfo g, int method, String id, long seq) {
        /** The slot of this invocation step of {@code kind} ("IP": parts, "IR": the reply). */
        String slot(String kind) {
            return kind + "/" + g.id + "/" + id + "/" + seq;
        }
    }

    private InvokerHeader readInvokerHeader(ReadMessage m) throws IOException {
        int groupId = m.readInt();
        int method = m.readInt();
        GroupInfo g = knownGroup(groupId, method);
        String id = m.readString();
        return new InvokerHeader(g, method, id, m.readLong());
    }

    private void invokerPartFailed(ReadMessage m) throws IOException {
        InvokerHeader h = readInvokerHeader(m);
        int from = m.readInt();
        String why = m.readString();
        m.finish();
        slot(h.slot("IP")).fail(new IOException("invoker " + from + " of combined invocation " + h.id()
                + " failed: " + why));
    }

    private static Outcome[] split(StubMethod.Config c, ValueKind kind, Outcome o, int size) {
        if (c.personalized != null) {
            return UserCalls.personalize(c.personalized.personalizer(), kind, o, size);
        }
        Outcome[] outs = new Outcome[size];
        Arrays.fill(outs, o);
        return outs;
    }

    private void sendInvokerPart(int to, GroupInfo g, int method, String id, long seq, int from,
            GeneratedParameterVector v) throws IOException {
        sendToWaiter(to, w -> {
            writeInvokerHeader(w, GmiProtocol.INVOKER_PART, g, method, id, seq);
            w.writeInt(from);
            v.writeParameters(w);
        });
    }

    private GroupInfo knownGroup(int groupId, int method) throws IOException {
        GroupInfo g = groups.get(groupId);
        if (g == null && joining.contains(groupId)) {
            g = awaitInstalled(groupId);
        }
        if (g == null || method < 0 || method >= g.table.methods.length) {
            throw new IOException("a message for unknown group " + groupId + " or method " + method);
        }
        return g;
    }

    /**
     * A call from another member's groupInit (which looked the group up there) may come before this
     * process's join installed the group: the group is complete, and the answer that says so is on
     * its way to the joining thread, which installs the group at once. Waits for that.
     */
    private GroupInfo awaitInstalled(int groupId) throws IOException {
        synchronized (joining) {
            while (joining.contains(groupId) && !groups.containsKey(groupId)) {
                try {
                    joining.wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while a join installed group " + groupId);
                }
            }
        }
        return groups.get(groupId);
    }

    private void invokerPart(ReadMessage m) throws IOException {
        InvokerHeader h = readInvokerHeader(m);
        int from = m.readInt();
        ParameterVector v = ParameterVectorGenerator.newVector(h.g().table, h.method()).readParameters(m);
        m.finish();
        slot(h.slot("IP")).deliver(from, v);
    }

    private void invokerReply(ReadMessage m) throws IOException {
        InvokerHeader h = readInvokerHeader(m);
        GroupInfo g = h.g();
        Outcome o = Outcome.read(m, g.table.resultKinds[h.method()], g.table.methods[h.method()].getReturnType());
        m.finish();
        slot(h.slot("IR")).deliver(0, o);
    }

    private void invokerForward(ReadMessage m) throws IOException {
        int groupId = m.readInt();
        int method = m.readInt();
        GroupInfo g = knownGroup(groupId, method);
        String id = m.readString();
        int memberRank = m.readInt();
        Outcome o = Outcome.read(m, g.table.resultKinds[method], g.table.methods[method].getReturnType());
        m.finish();
        InvokerForwarder f = invokerForwarders.get(g.id + "/" + id);
        if (f == null) {
            LOG.debug("a forwarded result of combined invocation {} without a forwarder here", id);
            return;
        }
        callForwarder(f.forwarder(), g.table.resultKinds[method], memberRank, f.replies(), o);
    }

    // ------------------------------------------------------------------ sending

    /** Writes the body of one message. */
    private interface Body {
        void write(WriteMessage m) throws IOException;
    }

    private void send(int process, Body body) throws IOException {
        if (process < 0 || process >= processes.length) {
            throw new IOException("no process " + process);
        }
        write(cachedPort(unicast, process, () -> connect(new int[] { process })), body);
    }

    /** Makes a connected send port. */
    private interface PortMaker {
        SendPort make() throws IOException;
    }

    /**
     * The send port of {@code ports} to {@code process}, made and cached on first use (when two
     * threads race, the first cached wins and the other's is closed).
     */
    private SendPort cachedPort(Map<Integer, SendPort> ports, int process, PortMaker maker) throws IOException {
        if (gone.contains(process)) {
            throw new IOException("process " + process + " (" + processes[process] + ") is gone");
        }
        SendPort p = ports.get(process);
        if (p == null) {
            p = maker.make();
            SendPort prev = ports.putIfAbsent(process, p);
            if (prev != null) {
                closeQuietly(p);
                p = prev;
            }
        }
        return p;
    }

    private void trySendToWaiter(int process, Body body) {
        try {
            sendToWaiter(process, body);
        } catch (IOException e) {
            LOG.debug("cannot send to process {}: {}", process, e.toString());
        }
    }

    private void trySend(int process, Body body) {
        try {
            send(process, body);
        } catch (IOException e) {
            LOG.debug("cannot send to process {}: {}", process, e.toString());
        }
    }

    /** One message to several processes: serialized once, through one send port connected to all. */
    private void multicast(int[] procs, Body body) throws IOException {
        int[] sorted = procs.clone();
        Arrays.sort(sorted);
        String key = Arrays.toString(sorted);
        SendPort p = multicast.get(key);
        if (p == null) {
            p = connect(sorted);
            SendPort prev = multicast.putIfAbsent(key, p);
            if (prev != null) {
                closeQuietly(p);
                p = prev;
            }
        }
        write(p, body);
    }

    private SendPort connect(int[] procs) throws IOException {
        if (ended) {
            throw new IOException("GMI ended in this process");
        }
        SendPort p = ibis.createSendPort(PORT_TYPE, null, this, null);
        try {
            for (int proc : procs) {
                p.connect(processes[proc], GmiProtocol.PORT_NAME, connectTimeout, true);
            }
        } catch (IOException e) {
            closeQuietly(p);
            throw e;
        }
        return p;
    }

    private static void write(SendPort p, Body body) throws IOException {
        synchronized (p) {
            WriteMessage m = p.newMessage();
            try {
                body.write(m);
            } catch (IOException | RuntimeException e) {
                m.finish(e instanceof IOException io ? io : new IOException(e.toString(), e));
                throw e;
            }
            m.finish();
        }
    }

    private static void closeQuietly(SendPort p) {
        try {
            p.close();
        } catch (IOException | RuntimeException e) {
            LOG.debug("closing a GMI send port: {}", e.toString());
        }
    }

    // ------------------------------------------------------------------ receiving

    @Override
    public void upcall(ReadMessage m) throws IOException {
        try {
            ranked.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted before GMI started");
        }
        byte kind = m.readByte();
        switch (kind) {
        case GmiProtocol.CONTROL:
            GroupDirectory d = directory;
            if (d == null) {
                throw new IOException("a directory request at process " + myRank + ", which is not the directory");
            }
            d.handle(m);
            return;
        case GmiProtocol.INVOKE:
            invoke(m);
            return;
        case GmiProtocol.INVOKER_FORWARD:
            invokerForward(m);
            return;
        default:
            // The kinds a thread waits for come here when their sender could not reach the reply port.
            if (!waitedFor(kind, m)) {
                throw new IOException("unknown GMI message kind " + kind + " from " + m.origin());
            }
        }
    }

    /** A message read from the reply port by a waiting thread ({@link ReplyChannel}). */
    private void fromReplyPort(byte kind, ReadMessage m) throws IOException {
        if (!waitedFor(kind, m)) {
            throw new IOException("a GMI message of kind " + kind + " on the reply port from " + m.origin());
        }
    }

    /**
     * Handles a message of a kind that a thread waits for (a directory answer, a reply, a combine
     * part, an invoker's part, failure or outcome), handing it to that wait.
     *
     * @return false for any other kind (nothing read)
     */
    private boolean waitedFor(byte kind, ReadMessage m) throws IOException {
        switch (kind) {
        case GmiProtocol.CONTROL_REPLY:
            controlReply(m);
            return true;
        case GmiProtocol.REPLY:
            reply(m);
            return true;
        case GmiProtocol.COMBINE_PART:
            combinePart(m);
            return true;
        case GmiProtocol.INVOKER_PART:
            invokerPart(m);
            return true;
        case GmiProtocol.INVOKER_REPLY:
            invokerReply(m);
            return true;
        case GmiProtocol.INVOKER_PART_FAILED:
            invokerPartFailed(m);
            return true;
        default:
            return false;
        }
    }

    // ------------------------------------------------------------------ failures

    /**
     * Whether the process of {@code rank} left the pool, died, or lost its connection to this
     * process; used by libraries on GMI (the collectives) to bound their own waits.
     *
     * @param rank a process rank
     * @return true when that process is gone
     */
    public boolean isGone(int rank) {
        return gone.contains(rank);
    }

    private void processGone(IbisIdentifier id, String what) {
        IbisIdentifier[] all = processes;
        if (all == null) {
            return;
        }
        int p = Arrays.asList(all).indexOf(id);
        if (p < 0 || p == myRank || !gone.add(p)) {
            return;
        }
        LOG.debug("process {} ({}) {}", p, id, what);
        failWaits(p, new IOException("process " + p + " (" + id + ") " + what));
        SendPort u = unicast.remove(p);
        if (u != null) {
            closeQuietly(u);
        }
        SendPort r = replyUnicast.remove(p);
        if (r != null) {
            closeQuietly(r);
        }
        GroupDirectory d = directory;
        if (d != null) {
            // A gone process counts as exited; answer on another thread than the event's.
            TIMER.execute(() -> {
                try {
                    d.processGone();
                } catch (IOException | RuntimeException e) {
                    LOG.debug("answering the exit barrier after process {} went: {}", p, e.toString());
                }
            });
        }
    }

    @Override
    public void joined(IbisIdentifier joinedIbis) {
        synchronized (joined) {
            joined.add(joinedIbis);
            joined.notifyAll();
        }
    }

    @Override
    public void left(IbisIdentifier leftIbis) {
        processGone(leftIbis, "left the pool");
    }

    @Override
    public void died(IbisIdentifier corpse) {
        processGone(corpse, "died");
    }

    @Override
    public void gotSignal(String signal, IbisIdentifier source) {
        // GMI sends no signals.
    }

    @Override
    public void electionResult(String electionName, IbisIdentifier winner) {
        // Election results are asked for when needed.
    }

    @Override
    public void poolClosed() {
        // waitUntilPoolClosed covers this.
    }

    @Override
    public void poolTerminated(IbisIdentifier source) {
        // GMI does not terminate pools.
    }

    @Override
    public boolean gotConnection(ReceivePort receiver, SendPortIdentifier applicant) {
        return true;
    }

    @Override
    public void lostConnection(ReceivePort receiver, SendPortIdentifier origin, Throwable cause) {
        if (cause != null && !ended) {
            processGone(origin.ibisIdentifier(), "lost its connection to this process: " + cause);
        }
    }

    @Override
    public void lostConnection(SendPort origin, ReceivePortIdentifier receiver, Throwable cause) {
        if (!ended) {
            processGone(receiver.ibisIdentifier(), "lost its connection from this process"
                    + (cause == null ? "" : ": " + cause));
        }
    }

    /** The forwarder of an invoker of a combined invocation, and how many results each call forwards. */
    private record InvokerForwarder(Forwarder forwarder, int replies) {
    }
}
