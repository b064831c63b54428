package ibis.impl.mpi.registry;

import ibis.ipl.IbisIdentifier;
import ibis.ipl.IbisRuntimeException;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.MemberIdentifier;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One member's view of the pool, built from the coordinator's events in the order rank 0 sent them
 * (the same order for every member): the members by rank, the election results, the terminator,
 * the events not yet fetched by the downcall variants, and why the registry can no longer be used.
 * Each event is applied and queued for the handler in one step under {@link #lock}, on which the
 * waiting calls wait.
 */
final class MemberView {

    /** Guards everything below and the upcall queue. */
    final Object lock = new Object();
    final EventUpcalls upcalls;

    private final String poolName;
    private final int rank;
    private final boolean downcalls;

    private final Map<Integer, MemberIdentifier> members = new TreeMap<>();
    /** Every member ever welcomed, by rank (events name ranks). */
    private final Map<Integer, MemberIdentifier> everyone = new HashMap<>();
    private final Map<String, MemberIdentifier> elections = new HashMap<>();
    private MemberIdentifier terminator;
    private boolean welcomed;
    /** Set when this member can no longer use the registry: left, declared dead, channel lost. */
    private IOException failure;
    private final List<IbisIdentifier> newJoined = new ArrayList<>();
    private final List<IbisIdentifier> newLeft = new ArrayList<>();
    private final List<IbisIdentifier> newDied = new ArrayList<>();
    private final List<String> newSignals = new ArrayList<>();
    private long eventsApplied;

    MemberView(String poolName, int rank, RegistryEventHandler handler) {
        this.poolName = poolName;
        this.rank = rank;
        this.downcalls = handler == null;
        this.upcalls = new EventUpcalls(lock, handler, "rank " + rank + " of pool '" + poolName + "'");
    }

    // ---------------------------------------------------------------- events (receive thread)

    /** The pool is complete: every rank joined, in rank order; then the pool is closed. */
    void welcome(List<MemberIdentifier> all) {
        synchronized (lock) {
            for (MemberIdentifier m : all) {
                int r = Integer.parseInt(m.name());
                members.put(r, m);
                everyone.put(r, m);
                if (downcalls) {
                    newJoined.add(m);
                }
                upcalls.enqueueLocked(h -> h.joined(m));
            }
            welcomed = true;
            upcalls.enqueueLocked(RegistryEventHandler::poolClosed);
            eventsApplied += all.size() + 1;
            lock.notifyAll();
        }
    }

    void elected(String election, int winnerRank) throws IOException {
        synchronized (lock) {
            MemberIdentifier winner = known(winnerRank);
            elections.put(election, winner);
            upcalls.enqueueLocked(h -> h.electionResult(election, winner));
            eventsApplied++;
            lock.notifyAll();
        }
    }

    void signalled(String signal, int senderRank) throws IOException {
        synchronized (lock) {
            MemberIdentifier sender = known(senderRank);
            if (downcalls) {
                newSignals.add(signal);
            }
            upcalls.enqueueLocked(h -> h.gotSignal(signal, sender));
            eventsApplied++;
            lock.notifyAll();
        }
    }

    /** A member left ({@code died} false) or was declared dead; the elections it won are cleared. */
    void gone(int goneRank, boolean died) throws IOException {
        synchronized (lock) {
            MemberIdentifier m = known(goneRank);
            members.remove(goneRank);
            elections.values().removeIf(winner -> winner.equals(m));
            if (died) {
                if (downcalls) {
                    newDied.add(m);
                }
                upcalls.enqueueLocked(h -> h.died(m));
            } else {
                if (downcalls) {
                    newLeft.add(m);
                }
                upcalls.enqueueLocked(h -> h.left(m));
            }
            eventsApplied++;
            lock.notifyAll();
        }
    }

    void terminated(int terminatorRank) throws IOException {
        synchronized (lock) {
            MemberIdentifier m = known(terminatorRank);
            if (terminator == null) {
                terminator = m;
                upcalls.enqueueLocked(h -> h.poolTerminated(m));
            }
            eventsApplied++;
            lock.notifyAll();
        }
    }

    private MemberIdentifier known(int r) throws IOException {
        MemberIdentifier m = everyone.get(r);
        if (m == null) {
            throw new IOException("registry event names rank " + r + ", which never joined pool '" + poolName + "'");
        }
        return m;
    }

    // ---------------------------------------------------------------- failure and leaving

    /**
     * The registry can no longer be used by this member, for the given reason (the first one
     * counts); wakes every waiter. Events already queued are still delivered.
     */
    void fail(IOException reason) {
        synchronized (lock) {
            if (failure == null) {
                failure = reason;
                upcalls.endLocked();
            }
            lock.notifyAll();
        }
    }

    /** This member left: as {@link #fail}, and the handler gets nothing more. */
    void left(IOException reason) {
        synchronized (lock) {
            fail(reason);
            upcalls.stopLocked();
        }
    }

    /** The exception to throw when the registry can no longer be used, or null. */
    IOException failure() {
        synchronized (lock) {
            return failure == null ? null : new IOException(failure.getMessage(), failure);
        }
    }

    // ---------------------------------------------------------------- queries and waits

    /**
     * Waits for the election's winner; 0 waits forever, a negative timeout not at all, else null
     * when none came in time.
     */
    MemberIdentifier awaitElectionResult(String election, long timeoutMillis) throws IOException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        synchronized (lock) {
            while (true) {
                MemberIdentifier winner = elections.get(election);
                if (winner != null) {
                    return winner;
                }
                if (failure != null) {
                    throw new IOException(failure.getMessage(), failure);
                }
                if (timeoutMillis < 0) {
                    return null; // IPL 2.x: -1 means "do not wait"
                }
                long wait = 0;
                if (timeoutMillis > 0) {
                    wait = (deadline - System.nanoTime()) / 1_000_000L;
                    if (wait <= 0) {
                        return null;
                    }
                }
                try {
                    lock.wait(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting for the result of election '"
                            + election + "'");
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

    boolean isClosed() {
        synchronized (lock) {
            return welcomed;
        }
    }

    boolean hasTerminated() {
        synchronized (lock) {
            return terminator != null;
        }
    }

    /** Waits until some member terminated the pool. */
    MemberIdentifier awaitTermination() {
        synchronized (lock) {
            while (terminator == null) {
                if (failure != null) {
                    throw new IbisRuntimeException("pool '" + poolName + "' was not terminated: "
                            + failure.getMessage(), failure);
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

    /** The member of a rank, whether or not it is still in the pool; null before the welcome. */
    MemberIdentifier memberOfRank(int r) {
        synchronized (lock) {
            return everyone.get(r);
        }
    }

    // ---------------------------------------------------------------- management (caller holds the lock)

    int memberCountLocked() {
        return members.size();
    }

    long eventsAppliedLocked() {
        return eventsApplied;
    }

    boolean terminatedLocked() {
        return terminator != null;
    }

    boolean usableLocked() {
        return failure == null;
    }

    int rank() {
        return rank;
    }
}
