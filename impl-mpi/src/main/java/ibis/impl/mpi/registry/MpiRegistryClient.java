package ibis.impl.mpi.registry;

import ibis.impl.mpi.registry.RegistryChannel.Envelope;
import ibis.impl.mpi.registry.RegistryWire.Reader;
import ibis.impl.mpi.registry.RegistryWire.Writer;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.NoSuchPropertyException;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.HierarchicalLocation;
import ibis.ipl.impl.ImplSettings;
import ibis.ipl.impl.MemberIdentifier;
import ibis.ipl.impl.RegistryClient;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rank's member of the pool over MPI; the {@link ibis.ipl.Registry} of an Ibis with
 * {@code ibis.registry.implementation=mpi}. Created by {@link MpiRegistryProvider#join}.
 *
 * <p>The pool is the job ({@code MPI_COMM_WORLD}): one member per rank, named by its rank
 * ("0", "1", ...). Rank 0 also runs the {@link RegistryCoordinator}. Every rank has one receive
 * thread for the registry's messages; requests go to rank 0 (rank 0's own through MPI to itself,
 * so every member sees one order of events), and rank 0 answers with events and replies. How the
 * IPL's registry calls map onto this is listed in the module's README.md ("Registry over MPI").
 */
public final class MpiRegistryClient implements RegistryClient {

    private static final Logger LOG = LoggerFactory.getLogger(MpiRegistryClient.class);

    private final RegistryChannel channel;
    private final int rank;
    private final int size;
    private final String poolName;
    private final MemberIdentifier identifier;
    private final RegistryEventHandler handler;
    private final boolean closedWorld;
    private final boolean elections;
    private final boolean signals;
    private final boolean termination;
    private final boolean membership;
    private final MemberView view;
    /** Only on rank 0. */
    private final RegistryCoordinator coordinator;

    private final Thread receiver;
    private final CompletableFuture<Void> welcome = new CompletableFuture<>();
    private final ConcurrentHashMap<Integer, CompletableFuture<Reader>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger requestIds = new AtomicInteger();
    private final AtomicBoolean leaving = new AtomicBoolean();
    private final AtomicInteger requestsSent = new AtomicInteger();
    /** The request id of this member's LEAVE, or -1. */
    private volatile int leaveRequest = -1;
    /** This member is done (left, declared dead, refused): its receive thread ends unless it coordinates. */
    private volatile boolean memberDone;
    /** The receive thread must end now (shutdown, failed join), even as coordinator. */
    private volatile boolean stopping;

    private MpiRegistryClient(RegistryChannel channel, String poolName, MemberIdentifier identifier,
            IbisCapabilities capabilities, RegistryEventHandler handler) {
        this.channel = channel;
        this.rank = channel.rank();
        this.size = channel.size();
        this.poolName = poolName;
        this.identifier = identifier;
        this.handler = handler;
        this.closedWorld = has(capabilities, IbisCapabilities.CLOSED_WORLD);
        this.elections = has(capabilities, IbisCapabilities.ELECTIONS_STRICT)
                || has(capabilities, IbisCapabilities.ELECTIONS_UNRELIABLE);
        this.signals = has(capabilities, IbisCapabilities.SIGNALS);
        this.termination = has(capabilities, IbisCapabilities.TERMINATION);
        this.membership = has(capabilities, IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED)
                || has(capabilities, IbisCapabilities.MEMBERSHIP_UNRELIABLE);
        this.view = new MemberView(poolName, rank, handler);
        this.coordinator = rank == 0 ? new RegistryCoordinator(channel) : null;
        this.receiver = new Thread(this::receiveLoop, "ibis-mpi-registry-rank-" + rank);
        this.receiver.setDaemon(true);
    }

