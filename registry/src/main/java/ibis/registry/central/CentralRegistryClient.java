package ibis.registry.central;

import static ibis.registry.central.RegistryConnection.request;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.IbisRuntimeException;
import ibis.ipl.NoSuchPropertyException;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.MemberIdentifier;
import ibis.ipl.impl.RegistryClient;
import ibis.registry.protocol.MalformedMessageException;
import ibis.registry.protocol.MessageBuilder;
import ibis.registry.protocol.MessageReader;
import ibis.registry.protocol.RegistryProtocol;
import ibis.registry.protocol.ServerAddress;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pool member's connection to the central registry server; the {@link ibis.ipl.Registry} of an
 * Ibis instance. Created by {@link CentralRegistryProvider#join}.
 *
 * <p>How it works: one TCP connection to the server ({@link RegistryConnection}). A reader thread
 * receives the pool's events (in the server's total order) and the replies to this member's
 * requests; each event is applied to the local view ({@link PoolView}: members, election results,
 * closed, terminated) at once, and, when a {@link RegistryEventHandler} was given, queued for it.
 * A separate delivery thread ({@link EventDelivery}) passes queued events to the handler one at a
 * time, in order, while events are enabled. A heartbeat thread tells the server this member is
 * alive; the server answers each heartbeat, so a server that stays silent for the heartbeat timeout
 * is treated as lost, like a closed connection. This class is the thin facade over these parts.
 *
 * <p>Semantics chosen where the IPL leaves room (also in {@code registry/README.md}):
 * <ul>
 * <li>Member names are the join numbers "0", "1", ... of the pool. A new member's view starts with
 *     the current members as {@code joined} events and the decided elections as
 *     {@code electionResult} events (before its own {@code joined}, which comes last), followed by
 *     later events only.</li>
 * <li>The downcall variants ({@link #joinedIbises()}, {@link #leftIbises()}, {@link #diedIbises()},
 *     {@link #receivedSignals()}) return what arrived since their previous call and forget it; they
 *     are only available when no event handler was given (with a handler, events go there).</li>
 * <li>Elections (either elections capability): the first {@code elect()} wins, every later caller
 *     gets that winner; when the winner leaves or dies the result is cleared and the next
 *     {@code elect()} call wins. {@code getElectionResult(name, 0)} waits forever;
 *     with a positive timeout it returns null when no winner appeared in time; with a negative one
 *     (IPL 2.x: -1) it does not wait.</li>
 * <li>{@code signal(s, (IbisIdentifier[]) null)} signals every current member, the sender included.</li>
 * <li>{@link #getPoolSize()}: {@code ibis.pool.size} in a closed world, else -1 (no fixed size).</li>
 * <li>{@link #getSequenceNumber(String)}: a pool-wide counter per name, starting at 0.</li>
 * <li>{@link #getToken(String)} does not wait (IPL 2.x): it returns the token name itself when it
 *     took one of that name's tokens, else null at once. Tokens have no identity of their own; the
 *     server keeps a count per name.</li>
 * <li>A call interrupted while it waits for the server's answer throws {@link InterruptedIOException};
 *     the connection stays usable, and the late answer is discarded (what the request did at the
 *     server stays done: an interrupted {@code getToken} may have taken a token).</li>
 * <li>When the server connection is lost, that is logged once; later calls throw an
 *     {@link IOException} (the waiting methods without {@code throws IOException} throw an
 *     {@link IbisRuntimeException}), and nothing hangs.</li>
 * </ul>
 */
public final class CentralRegistryClient implements RegistryClient {

    private static final Logger LOG = LoggerFactory.getLogger(CentralRegistryClient.class);

    private final MemberIdentifier identifier;
    private final ServerAddress server;
    private final String poolName;
    private final int poolSize;
    private final boolean closedWorld;
    private final boolean elections;
    private final boolean signals;
    private final boolean termination;
    private final boolean membership;
    private final RegistryEventHandler handler;

    /** Members, events, elections: the pool as this member sees it. */
    private final PoolView view;
    /** The connection to the server: requests, the reader thread, heartbeats. */
    private final RegistryConnection connection;

    private CentralRegistryClient(ClientSettings settings, Socket socket, InputStream in, OutputStream out,
            MessageReader welcome, RegistryEventHandler handler) throws MalformedMessageException {
        this.server = settings.server;
        this.poolName = settings.poolName;
        this.poolSize = settings.poolSize;
        this.closedWorld = settings.closedWorld;
        this.elections = settings.elections;
        this.signals = settings.signals;
        this.termination = settings.termination;
        this.membership = settings.membership;
        this.handler = handler;
        this.identifier = welcome.readMember();
        this.view = new PoolView(identifier, poolName, server, handler);
        view.applyWelcome(welcome);
        this.connection = new RegistryConnection(settings, identifier, view, socket, in, out);
    }

    /**
     * Joins the pool named by {@code ibis.pool.name} at the server named by
     * {@code ibis.server.address}; see {@link ibis.ipl.impl.RegistryProvider#join}.
     *
     * @throws IbisConfigurationException when a required property is missing or invalid
     * @throws IOException when the server cannot be reached within {@code ibis.registry.connect.timeout}
     *         or refuses the join (the message says why)
     */
    public static CentralRegistryClient join(IbisCapabilities capabilities, RegistryEventHandler handler,
            Properties properties, String implementationName, byte[] implementationData, byte[] tag)
            throws IOException {
        ClientSettings settings = new ClientSettings(capabilities, properties);
        MemberIdentifier prototype = new MemberIdentifier("", settings.poolName, settings.location, tag,
                implementationName == null ? "" : implementationName, implementationData);
        byte[] joinFrame;
        try {
            joinFrame = new MessageBuilder(RegistryProtocol.JOIN)
                    .writeMember(prototype)
                    .writeByte(settings.closedWorld ? RegistryProtocol.JOIN_FLAG_CLOSED_WORLD : 0)
                    .writeInt(settings.poolSize)
                    .writeInt(settings.heartbeatInterval)
                    .writeInt(settings.heartbeatTimeout)
                    .frame();
        } catch (IllegalArgumentException e) {
            throw new IbisConfigurationException("cannot join pool '" + settings.poolName + "': " + e.getMessage(), e);
        }
        if (joinFrame.length - 4 > RegistryProtocol.MAX_CLIENT_FRAME) {
            throw new IbisConfigurationException("cannot join pool '" + settings.poolName + "': tag and contact data"
                    + " are too large (" + joinFrame.length + " bytes)");
        }

        Socket socket = RegistryConnection.connect(settings);
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(settings.connectTimeout);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            MessageReader answer = RegistryConnection.handshake(settings, in, out, joinFrame);
            socket.setSoTimeout(0);
            CentralRegistryClient client = new CentralRegistryClient(settings, socket, in, out, answer, handler);
            client.start();
            LOG.debug("joined pool '{}' as {} (registry server {})", settings.poolName, client.identifier,
                    settings.server);
            return client;
        } catch (SocketTimeoutException e) {
            RegistryConnection.closeQuietly(socket);
            throw new IOException("registry server at " + settings.server + " did not answer the join of pool '"
                    + settings.poolName + "' within " + settings.connectTimeout + " ms", e);
        } catch (IOException | RuntimeException e) {
            RegistryConnection.closeQuietly(socket);
            if (e instanceof MalformedMessageException || e instanceof EOFException) {
                throw new IOException("joining pool '" + settings.poolName + "' at registry server " + settings.server
                        + " failed: " + e.getMessage(), e);
            }
            throw e;
        }
    }

    private void start() {
        connection.startReader();
        view.events.start();
    }

    private String memberName(IbisIdentifier member) throws IOException {
        if (member == null) {
            throw new NullPointerException("member identifier is null");
        }
        if (!poolName.equals(member.poolName())) {
            throw new IOException(
                    member + " belongs to pool '" + member.poolName() + "', not to pool '" + poolName + "'");
        }
        return member.name();
    }

    private static String checkName(String name, String what) {
        if (name == null) {
            throw new NullPointerException(what + " is null");
        }
        return name;
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

    // ---------------------------------------------------------------- Registry

    @Override
    public MemberIdentifier identifier() {
        return identifier;
    }

    @Override
    public IbisIdentifier elect(String electionName) throws IOException {
        require(elections, "elect()",
                IbisCapabilities.ELECTIONS_STRICT + " or " + IbisCapabilities.ELECTIONS_UNRELIABLE);
        checkName(electionName, "election name");
        int id = connection.nextRequestId();
        MessageReader reply = connection.call(id, request(RegistryProtocol.ELECT, id).writeString(electionName));
        MemberIdentifier winner = reply.readMember();
        reply.expectEnd();
        return winner;
    }

    /** Same as {@link #elect(String)}: the central server decides at once, so there is nothing to wait for. */
    @Override
    public IbisIdentifier elect(String electionName, long timeoutMillis) throws IOException {
        return elect(electionName);
    }

    @Override
    public IbisIdentifier getElectionResult(String electionName) throws IOException {
        return getElectionResult(electionName, 0);
    }

    /**
     * Waits until the election has a winner; 0 waits forever, a positive timeout returns null when
     * no winner appeared in time, and a negative one (IPL 2.x: -1) does not wait: it returns the
     * winner known now, or null.
     */
    @Override
    public IbisIdentifier getElectionResult(String electionName, long timeoutMillis) throws IOException {
        require(elections, "getElectionResult()",
                IbisCapabilities.ELECTIONS_STRICT + " or " + IbisCapabilities.ELECTIONS_UNRELIABLE);
        checkName(electionName, "election name");
        return view.awaitElectionResult(electionName, timeoutMillis);
    }

    /**
     * Asks the server to check the member: it is pinged and declared dead unless it answers within
     * {@code ibis.registry.server.ping.timeout}, or at once when its connection is already gone.
     * Returns without waiting for the verdict.
     */
    @Override
    public void maybeDead(IbisIdentifier ibisIdentifier) throws IOException {
        int id = connection.nextRequestId();
        connection.call(id, request(RegistryProtocol.MAYBE_DEAD, id).writeString(memberName(ibisIdentifier)))
                .expectEnd();
    }

    /** Has the server declare the member dead at once (everybody, the member included, sees {@code died}). */
    @Override
    public void assumeDead(IbisIdentifier ibisIdentifier) throws IOException {
        int id = connection.nextRequestId();
        connection.call(id, request(RegistryProtocol.ASSUME_DEAD, id).writeString(memberName(ibisIdentifier)))
                .expectEnd();
    }

    /**
     * Sends {@code signal} to the given members; targets that are no longer members are skipped.
     * A null array (IPL 2.x) sends it to every member of the pool at that point of the event
     * order, this one included; an empty array sends nothing.
     */
    @Override
    public void signal(String signal, IbisIdentifier... ibisIdentifiers) throws IOException {
        require(signals, "signal()", IbisCapabilities.SIGNALS);
        checkName(signal, "signal");
        if (ibisIdentifiers == null) {
            // No targets on the wire means "every current member": the server picks them under its
            // lock, so the signal reaches exactly the members of that moment of the total order.
            int id = connection.nextRequestId();
            connection.call(id, request(RegistryProtocol.SIGNAL, id).writeString(signal).writeInt(0)).expectEnd();
            return;
        }
        if (ibisIdentifiers.length == 0) {
            return;
        }
        if (ibisIdentifiers.length > RegistryProtocol.MAX_LIST_LENGTH) {
            throw new IllegalArgumentException("too many signal targets: " + ibisIdentifiers.length);
        }
        int id = connection.nextRequestId();
        MessageBuilder request = request(RegistryProtocol.SIGNAL, id).writeString(signal)
                .writeInt(ibisIdentifiers.length);
        for (IbisIdentifier target : ibisIdentifiers) {
            request.writeString(memberName(target));
        }
        connection.call(id, request).expectEnd();
    }

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

    @Override
    public IbisIdentifier[] diedIbises() {
        require(membership, "diedIbises()", IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED + " or "
                + IbisCapabilities.MEMBERSHIP_UNRELIABLE);
        requireDowncalls("diedIbises()");
        return view.takeDied();
    }

    /** The signals received since the previous call (and forgets them). */
    @Override
    public String[] receivedSignals() {
        require(signals, "receivedSignals()", IbisCapabilities.SIGNALS);
        requireDowncalls("receivedSignals()");
        return view.takeSignals();
    }

    /** {@code ibis.pool.size} in a closed world; -1 (the pool has no fixed size) in an open world. */
    @Override
    public int getPoolSize() {
        return closedWorld ? poolSize : -1;
    }

    @Override
    public String getPoolName() {
        return poolName;
    }

    /**
     * Waits until the pool is closed: all {@code ibis.pool.size} members have joined, or a member
     * terminated the pool first. Like IPL 2.x, an open world has nothing to wait for, terminated or
     * not.
     *
     * @throws IbisConfigurationException without the {@code closed.world} capability
     * @throws IbisRuntimeException when the registry connection is lost first
     */
    @Override
    public void waitUntilPoolClosed() {
        require(closedWorld, "waitUntilPoolClosed()", IbisCapabilities.CLOSED_WORLD);
        view.awaitPoolClosed();
    }

    /**
     * True once the pool is closed: a closed-world pool when it is complete, and any pool once it was
     * terminated (IPL 2.x: terminating closes the pool first).
     */
    @Override
    public boolean isClosed() {
        return view.isClosed();
    }

    @Override
    public void enableEvents() {
        view.events.enable();
    }

    /**
     * Stops delivery to the handler; later events are queued until {@link #enableEvents()}. An
     * upcall already running finishes.
     */
    @Override
    public void disableEvents() {
        view.events.disable();
    }

    @Override
    public long getSequenceNumber(String name) throws IOException {
        checkName(name, "sequence name");
        int id = connection.nextRequestId();
        MessageReader reply = connection.call(id, request(RegistryProtocol.SEQUENCE_NUMBER, id).writeString(name));
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
        int id = connection.nextRequestId();
        connection.call(id, request(RegistryProtocol.ADD_TOKENS, id).writeString(name).writeInt(count)).expectEnd();
    }

    /**
     * Takes one of the tokens of {@code name} if there is one, without waiting for more (IPL 2.x).
     *
     * @return {@code name} when a token was taken, null when that name had none left
     * @throws IOException when the registry connection is lost, or this member left or was declared
     *         dead
     */
    @Override
    public String getToken(String name) throws IOException {
        checkName(name, "token name");
        int id = connection.nextRequestId();
        MessageReader reply = connection.call(id, request(RegistryProtocol.GET_TOKEN, id).writeString(name));
        boolean taken = reply.readBoolean();
        reply.expectEnd();
        return taken ? name : null;
    }

    /**
     * Terminates the pool. The first terminate of a pool that is not closed yet also closes it, as in
     * IPL 2.x: every member gets {@code poolClosed()} and then {@code poolTerminated(this member)}, in
     * the pool's event order, and later joins are refused. A later terminate changes nothing.
     */
    @Override
    public void terminate() throws IOException {
        require(termination, "terminate()", IbisCapabilities.TERMINATION);
        int id = connection.nextRequestId();
        connection.call(id, request(RegistryProtocol.TERMINATE, id)).expectEnd();
    }

    @Override
    public boolean hasTerminated() {
        require(termination, "hasTerminated()", IbisCapabilities.TERMINATION);
        return view.hasTerminated();
    }

    /**
     * Waits until some member terminated the pool and returns that member.
     *
     * @throws IbisRuntimeException when the registry connection is lost first
     */
    @Override
    public IbisIdentifier waitUntilTerminated() {
        require(termination, "waitUntilTerminated()", IbisCapabilities.TERMINATION);
        return view.awaitTermination();
    }

    /**
     * Leaves the pool: the others see {@code left}; then heartbeats and event delivery stop and
     * the connection is closed. Idempotent; when the registry is already unreachable it only
     * releases the local resources.
     */
    @Override
    public void leave() throws IOException {
        if (!view.startLeaving()) {
            return;
        }
        try {
            if (view.usable() == null) {
                int id = connection.nextRequestId();
                connection.call(id, request(RegistryProtocol.LEAVE, id)).expectEnd();
            }
        } catch (IOException e) {
            LOG.debug("leave of {} could not reach the registry server", identifier, e);
        } finally {
            view.left();
            connection.close();
        }
    }

    /** Test hook: stop heartbeats and ping answers while keeping the connection open (a hung member). */
    void simulateHang() {
        connection.simulateHang();
    }

    /**
     * Test hook: waits until at least {@code count} requests were written to the server (the
     * {@code requests.sent} management property).
     */
    void awaitRequestsSent(long count) throws InterruptedException {
        connection.awaitRequestsSent(count);
    }

    // ---------------------------------------------------------------- Manageable

    /**
     * Current values: {@code pool}, {@code member}, {@code server}, {@code connected},
     * {@code members} (current member count), {@code events.received}, {@code events.delivered}
     * (handler upcalls done), {@code events.pending}, {@code heartbeats.sent}, {@code requests.sent},
     * {@code pool.closed}, {@code pool.terminated}. All are read-only.
     */
    @Override
    public Map<String, String> managementProperties() {
        Map<String, String> result = new LinkedHashMap<>();
        synchronized (view.lock) {
            result.put("pool", poolName);
            result.put("member", identifier.name());
            result.put("server", server.toString());
            result.put("connected", Boolean.toString(view.connectedLocked()));
            result.put("members", Integer.toString(view.memberCountLocked()));
            result.put("events.received", Long.toString(view.eventsReceived()));
            result.put("events.delivered", Long.toString(view.events.delivered()));
            result.put("events.pending", Integer.toString(view.events.pendingLocked()));
            result.put("heartbeats.sent", Long.toString(connection.heartbeatsSent()));
            result.put("requests.sent", Long.toString(connection.requestsSent()));
            result.put("pool.closed", Boolean.toString(view.poolClosedLocked()));
            result.put("pool.terminated", Boolean.toString(view.terminatedLocked()));
        }
        return result;
    }

    /** Always fails: all registry management properties are read-only. */
    @Override
    public void setManagementProperties(Map<String, String> properties) throws NoSuchPropertyException {
        for (String key : properties.keySet()) {
            setManagementProperty(key, properties.get(key));
        }
    }

    @Override
    public String getManagementProperty(String key) throws NoSuchPropertyException {
        String value = managementProperties().get(key);
        if (value == null) {
            throw new NoSuchPropertyException("the registry has no management property '" + key + "' (it has "
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
        throw new NoSuchPropertyException("the registry has no management property '" + key + "'");
    }

    @Override
    public void printManagementProperties(PrintStream stream) {
        for (Map.Entry<String, String> e : managementProperties().entrySet()) {
            stream.println(e.getKey() + " = " + e.getValue());
        }
    }

    @Override
    public String toString() {
        return "central registry client " + identifier + " of pool '" + poolName + "' (server " + server + ")";
    }

}
