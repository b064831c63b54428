package ibis.registry.central;

import ibis.ipl.IbisIdentifier;
import ibis.ipl.IbisRuntimeException;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.MemberIdentifier;
import ibis.registry.protocol.MalformedMessageException;
import ibis.registry.protocol.MessageReader;
import ibis.registry.protocol.RegistryProtocol;
import ibis.registry.protocol.ServerAddress;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A member's view of its pool, as the server's welcome and events (in the server's total order)
 * built it: the members, the election results, whether the pool is closed or terminated, the
 * events not yet fetched by the downcall variants, and why the registry can no longer be used.
 * Each event is applied and queued for the {@link EventDelivery} in one step, under {@link #lock},
 * on which the waiting calls wait.
 */
final class PoolView {

    private static final Logger LOG = LoggerFactory.getLogger(CentralRegistryClient.class);

    /** Guards the view below and the event queue; waiters wait on it. */
    final Object lock = new Object();
    /** The handler's upcalls. */
    final EventDelivery events;

    private final MemberIdentifier identifier;
    private final String poolName;
    private final ServerAddress server;
    /** No handler: events are kept for the downcall variants. */
    private final boolean downcalls;

    private final Map<String, MemberIdentifier> members = new LinkedHashMap<>();
    private final Map<String, MemberIdentifier> electionResults = new HashMap<>();
    private boolean poolClosed;
    private MemberIdentifier terminator;
    private long lastSequence;
    /** Set when this member can no longer talk to the registry (left, lost, declared dead). */
    private IOException failure;
    private boolean declaredDead;
    private volatile boolean leaving;
    private final List<IbisIdentifier> newJoined = new ArrayList<>();
    private final List<IbisIdentifier> newLeft = new ArrayList<>();
    private final List<IbisIdentifier> newDied = new ArrayList<>();
    private final List<String> newSignals = new ArrayList<>();

    private final AtomicLong eventsReceived = new AtomicLong();

    PoolView(MemberIdentifier identifier, String poolName, ServerAddress server, RegistryEventHandler handler) {
        this.identifier = identifier;
        this.poolName = poolName;
        this.server = server;
        this.downcalls = handler == null;
        this.events = new EventDelivery(lock, handler, identifier);
    }

    /**
     * Applies the rest of the server's WELCOME (after the member's own identifier): the sequence
     * number, the closed flag, the current members and election results. The handler gets them as
     * the pool's history up to this member's join: {@code joined} for each earlier member, one
     * {@code electionResult} per decided election (as IPL 2.x did, so a member that joins after an
     * election still learns its winner by upcall), then {@code joined} for itself.
     */
    void applyWelcome(MessageReader welcome) throws MalformedMessageException {
        synchronized (lock) {
            lastSequence = welcome.readLong();
            poolClosed = (welcome.readByte() & RegistryProtocol.WELCOME_FLAG_CLOSED) != 0;
            int n = welcome.readCount(RegistryProtocol.MAX_LIST_LENGTH, 8);
            List<MemberIdentifier> joinOrder = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                MemberIdentifier m = welcome.readMember();
                members.put(m.name(), m);
                joinOrder.add(m);
            }
            int e = welcome.readCount(RegistryProtocol.MAX_LIST_LENGTH, 4);
            Map<String, MemberIdentifier> decided = new LinkedHashMap<>();
            for (int i = 0; i < e; i++) {
                String election = welcome.readString();
                MemberIdentifier winner = members.get(welcome.readString());
                if (winner == null) {
                    throw new MalformedMessageException("welcome names an election winner that is not a member");
                }
                decided.put(election, winner);
            }
            welcome.expectEnd();
            if (joinOrder.isEmpty() || !identifier.equals(joinOrder.get(joinOrder.size() - 1))) {
                throw new MalformedMessageException("welcome does not list the new member itself, last");
            }
            for (MemberIdentifier m : joinOrder.subList(0, joinOrder.size() - 1)) {
                memberJoined(m);
            }
            for (Map.Entry<String, MemberIdentifier> d : decided.entrySet()) {
                String election = d.getKey();
                MemberIdentifier winner = d.getValue();
                electionResults.put(election, winner);
                events.enqueueLocked(h -> h.electionResult(election, winner));
            }
            memberJoined(identifier);
            if (poolClosed) {
                events.enqueueLocked(h -> h.poolClosed());
            }
        }
    }

    /** Applies one EVENT from the server. */
    void applyEvent(MessageReader event) throws MalformedMessageException {
        long seq = event.readLong();
        int kind = event.readByte();
        String text = null;
        if (kind == RegistryProtocol.EVENT_ELECTION || kind == RegistryProtocol.EVENT_SIGNAL) {
            text = event.readString();
        }
        MemberIdentifier member = null;
        if (kind != RegistryProtocol.EVENT_POOL_CLOSED) {
            member = event.readMember();
        }
        event.expectEnd();
        eventsReceived.incrementAndGet();
        synchronized (lock) {
            if (seq <= lastSequence) {
                throw new MalformedMessageException("event sequence number " + seq + " after " + lastSequence);
            }
            lastSequence = seq;
            final MemberIdentifier m = member;
            final String t = text;
            switch (kind) {
                case RegistryProtocol.EVENT_JOINED:
                    members.put(m.name(), m);
                    memberJoined(m);
                    break;
                case RegistryProtocol.EVENT_LEFT:
                case RegistryProtocol.EVENT_DIED:
                    members.remove(m.name());
                    electionResults.values().removeIf(winner -> winner.equals(m));
                    if (kind == RegistryProtocol.EVENT_LEFT) {
                        if (downcalls) {
                            newLeft.add(m);
                        }
                        events.enqueueLocked(h -> h.left(m));
                    } else {
                        if (m.equals(identifier)) {
                            declaredDead = true;
                            LOG.debug("the registry declared this member ({}) dead", identifier);
                        }
                        if (downcalls) {
                            newDied.add(m);
                        }
                        events.enqueueLocked(h -> h.died(m));
                    }
                    break;
                case RegistryProtocol.EVENT_ELECTION:
                    electionResults.put(t, m);
                    events.enqueueLocked(h -> h.electionResult(t, m));
                    break;
                case RegistryProtocol.EVENT_SIGNAL:
                    if (downcalls) {
                        newSignals.add(t);
                    }
                    events.enqueueLocked(h -> h.gotSignal(t, m));
                    break;
                case RegistryProtocol.EVENT_POOL_CLOSED:
                    poolClosed = true;
                    events.enqueueLocked(h -> h.poolClosed());
                    break;
                case RegistryProtocol.EVENT_POOL_TERMINATED:
                    terminator = m;
                    events.enqueueLocked(h -> h.poolTerminated(m));
                    break;
                default:
                    throw new MalformedMessageException("unknown event kind " + kind);
            }
            lock.notifyAll();
        }
    }

    /** Caller holds {@link #lock}. */
    private void memberJoined(MemberIdentifier m) {
        if (downcalls) {
            newJoined.add(m);
        }
        events.enqueueLocked(h -> h.joined(m));
    }

    // ---------------------------------------------------------------- failure and leaving

    /**
     * The connection to the server is gone: records why (once; logged unless the member is
     * leaving) and wakes every waiter.
     *
     * @return why the registry can no longer be used
     */
    IOException connectionLost(IOException cause) {
        synchronized (lock) {
            if (failure == null) {
                if (leaving) {
                    failure = new IOException(identifier + " has left pool '" + poolName + "'", cause);
                } else if (declaredDead) {
                    failure = new IOException("the registry declared this member (" + identifier + " of pool '"
                            + poolName + "') dead", cause);
                } else {
                    failure = new IOException("lost the connection to the Ibis registry server at " + server + ": "
                            + cause.getMessage(), cause);
                }
                if (!leaving) {
                    LOG.warn("{}: {}", identifier, failure.getMessage());
                }
                events.endedLocked();
            }
            lock.notifyAll();
            return failure;
        }
    }

    /** @return false when the member is leaving already */
    boolean startLeaving() {
        synchronized (lock) {
            if (leaving) {
                return false;
            }
            leaving = true;
            return true;
        }
    }

    /** The member has left: the registry can no longer be used, and event delivery stops. */
    void left() {
        synchronized (lock) {
            if (failure == null) {
                failure = new IOException(identifier + " has left pool '" + poolName + "'");
                events.endedLocked();
            }
            events.stopLocked();
            lock.notifyAll();
        }
    }

    /** Returns the exception to throw when the registry cannot be used any more, or null. */
    IOException usable() {
        synchronized (lock) {
            return failure == null ? null : new IOException(failure.getMessage(), failure);
        }
    }

    // ---------------------------------------------------------------- queries and waits

    /**
     * Waits until the election has a winner; 0 waits forever, a positive timeout returns null when
     * no winner appeared in time, a negative one returns null at once when there is no winner yet.
     */
    MemberIdentifier awaitElectionResult(String electionName, long timeoutMillis) throws IOException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        synchronized (lock) {
            while (true) {
                MemberIdentifier winner = electionResults.get(electionName);
                if (winner != null) {
                    return winner;
                }
                if (failure != null) {
                    throw new IOException(failure.getMessage(), failure);
                }
                if (timeoutMillis < 0) {
                    return null;
                }
                long wait = timeoutMillis == 0 ? 0 : (deadline - System.nanoTime()) / 1_000_000L;
                if (timeoutMillis != 0 && wait <= 0) {
                    return null;
                }
                try {
                    lock.wait(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting for election '" + electionName + "'");
                }
            }
        }
    }

    IbisIdentifier[] takeJoined() {
        return take(newJoined);
    }

    IbisIdentifier[] takeLeft() {
        return take(newLeft);
    }

    IbisIdentifier[] takeDied() {
        return take(newDied);
    }

    private IbisIdentifier[] take(List<IbisIdentifier> list) {
        synchronized (lock) {
            IbisIdentifier[] result = list.toArray(new IbisIdentifier[0]);
            list.clear();
            return result;
        }
    }

    String[] takeSignals() {
        synchronized (lock) {
            String[] result = newSignals.toArray(new String[0]);
            newSignals.clear();
            return result;
        }
    }

    /** Waits until the pool is closed: a closed world complete, or the pool terminated. */
    void awaitPoolClosed() {
        synchronized (lock) {
            while (!poolClosed) {
                if (failure != null) {
                    throw new IbisRuntimeException("pool '" + poolName + "' did not close: " + failure.getMessage(),
                            failure);
                }
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IbisRuntimeException("interrupted while waiting for pool '" + poolName + "' to close", e);
                }
            }
        }
    }

    boolean isClosed() {
        synchronized (lock) {
            return poolClosed;
        }
    }

    boolean hasTerminated() {
        synchronized (lock) {
            return terminator != null;
        }
    }

    /** Waits until some member terminated the pool and returns that member. */
    MemberIdentifier awaitTermination() {
        synchronized (lock) {
            while (terminator == null) {
                if (failure != null) {
                    throw new IbisRuntimeException(
                            "pool '" + poolName + "' was not terminated: " + failure.getMessage(), failure);
                }
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IbisRuntimeException("interrupted while waiting for pool '" + poolName
                            + "' to terminate", e);
                }
            }
            return terminator;
        }
    }

    // ---------------------------------------------------------------- management (caller holds the lock)

    boolean connectedLocked() {
        return failure == null;
    }

    int memberCountLocked() {
        return members.size();
    }

    long eventsReceived() {
        return eventsReceived.get();
    }

    boolean poolClosedLocked() {
        return poolClosed;
    }

    boolean terminatedLocked() {
        return terminator != null;
    }
}
