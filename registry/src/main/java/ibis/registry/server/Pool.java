package ibis.registry.server;

import ibis.ipl.impl.HierarchicalLocation;
import ibis.ipl.impl.MemberIdentifier;
import ibis.registry.protocol.MalformedMessageException;
import ibis.registry.protocol.MessageBuilder;
import ibis.registry.protocol.MessageReader;
import ibis.registry.protocol.RegistryProtocol;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's state of one pool. Every change happens under this object's lock and is turned
 * into a sequence-numbered event that is queued to the members' connections before the lock is
 * released; since each connection delivers its queue in order, all members see the events in the
 * same (sequence-number) order. A reply to a request is queued after the events the request
 * caused, so when a call returns, the caller has already received those events.
 */
final class Pool {

    private static final Logger LOG = LoggerFactory.getLogger(Pool.class);

    /**
     * Bound on distinct election and counter names, and on token names that have tokens, per pool (a
     * misbehaving member cannot exhaust memory).
     */
    static final int MAX_NAMES = 1 << 16;

    private static final byte[] ALIVE = new MessageBuilder(RegistryProtocol.ALIVE).frame();

    private final CentralRegistryServer server;
    private final String name;
    private final boolean closedWorld;
    private final int size;

    /** Current members in join order, by member name. */
    private final Map<String, ServerConnection> members = new LinkedHashMap<>();
    private final Map<String, MemberIdentifier> elections = new HashMap<>();
    private final Map<String, Long> counters = new HashMap<>();
    /**
     * Per token name: how many of its tokens are left (always more than 0; a name whose last token
     * was taken is forgotten, as if it never had any).
     */
    private final Map<String, Long> tokens = new HashMap<>();

    private int joins;
    private long sequence;
    private boolean closed;
    private MemberIdentifier terminator;
    /** Set when the last member went: a join that still finds this object must create a new pool. */
    private boolean removed;

    Pool(CentralRegistryServer server, String name, boolean closedWorld, int size) {
        this.server = server;
        this.name = name;
        this.closedWorld = closedWorld;
        this.size = size;
    }

    String name() {
        return name;
    }

    synchronized boolean isRemoved() {
        return removed;
    }

    synchronized int memberCount() {
        return members.size();
    }

    synchronized boolean isMember(ServerConnection connection) {
        MemberIdentifier member = connection.member();
        return member != null && members.get(member.name()) == connection;
    }

    /**
     * Admits {@code connection} as a new member, or refuses it with a reason. Caller holds no lock.
     *
     * @return true when the member joined
     */
    synchronized boolean join(ServerConnection connection, MemberIdentifier prototype, boolean wantsClosedWorld,
            int wantedSize, long heartbeatTimeoutMillis) {
        String refusal = null;
        if (terminator != null) {
            refusal = "pool '" + name + "' has been terminated";
        } else if (wantsClosedWorld != closedWorld) {
            refusal = "pool '" + name + "' is "
                    + (closedWorld ? "a closed world of " + size + " members" : "an open world")
                    + " but this member asked for " + (wantsClosedWorld ? "a closed world" : "an open world");
        } else if (closedWorld && wantedSize != size) {
            refusal = "pool '" + name + "' is a closed world of " + size
                    + " members but this member has ibis.pool.size=" + wantedSize;
        } else if (closedWorld && joins >= size) {
            refusal = "pool '" + name + "' is closed: all " + size + " members have joined already";
        }
        if (refusal != null) {
            LOG.info("refusing join from {}: {}", connection.peer(), refusal);
            connection.refuse(refusal);
            return false;
        }
        String memberName = Integer.toString(joins++);
        MemberIdentifier member = new MemberIdentifier(memberName, name, (HierarchicalLocation) prototype.location(),
                prototype.tag(), prototype.implementationName(), prototype.implementationData());
        connection.becomeMember(this, member, heartbeatTimeoutMillis);
        members.put(memberName, connection);
        broadcastExcept(connection, RegistryProtocol.EVENT_JOINED, member, null);

        MessageBuilder welcome = new MessageBuilder(RegistryProtocol.WELCOME)
                .writeMember(member)
                .writeLong(sequence)
                .writeByte(closed ? RegistryProtocol.WELCOME_FLAG_CLOSED : 0)
                .writeInt(members.size());
        for (ServerConnection m : members.values()) {
            welcome.writeMember(m.member());
        }
        welcome.writeInt(elections.size());
        for (Map.Entry<String, MemberIdentifier> e : elections.entrySet()) {
            welcome.writeString(e.getKey()).writeString(e.getValue().name());
        }
        connection.send(welcome.frame());

        if (closedWorld && joins == size) {
            closed = true;
            broadcast(RegistryProtocol.EVENT_POOL_CLOSED, null, null);
        }
        return true;
    }