    /**
     * Refuses what a pool over MPI cannot offer, before anything of MPI is touched (so that the
     * caller may try again without it).
     *
     * @throws IbisConfigurationException for {@code malleable}
     */
    static void checkCapabilities(IbisCapabilities capabilities) throws IbisConfigurationException {
        if (has(capabilities, IbisCapabilities.MALLEABLE)) {
            throw new IbisConfigurationException("the registry over MPI cannot offer capability "
                    + IbisCapabilities.MALLEABLE + ": its pool is the MPI job's fixed set of ranks (no one joins"
                    + " later); use ibis.registry.implementation=central with a registry server (bin/ibis-server)");
        }
    }

    private static boolean has(IbisCapabilities capabilities, String capability) {
        return capabilities != null && capabilities.hasCapability(capability);
    }

    /**
     * Joins the pool over the given channel and waits until every rank of the job has joined.
     *
     * @throws IbisConfigurationException when a capability cannot be offered by a pool over MPI
     *         ({@code malleable}) or a property is invalid
     * @throws IOException when the ranks disagree on the pool (name, size), or not every rank joined
     *         within {@code ibis.registry.mpi.join.timeout}
     */
    static MpiRegistryClient join(RegistryChannel channel, IbisCapabilities capabilities,
            RegistryEventHandler handler, Properties properties, String implementationName,
            byte[] implementationData, byte[] tag) throws IOException {
        checkCapabilities(capabilities);
        Properties p = properties == null ? new Properties() : properties;
        String pool = ImplSettings.value(MpiRegistryProperties.POOL_NAME_PROPERTY, p);
        if (pool == null) {
            pool = defaultPoolName(System.getenv());
        }
        Integer expectedSize = ImplSettings.value(MpiRegistryProperties.POOL_SIZE_PROPERTY, p);
        long joinTimeout = ImplSettings.value(MpiRegistryProperties.JOIN_TIMEOUT_PROPERTY, p);
        HierarchicalLocation location = HierarchicalLocation.parse(
                ImplSettings.value(MpiRegistryProperties.LOCATION_PROPERTY, p));
        MemberIdentifier identifier = new MemberIdentifier(Integer.toString(channel.rank()), pool, location, tag,
                implementationName == null ? "" : implementationName, implementationData);

        MpiRegistryClient client = new MpiRegistryClient(channel, pool, identifier, capabilities, handler);
        client.receiver.start();
        try {
            byte[] join = new Writer(RegistryWire.JOIN).writeString(pool)
                    .writeInt(expectedSize == null ? -1 : expectedSize).writeMember(identifier).bytes();
            channel.send(0, join);
            if (joinTimeout > 0) {
                client.welcome.get(joinTimeout, TimeUnit.MILLISECONDS);
            } else {
                client.welcome.get();
            }
        } catch (TimeoutException e) {
            client.stop();
            throw new IOException("rank " + channel.rank() + " of " + channel.size() + ": not every rank of the job"
                    + " joined pool '" + pool + "' within " + joinTimeout + " ms (" + MpiRegistryProperties.JOIN_TIMEOUT
                    + "); the pool over MPI is the whole job, so every rank must create its Ibis");
        } catch (ExecutionException e) {
            client.stop();
            Throwable cause = e.getCause();
            throw cause instanceof IOException io ? new IOException(io.getMessage(), io)
                    : new IOException("joining pool '" + pool + "' over MPI failed: " + cause, cause);
        } catch (InterruptedException e) {
            client.stop();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while joining pool '" + pool + "' over MPI");
        } catch (IOException | RuntimeException e) {
            client.stop();
            throw e;
        }
        client.view.upcalls.start();
        LOG.debug("rank {} joined pool '{}' over MPI ({} members)", channel.rank(), pool, channel.size());
        return client;
    }

    /**
     * The pool name every rank of one job computes alike when {@code ibis.pool.name} is not set:
     * from the launcher's job identifier (Slurm, PMIx, Open MPI), else {@code mpi-world}.
     */
    static String defaultPoolName(Map<String, String> environment) {
        String[][] jobVariables = {{"SLURM_JOB_ID", "slurm-"}, {"PMIX_NAMESPACE", "pmix-"},
            {"OMPI_MCA_ess_base_jobid", "ompi-"}};
        for (String[] v : jobVariables) {
            String value = environment.get(v[0]);
            if (value != null && !value.isBlank()) {
                return v[1] + value.trim();
            }
        }
        return "mpi-world";
    }