    /**
     * Removes a member that left or died and tells the others. Does nothing when it is no longer
     * a member (for example a dead member whose connection then drops).
     */
    synchronized void remove(ServerConnection connection, byte kind) {
        if (!isMember(connection)) {
            return;
        }
        MemberIdentifier member = connection.member();
        members.remove(member.name());
        elections.values().removeIf(winner -> winner.equals(member)); // the next elect() picks a new winner
        if (kind == RegistryProtocol.EVENT_DIED) {
            // Also tell the member itself (it may still be connected after assumeDead), then cut it off.
            broadcast(kind, member, null);
            connection.send(eventFrame(sequence, kind, member, null));
            connection.closeAfterFlush();
        } else {
            broadcast(kind, member, null);
        }
        if (members.isEmpty()) {
            removed = true;
            server.poolEmpty(this);
        }
    }

    /** Handles one request of a member (called by its connection's reader thread). */
    void handle(ServerConnection connection, MessageReader message) throws MalformedMessageException {
        byte type = message.type();
        switch (type) {
            case RegistryProtocol.HEARTBEAT:
                message.expectEnd();
                connection.send(ALIVE);
                return;
            case RegistryProtocol.PONG:
                message.expectEnd();
                return;
            default:
                break;
        }
        int requestId = message.readInt();
        switch (type) {
            case RegistryProtocol.LEAVE: {
                message.expectEnd();
                synchronized (this) {
                    remove(connection, RegistryProtocol.EVENT_LEFT);
                    connection.send(reply(requestId).frame());
                    connection.closeAfterFlush();
                }
                return;
            }
            case RegistryProtocol.ELECT: {
                String election = message.readString();
                message.expectEnd();
                synchronized (this) {
                    if (!checkMember(connection, requestId)) {
                        return;
                    }
                    MemberIdentifier winner = elections.get(election);
                    if (winner == null) {
                        if (elections.size() >= MAX_NAMES) {
                            connection.send(error(requestId, "too many elections in pool '" + name + "'"));
                            return;
                        }
                        winner = connection.member();
                        elections.put(election, winner);
                        broadcast(RegistryProtocol.EVENT_ELECTION, winner, election);
                    }
                    connection.send(reply(requestId).writeMember(winner).frame());
                }
                return;
            }
            case RegistryProtocol.SEQUENCE_NUMBER: {
                String counter = message.readString();
                message.expectEnd();
                synchronized (this) {
                    if (!checkMember(connection, requestId)) {
                        return;
                    }
                    Long current = counters.get(counter);
                    if (current == null && counters.size() >= MAX_NAMES) {
                        connection.send(error(requestId, "too many sequence counters in pool '" + name + "'"));
                        return;
                    }
                    long value = current == null ? 0 : current;
                    counters.put(counter, value + 1);
                    connection.send(reply(requestId).writeLong(value).frame());
                }
                return;
            }
            case RegistryProtocol.ADD_TOKENS: {
                String tokenName = message.readString();
                int count = message.readInt();
                message.expectEnd();
                synchronized (this) {
                    if (!checkMember(connection, requestId)) {
                        return;
                    }
                    if (count < 0) {
                        connection.send(error(requestId, "negative token count " + count));
                        return;
                    }
                    Long left = tokens.get(tokenName);
                    if (count > 0) {
                        if (left == null && tokens.size() >= MAX_NAMES) {
                            connection.send(error(requestId, "too many token names in pool '" + name + "' (at most "
                                    + MAX_NAMES + ")"));
                            return;
                        }
                        long now = left == null ? 0 : left;
                        if (now > Long.MAX_VALUE - count) {
                            connection.send(error(requestId, "too many tokens '" + tokenName + "' in pool '" + name
                                    + "' (" + now + " left, " + count + " more would overflow)"));
                            return;
                        }
                        tokens.put(tokenName, now + count);
                    }
                    connection.send(reply(requestId).frame());
                }
                return;
            }
            case RegistryProtocol.GET_TOKEN: {
                String tokenName = message.readString();
                message.expectEnd();
                synchronized (this) {
                    if (!checkMember(connection, requestId)) {
                        return;
                    }
                    // Answered at once (IPL 2.x): a token was taken, or there was none.
                    Long left = tokens.get(tokenName);
                    boolean taken = left != null;
                    if (taken && left == 1) {
                        tokens.remove(tokenName);
                    } else if (taken) {
                        tokens.put(tokenName, left - 1);
                    }
                    connection.send(reply(requestId).writeBoolean(taken).frame());
                }
                return;
            }
            case RegistryProtocol.SIGNAL: {
                String signal = message.readString();
                int n = message.readCount(RegistryProtocol.MAX_LIST_LENGTH, 2);
                Set<String> targets = new LinkedHashSet<>();
                for (int i = 0; i < n; i++) {
                    targets.add(message.readString());
                }
                message.expectEnd();
                synchronized (this) {
                    if (!checkMember(connection, requestId)) {
                        return;
                    }
                    if (targets.isEmpty()) {
                        // No targets: every current member, the sender included (IPL 2.x signal(s, null)).
                        targets.addAll(members.keySet());
                    }
                    sequence++;
                    byte[] frame = eventFrame(sequence, RegistryProtocol.EVENT_SIGNAL, connection.member(), signal);
                    for (String target : targets) {
                        ServerConnection c = members.get(target);
                        if (c != null) {
                            c.send(frame);
                        } else {
                            LOG.debug("pool {}: signal '{}' for {} who is not a member (any more)", name, signal,
                                    target);
                        }
                    }
                    server.fireEvent(this, sequence, "SIGNAL '" + signal + "' from " + connection.member() + " to "
                            + targets);
                    connection.send(reply(requestId).frame());
                }
                return;
            }
            case RegistryProtocol.MAYBE_DEAD:
            case RegistryProtocol.ASSUME_DEAD: {
                String target = message.readString();
                message.expectEnd();
                synchronized (this) {
                    if (!checkMember(connection, requestId)) {
                        return;
                    }
                    ServerConnection suspect = members.get(target);
                    if (suspect != null) {
                        if (type == RegistryProtocol.ASSUME_DEAD) {
                            LOG.info("pool {}: {} declares {} dead", name, connection.member(), suspect.member());
                            remove(suspect, RegistryProtocol.EVENT_DIED);
                        } else if (suspect.isClosing()) {
                            remove(suspect, RegistryProtocol.EVENT_DIED);
                        } else {
                            LOG.debug("pool {}: {} suspects {}; pinging it", name, connection.member(),
                                    suspect.member());
                            suspect.suspect(server.pingTimeoutNanos());
                        }
                    }
                    connection.send(reply(requestId).frame());
                }
                return;
            }
            case RegistryProtocol.TERMINATE: {
                message.expectEnd();
                synchronized (this) {
                    if (!checkMember(connection, requestId)) {
                        return;
                    }
                    if (terminator == null) {
                        terminator = connection.member();
                        if (!closed) {
                            // IPL 2.x: terminating also closes the pool (nobody joins any more), first.
                            closed = true;
                            broadcast(RegistryProtocol.EVENT_POOL_CLOSED, null, null);
                        }
                        broadcast(RegistryProtocol.EVENT_POOL_TERMINATED, terminator, null);
                    }
                    connection.send(reply(requestId).frame());
                }
                return;
            }
            default:
                throw new MalformedMessageException("unexpected message from a member: "
                        + RegistryProtocol.messageName(type));
        }
    }

    private boolean checkMember(ServerConnection connection, int requestId) {
        if (isMember(connection)) {
            return true;
        }
        connection.send(error(requestId, connection.member() + " is no longer a member of pool '" + name + "'"));
        return false;
    }

    private static MessageBuilder reply(int requestId) {
        return new MessageBuilder(RegistryProtocol.REPLY).writeInt(requestId);
    }

    private static byte[] error(int requestId, String reason) {
        return new MessageBuilder(RegistryProtocol.ERROR).writeInt(requestId).writeString(reason).frame();
    }

    private static byte[] eventFrame(long seq, byte kind, MemberIdentifier member, String text) {
        MessageBuilder event = new MessageBuilder(RegistryProtocol.EVENT).writeLong(seq).writeByte(kind);
        if (text != null) {
            event.writeString(text);
        }
        if (member != null) {
            event.writeMember(member);
        }
        return event.frame();
    }

    /** Assigns the next sequence number and queues the event to every member. */
    private void broadcast(byte kind, MemberIdentifier member, String text) {
        broadcastExcept(null, kind, member, text);
    }

    private void broadcastExcept(ServerConnection except, byte kind, MemberIdentifier member, String text) {
        sequence++;
        byte[] frame = eventFrame(sequence, kind, member, text);
        for (ServerConnection c : members.values()) {
            if (c != except) {
                c.send(frame);
            }
        }
        server.fireEvent(this, sequence, RegistryProtocol.eventName(kind)
                + (text == null ? "" : " '" + text + "'") + (member == null ? "" : " " + member));
    }

    /** Members whose heartbeat or ping deadline has passed (for the reaper). */
    synchronized List<ServerConnection> overdueMembers(long now) {
        List<ServerConnection> result = new ArrayList<>();
        for (Iterator<ServerConnection> it = members.values().iterator(); it.hasNext();) {
            ServerConnection c = it.next();
            long ping = c.pingDeadline();
            if (now - c.lastHeard() > c.heartbeatTimeoutNanos() || (ping != 0 && now - ping > 0)) {
                result.add(c);
            }
        }
        return result;
    }

    /** The member's current members' names and the event counter, for logs and management. */
    synchronized String describe() {
        return "pool '" + name + "': " + members.size() + " members " + members.keySet() + ", " + sequence
                + " events" + (closedWorld ? ", closed world of " + size : ", open world") + (closed ? " (closed)" : "")
                + (terminator != null ? ", terminated by " + terminator : "");
    }
}