    // ---------------------------------------------------------------- the receive thread

    private void receiveLoop() {
        IOException failure = null;
        try {
            while (!stopping) {
                Envelope envelope = channel.receive();
                if (envelope.message().length == 0) {
                    continue; // a wake: look at stopping again
                }
                Reader message = new Reader(envelope.message());
                if (RegistryWire.isRequest(message.kind)) {
                    if (coordinator == null) {
                        throw new IOException("rank " + rank + " got registry request kind " + message.kind
                                + " from rank " + envelope.source() + "; only rank 0 coordinates");
                    }
                    coordinator.handle(envelope.source(), message);
                } else {
                    memberMessage(message);
                }
                if (memberDone && (coordinator == null || coordinator.finished())) {
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            failure = e instanceof IOException io ? io : new IOException(e.toString(), e);
            if (!stopping) {
                LOG.warn("rank {}: the registry over MPI stopped: {}", rank, e.toString(), e);
            }
        } finally {
            IOException reason = failure != null
                    ? new IOException("the registry over MPI on rank " + rank + " stopped: " + failure.getMessage(),
                            failure)
                    : new IOException(identifier + " is no longer a member of pool '" + poolName + "'");
            welcome.completeExceptionally(reason);
            endMember(reason);
            channel.close();
        }
    }

    private void memberMessage(Reader m) throws IOException {
        switch (m.kind) {
            case RegistryWire.WELCOME -> {
                int n = m.readInt();
                if (n != size) {
                    throw new IOException("welcome lists " + n + " members for a job of " + size + " ranks");
                }
                List<MemberIdentifier> all = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    all.add(m.readMember());
                }
                m.expectEnd();
                view.welcome(all);
                welcome.complete(null);
            }
            case RegistryWire.REFUSED -> {
                String reason = m.readString();
                m.expectEnd();
                memberDone = true;
                welcome.completeExceptionally(new IOException("joining pool '" + poolName + "' over MPI was refused: "
                        + reason));
            }
            case RegistryWire.REPLY -> reply(m);
            case RegistryWire.ELECTED -> {
                String election = m.readString();
                int winner = m.readInt();
                m.expectEnd();
                view.elected(election, winner);
            }
            case RegistryWire.SIGNALLED -> {
                String signal = m.readString();
                int sender = m.readInt();
                m.expectEnd();
                view.signalled(signal, sender);
            }
            case RegistryWire.LEFT -> {
                int gone = m.readInt();
                m.expectEnd();
                view.gone(gone, false);
            }
            case RegistryWire.DIED -> {
                int gone = m.readInt();
                m.expectEnd();
                view.gone(gone, true);
                if (gone == rank) {
                    memberDone = true;
                    endMember(new IOException("the registry over MPI declared this member (" + identifier
                            + " of pool '" + poolName + "') dead (assumeDead)"));
                }
            }
            case RegistryWire.TERMINATED -> {
                int terminator = m.readInt();
                m.expectEnd();
                view.terminated(terminator);
            }
            default -> throw new IOException("unknown registry message kind " + m.kind);
        }
    }

    private void reply(Reader m) throws IOException {
        int id = m.readInt();
        byte status = m.readByte();
        if (id == leaveRequest) {
            memberDone = true;
        }
        CompletableFuture<Reader> waiting = pending.remove(id);
        if (waiting != null) {
            if (status == RegistryWire.OK) {
                waiting.complete(m);
            } else {
                String reason = m.readString();
                waiting.completeExceptionally(new IOException(reason));
            }
            return;
        }
        LOG.debug("rank {}: ignoring the reply to request {}, whose caller stopped waiting", rank, id);
    }

    /** This member can no longer use the registry: wakes every waiting call with the reason. */
    private void endMember(IOException reason) {
        view.fail(reason);
        for (Integer id : new ArrayList<>(pending.keySet())) {
            CompletableFuture<Reader> waiting = pending.remove(id);
            if (waiting != null) {
                waiting.completeExceptionally(new IOException(reason.getMessage(), reason));
            }
        }
    }

    /** Ends the receive thread now, coordinator or not (a failed join, the end of the process). */
    private void stop() {
        stopping = true;
        channel.wake();
    }

    /**
     * For the end of the process, before MPI is finalized: leaves the pool if this member has not,
     * and on rank 0 keeps coordinating until every other rank left too or {@code lingerMillis}
     * passed; then ends the receive thread.
     */
    void shutdown(long lingerMillis) {
        try {
            leave();
        } catch (IOException e) {
            LOG.debug("rank {}: leaving at shutdown failed: {}", rank, e.toString());
        }
        try {
            receiver.join(Math.max(1, lingerMillis));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (receiver.isAlive() && coordinator != null) {
            LOG.warn("rank 0 ends while ranks {} are still in pool '{}' over MPI ({} ms passed, {}); their"
                    + " registry calls will get no answer", coordinator.remaining(), poolName, lingerMillis,
                    MpiRegistryProperties.LINGER);
        }
        stop();
        try {
            receiver.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---------------------------------------------------------------- requests

    /**
     * Sends a request to the coordinator and waits for its reply.
     *
     * @param timeoutMillis 0 waits as long as it takes; else null when no reply came in time
     */
    private Reader call(int id, Writer request, long timeoutMillis, String what) throws IOException {
        CompletableFuture<Reader> reply = new CompletableFuture<>();
        pending.put(id, reply);
        IOException unusable = view.failure();
        if (unusable != null) {
            pending.remove(id);
            throw unusable;
        }
        try {
            channel.send(0, request.bytes());
            requestsSent.incrementAndGet();
            return timeoutMillis > 0 ? reply.get(timeoutMillis, TimeUnit.MILLISECONDS) : reply.get();
        } catch (TimeoutException e) {
            pending.remove(id);
            return null;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw new IOException(what + " failed: " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            pending.remove(id);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the registry's answer to " + what);
        } catch (IOException e) {
            pending.remove(id);
            throw e;
        }
    }

    private Reader call(Writer request, int id, String what) throws IOException {
        return call(id, request, 0, what);
    }

    private int nextId() {
        return requestIds.incrementAndGet();
    }

    private void require(boolean present, String method, String capabilities) {
        if (!present) {
            throw new IbisConfigurationException("Registry." + method + " needs the Ibis capability " + capabilities
                    + ", which this Ibis did not ask for");
        }
    }

    private void requireDowncalls(String method) {
        if (handler != null) {
            throw new IbisConfigurationException("Registry." + method + " is not available: this Ibis has a"
                    + " RegistryEventHandler, which receives these events instead");
        }
    }

    private static String checkName(String name, String what) {
        if (name == null) {
            throw new NullPointerException(what + " is null");
        }
        return name;
    }

    /** The rank of a member of this pool. */
    private int rankOf(IbisIdentifier member) throws IOException {
        if (member == null) {
            throw new NullPointerException("member identifier is null");
        }
        if (!poolName.equals(member.poolName())) {
            throw new IOException(member + " belongs to pool '" + member.poolName() + "', not to pool '" + poolName
                    + "'");
        }
        try {
            int r = Integer.parseInt(member.name());
            if (r >= 0 && r < size) {
                return r;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IOException(member + " is not a member of pool '" + poolName + "' over MPI (members are ranks 0.."
                + (size - 1) + ")");
    }

    // ---------------------------------------------------------------- Registry

    @Override
    public MemberIdentifier identifier() {
        return identifier;
    }

    /** The first candidate wins, at rank 0; every later candidate gets that winner. */
    @Override
    public IbisIdentifier elect(String electionName) throws IOException {
        return elect(electionName, 0);
    }

    /**
     * As {@link #elect(String)}, waiting at most {@code timeoutMillis} (0: as long as it takes) for
     * rank 0's decision; null when it did not come in time.
     */
    @Override
    public IbisIdentifier elect(String electionName, long timeoutMillis) throws IOException {
        require(elections, "elect()",
                IbisCapabilities.ELECTIONS_STRICT + " or " + IbisCapabilities.ELECTIONS_UNRELIABLE);
        checkName(electionName, "election name");
        if (timeoutMillis < 0) {
            throw new IllegalArgumentException("negative timeout " + timeoutMillis);
        }
        int id = nextId();
        Reader reply = call(id, new Writer(RegistryWire.ELECT).writeInt(id).writeString(electionName), timeoutMillis,
                "elect('" + electionName + "')");
        if (reply == null) {
            return null;
        }
        int winner = reply.readInt();
        reply.expectEnd();
        // The ELECTED event came before the reply; the view may have cleared it since (the winner left).
        return view.memberOfRank(winner);
    }

    @Override
    public IbisIdentifier getElectionResult(String electionName) throws IOException {
        return getElectionResult(electionName, 0);
    }

    /**
     * Waits for the election's winner; 0 waits forever, a positive timeout returns null when none
     * came in time, a negative one (IPL 2.x: -1) does not wait: the winner known now, or null.
     */
    @Override
    public IbisIdentifier getElectionResult(String electionName, long timeoutMillis) throws IOException {
        require(elections, "getElectionResult()",
                IbisCapabilities.ELECTIONS_STRICT + " or " + IbisCapabilities.ELECTIONS_UNRELIABLE);
        checkName(electionName, "election name");
        return view.awaitElectionResult(electionName, timeoutMillis);
    }

    /**
     * Does nothing but check the identifier: MPI is fail-stop, so a rank that died has ended the
     * whole job (mpirun stops the other ranks), and a member that can still call this has no dead
     * peer to find. A rank that hangs is not detected; {@link #assumeDead} removes it from the pool.
     */
    @Override
    public void maybeDead(IbisIdentifier ibisIdentifier) throws IOException {
        rankOf(ibisIdentifier);
        LOG.debug("maybeDead({}) ignored: under MPI a dead rank ends the job", ibisIdentifier);
    }

    /**
     * Removes the member from the pool: every member, the declared one included, gets {@code died};
     * its elections are cleared, and its later registry calls fail. The rank itself keeps running
     * (MPI cannot remove it from the job).
     */
    @Override
    public void assumeDead(IbisIdentifier ibisIdentifier) throws IOException {
        int dead = rankOf(ibisIdentifier);
        int id = nextId();
        if (dead == rank) {
            // No reply comes: the DIED about itself ends this member.
            IOException unusable = view.failure();
            if (unusable != null) {
                throw unusable;
            }
            channel.send(0, new Writer(RegistryWire.ASSUME_DEAD).writeInt(id).writeInt(dead).bytes());
            return;
        }
        call(new Writer(RegistryWire.ASSUME_DEAD).writeInt(id).writeInt(dead), id, "assumeDead(" + ibisIdentifier
                + ")").expectEnd();
    }

    /**
     * Sends {@code signal} to the given members, through rank 0; targets no longer members are
     * skipped. A null array (IPL 2.x) sends it to every current member, this one included; an
     * empty array sends nothing.
     */
    @Override
    public void signal(String signal, IbisIdentifier... ibisIdentifiers) throws IOException {
        require(signals, "signal()", IbisCapabilities.SIGNALS);
        checkName(signal, "signal");
        if (ibisIdentifiers == null) {
            // No targets on the wire means "every current member" to rank 0.
            int id = nextId();
            call(new Writer(RegistryWire.SIGNAL).writeInt(id).writeString(signal).writeInt(0), id,
                    "signal('" + signal + "')").expectEnd();
            return;
        }
        if (ibisIdentifiers.length == 0) {
            return;
        }
        if (ibisIdentifiers.length > size) {
            throw new IllegalArgumentException("too many signal targets: " + ibisIdentifiers.length + " in a pool of "
                    + size);
        }
        int id = nextId();
        Writer request = new Writer(RegistryWire.SIGNAL).writeInt(id).writeString(signal)
                .writeInt(ibisIdentifiers.length);
        for (IbisIdentifier target : ibisIdentifiers) {
            request.writeInt(rankOf(target));
        }
        call(request, id, "signal('" + signal + "')").expectEnd();
    }

    /** Every rank, in rank order, in the first call (the pool is complete when the join returns). */
    @Override
    public IbisIdentifier[] joinedIbises() {
        require(membership, "joinedIbises()", IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED + " or "
                + IbisCapabilities.MEMBERSHIP_UNRELIABLE);
        requireDowncalls("joinedIbises()");
        return view.takeJoined();
    }

    @Override
    public IbisIdentifier[] leftIbises() {
        require(membership, "leftIbises()", IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED + " or "
                + IbisCapabilities.MEMBERSHIP_UNRELIABLE);
        requireDowncalls("leftIbises()");
        return view.takeLeft();
    }

    /** Only members declared dead with {@link #assumeDead}: a rank that really dies ends the job. */
    @Override
    public IbisIdentifier[] diedIbises() {
        require(membership, "diedIbises()", IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED + " or "
                + IbisCapabilities.MEMBERSHIP_UNRELIABLE);
        requireDowncalls("diedIbises()");
        return view.takeDied();
    }

    @Override
    public String[] receivedSignals() {
        require(signals, "receivedSignals()", IbisCapabilities.SIGNALS);
        requireDowncalls("receivedSignals()");
        return view.takeSignals();
    }

    /** The job's size (mpirun -np): the pool over MPI always has a fixed size. */
    @Override
    public int getPoolSize() {
        return size;
    }

    @Override
    public String getPoolName() {
        return poolName;
    }

    /** Returns at once: the join returned only after every rank joined. */
    @Override
    public void waitUntilPoolClosed() {
        require(closedWorld, "waitUntilPoolClosed()", IbisCapabilities.CLOSED_WORLD);
    }

    /** Always true: the pool is complete when the join returns. */
    @Override
    public boolean isClosed() {
        return view.isClosed();
    }

    @Override
    public void enableEvents() {
        view.upcalls.enable();
    }

    @Override
    public void disableEvents() {
        view.upcalls.disable();
    }

    /** A pool-wide counter per name, starting at 0, kept by rank 0. */
    @Override
    public long getSequenceNumber(String name) throws IOException {
        checkName(name, "sequence name");
        int id = nextId();
        Reader reply = call(new Writer(RegistryWire.SEQUENCE).writeInt(id).writeString(name), id,
                "getSequenceNumber('" + name + "')");
        long value = reply.readLong();
        reply.expectEnd();
        return value;
    }

    @Override
    public void addTokens(String name, int count) throws IOException {
        checkName(name, "token name");
        if (count < 0) {
            throw new IllegalArgumentException("negative token count " + count);
        }
        int id = nextId();
        call(new Writer(RegistryWire.ADD_TOKENS).writeInt(id).writeString(name).writeInt(count), id,
                "addTokens('" + name + "')").expectEnd();
    }

    /**
     * Takes one of the tokens of {@code name} (kept by rank 0) if there is one, without waiting for
     * more (IPL 2.x).
     *
     * @return {@code name} when a token was taken, null when that name had none left
     */
    @Override
    public String getToken(String name) throws IOException {
        checkName(name, "token name");
        int id = nextId();
        Reader reply = call(new Writer(RegistryWire.GET_TOKEN).writeInt(id).writeString(name), id,
                "getToken('" + name + "')");
        byte taken = reply.readByte();
        reply.expectEnd();
        if (taken != 0 && taken != 1) {
            throw new IOException("malformed registry reply to getToken('" + name + "'): " + taken);
        }
        return taken == 1 ? name : null;
    }

    @Override
    public void terminate() throws IOException {
        require(termination, "terminate()", IbisCapabilities.TERMINATION);
        int id = nextId();
        call(new Writer(RegistryWire.TERMINATE).writeInt(id), id, "terminate()").expectEnd();
    }

    @Override
    public boolean hasTerminated() {
        require(termination, "hasTerminated()", IbisCapabilities.TERMINATION);
        return view.hasTerminated();
    }

    @Override
    public IbisIdentifier waitUntilTerminated() {
        require(termination, "waitUntilTerminated()", IbisCapabilities.TERMINATION);
        return view.awaitTermination();
    }

    /**
     * Leaves the pool: the others see {@code left}; this member's event delivery stops and its later
     * calls fail. Rank 0 goes on coordinating for the others. Idempotent.
     */
    @Override
    public void leave() throws IOException {
        if (!leaving.compareAndSet(false, true)) {
            return;
        }
        try {
            if (view.failure() == null) {
                int id = nextId();
                leaveRequest = id;
                call(new Writer(RegistryWire.LEAVE).writeInt(id), id, "leave()").expectEnd();
            }
        } catch (IOException e) {
            LOG.debug("rank {}: leave() could not reach rank 0: {}", rank, e.toString());
        } finally {
            memberDone = true;
            view.left(new IOException(identifier + " has left pool '" + poolName + "'"));
            endMember(new IOException(identifier + " has left pool '" + poolName + "'"));
            channel.wake();
        }
    }

    // ---------------------------------------------------------------- Manageable

    /**
     * Current values, all read-only: {@code pool}, {@code member} (the rank), {@code ranks},
     * {@code members} (current member count), {@code coordinator} (whether this rank coordinates),
     * {@code events.applied}, {@code events.delivered}, {@code events.pending}, {@code requests.sent},
     * {@code pool.terminated}, {@code usable}.
     */
    @Override
    public Map<String, String> managementProperties() {
        Map<String, String> result = new LinkedHashMap<>();
        synchronized (view.lock) {
            result.put("pool", poolName);
            result.put("member", identifier.name());
            result.put("ranks", Integer.toString(size));
            result.put("members", Integer.toString(view.memberCountLocked()));
            result.put("coordinator", Boolean.toString(coordinator != null));
            result.put("events.applied", Long.toString(view.eventsAppliedLocked()));
            result.put("events.delivered", Long.toString(view.upcalls.deliveredLocked()));
            result.put("events.pending", Integer.toString(view.upcalls.pendingLocked()));
            result.put("requests.sent", Integer.toString(requestsSent.get()));
            result.put("pool.terminated", Boolean.toString(view.terminatedLocked()));
            result.put("usable", Boolean.toString(view.usableLocked()));
        }
        return result;
    }

    /** Always fails: all registry management properties are read-only. */
    @Override
    public void setManagementProperties(Map<String, String> properties) throws NoSuchPropertyException {
        for (Map.Entry<String, String> e : properties.entrySet()) {
            setManagementProperty(e.getKey(), e.getValue());
        }
    }

    @Override
    public String getManagementProperty(String key) throws NoSuchPropertyException {
        String value = managementProperties().get(key);
        if (value == null) {
            throw new NoSuchPropertyException("the registry over MPI has no management property '" + key + "' (it has "
                    + managementProperties().keySet() + ")");
        }
        return value;
    }

    /** Always fails: all registry management properties are read-only. */
    @Override
    public void setManagementProperty(String key, String value) throws NoSuchPropertyException {
        if (managementProperties().containsKey(key)) {
            throw new NoSuchPropertyException("registry management property '" + key + "' is read-only");
        }
        throw new NoSuchPropertyException("the registry over MPI has no management property '" + key + "'");
    }

    @Override
    public void printManagementProperties(PrintStream stream) {
        for (Map.Entry<String, String> e : managementProperties().entrySet()) {
            stream.println(e.getKey() + " = " + e.getValue());
        }
    }

    @Override
    public String toString() {
        return "registry over MPI: rank " + rank + " of " + size + " in pool '" + poolName + "'";
    }
}
