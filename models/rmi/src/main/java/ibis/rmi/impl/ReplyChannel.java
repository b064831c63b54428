package ibis.rmi.impl;

import ibis.ipl.IbisIdentifier;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.ReceiveTimedOutException;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.rmi.ConnectException;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replies of one server member to this JVM, and the calls of this JVM waiting for them.
 *
 * <p>The replies arrive on a one-to-one receive port with explicit receipt, named
 * {@code ibis.rmi.reply.SERVER.EPOCH} ({@link #portName(String, int)}), to which the server's
 * reply send port for this JVM connects. Explicit receipt on a one-sender port reads the
 * connection in the thread that calls {@code receive()} (polling briefly, then blocking), so the
 * caller reads its own reply: no thread switch when it is the only call waiting for this server.
 *
 * <p>Calls waiting for this server take turns as <em>leader/followers</em>: the first waiting
 * call is the leader and receives; the others park. The leader reads each reply into the call it
 * belongs to; a reply for a follower wakes that follower and the leader receives on; its own reply
 * ends its leadership, and it hands the leadership to a waiting follower (a wake-up only when
 * calls overlap).
 *
 * <p>Failures: when the reply connection breaks (or the port is closed because the server left
 * or died), the leader's receive fails and every waiting call fails with
 * {@link ConnectException}. A broken port is replaced by one of the next epoch, which the stubs
 * announce to the server with a new {@link RmiProtocol#PING} before their next call (so the server
 * never answers on a connection the caller gave up). A call failed by someone else (its stub's send
 * port broke) while it leads is noticed by the leader within {@link #LEADER_CHECK_MILLIS}.
 */
final class ReplyChannel {

    private static final Logger LOG = LoggerFactory.getLogger(ReplyChannel.class);

    /** The longest a leader receives before it looks whether its own call was failed by others. */
    static final long LEADER_CHECK_MILLIS = 200;

    private final RmiRuntime runtime;
    private final IbisIdentifier server;

    // Guarded by this.
    private ReceivePort port;
    private int epoch;
    private Throwable gone;
    private ClientCall[] waiting = new ClientCall[8];
    private int waitingCount;
    /** The call that receives for all; read without the lock by parked followers. */
    private volatile ClientCall leader;
    /** Statistics (guarded by this): replies a leader read for another call; leaderships handed on. */
    private long repliesForOthers;
    private long handOvers;

    ReplyChannel(RmiRuntime runtime, IbisIdentifier server) {
        this.runtime = runtime;
        this.server = server;
    }

    /**
     * The name of the reply port for the replies of a server member.
     *
     * @param serverName the server member's name
     * @param epoch the epoch of the port (a new one after the previous broke)
     * @return the port name
     */
    static String portName(String serverName, int epoch) {
        return RmiProtocol.REPLY_PORT + "." + serverName + "." + epoch;
    }

    IbisIdentifier server() {
        return server;
    }

    /** @return how many calls wait for their replies now (for tests and diagnostics) */
    synchronized int waitingCalls() {
        return waitingCount;
    }

    /** @return whether a call receives as the leader now */
    boolean hasLeader() {
        return leader != null;
    }

    /** @return how many replies a leader read for another waiting call (each cost that call a wake-up) */
    synchronized long repliesForOthers() {
        return repliesForOthers;
    }

    /** @return how many times a leader whose reply came handed the leadership to a waiting call */
    synchronized long handOvers() {
        return handOvers;
    }

    /** @return the epoch of the current (or next) reply port */
    synchronized int epoch() {
        return epoch;
    }

    /**
     * Registers a call as waiting for its reply, opening the reply port if there is none. Must
     * happen before the request is sent (else a leader could read the reply first).
     *
     * @return the epoch of the port the reply will arrive on
     * @throws ConnectException when the server is gone or the port cannot be created
     */
    synchronized int register(ClientCall call) throws ConnectException {
        if (gone != null) {
            throw new ConnectException("RMI server " + server + " has left or died: " + gone.getMessage());
        }
        if (port == null) {
            String name = portName(server.name(), epoch);
            try {
                ReceivePort p = runtime.ibis().createReceivePort(RmiRuntime.REPLY_TYPE, name);
                p.enableConnections();
                port = p;
            } catch (IOException | RuntimeException e) {
                throw new ConnectException("cannot create the reply port " + name + ": " + e, e instanceof Exception
                        ? (Exception) e : null);
            }
        }
        if (waitingCount == waiting.length) {
            waiting = java.util.Arrays.copyOf(waiting, waitingCount * 2);
        }
        waiting[waitingCount++] = call;
        call.waitIn(epoch);
        return epoch;
    }

    /** Removes a call that will not wait after all (its request could not be sent). */
    synchronized void unregister(ClientCall call) {
        remove(call);
    }

    /**
     * Waits until the call's reply arrived or the call failed, receiving as the leader when no
     * other call does.
     *
     * @param deadline System.nanoTime() after which the call fails, or 0 for no limit
     */
    void await(ClientCall call, long deadline) {
        // As with java.rmi, an interrupt does not end a call; it is kept for the caller. Cleared
        // meanwhile so that parking works and the leader's receive is not cut short.
        boolean interrupted = Thread.interrupted();
        try {
            while (true) {
                if (call.state() != ClientCall.WAITING) {
                    resign(call);
                    return;
                }
                ReceivePort p = leader == call ? currentPort() : tryLead(call);
                if (p != null) {
                    interrupted |= lead(call, p, deadline);
                    return;
                }
                if (leader == call) {
                    continue; // promoted, but the port is gone: the next round sees the failure
                }
                if (deadline == 0) {
                    LockSupport.park(this);
                } else {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        timedOut(call);
                    } else {
                        LockSupport.parkNanos(this, left);
                    }
                }
                interrupted |= Thread.interrupted();
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The reply port of the current epoch (package-private for tests that break it). */
    synchronized ReceivePort currentPort() {
        return port;
    }

    /** Makes the call the leader when there is none; returns the port to receive on, or null. */
    private synchronized ReceivePort tryLead(ClientCall call) {
        if (leader == null && call.state() == ClientCall.WAITING) {
            leader = call;
            return port;
        }
        return null;
    }

    /**
     * Receives replies until the leader's own call is no longer waiting.
     *
     * @return whether the thread was interrupted meanwhile
     */
    private boolean lead(ClientCall call, ReceivePort p, long deadline) {
        boolean interrupted = false;
        try {
            while (call.state() == ClientCall.WAITING) {
                interrupted |= Thread.interrupted();
                long slice = LEADER_CHECK_MILLIS;
                if (deadline != 0) {
                    long left = (deadline - System.nanoTime()) / 1_000_000L;
                    if (left <= 0) {
                        timedOut(call);
                        break;
                    }
                    slice = Math.min(slice, left);
                }
                ReadMessage m;
                try {
                    m = p.receive(slice);
                } catch (ReceiveTimedOutException e) {
                    continue; // look at the call's state and the deadline again
                } catch (InterruptedIOException e) {
                    // Interrupted before a reply started: the IPL keeps the reply connection, and
                    // the interrupt is kept for the caller (cleared here so receiving can go on).
                    interrupted = true;
                    Thread.interrupted();
                    continue;
                } catch (IOException | RuntimeException e) {
                    broken(p, e);
                    break;
                }
                ClientCall target;
                try {
                    int callId = m.readInt();
                    target = take(callId);
                    if (target == null) {
                        LOG.debug("reply to call {} that nobody waits for (failed or abandoned); dropped", callId);
                        ClientCall.skipReply(m);
                        m.finish();
                        continue;
                    }
                } catch (IOException | ClassNotFoundException | RuntimeException e) {
                    finishQuietly(m);
                    broken(p, e);
                    break;
                }
                target.deliver(m);
                IOException finishFailure = null;
                try {
                    m.finish();
                } catch (IOException | RuntimeException e) {
                    finishFailure = e instanceof IOException ? (IOException) e : new IOException(e);
                }
                target.arrived();
                if (finishFailure != null) {
                    broken(p, finishFailure);
                    break;
                }
            }
        } finally {
            resign(call);
        }
        return interrupted;
    }

    /** Ends the leadership of a call (if it leads) and passes it to a waiting call. */
    private void resign(ClientCall call) {
        ClientCall next = null;
        synchronized (this) {
            if (leader != call) {
                return;
            }
            leader = null;
            if (waitingCount > 0) {
                next = waiting[0];
                leader = next;
                handOvers++;
            }
        }
        if (next != null) {
            next.wake();
        }
    }

    /** Removes and returns the waiting call with this id, or null. */
    private synchronized ClientCall take(int callId) {
        for (int i = 0; i < waitingCount; i++) {
            ClientCall c = waiting[i];
            if (c.callId() == callId) {
                removeAt(i);
                if (c != leader) {
                    repliesForOthers++;
                }
                return c;
            }
        }
        return null;
    }

    private boolean remove(ClientCall call) {
        for (int i = 0; i < waitingCount; i++) {
            if (waiting[i] == call) {
                removeAt(i);
                return true;
            }
        }
        return false;
    }

    private void removeAt(int i) {
        waitingCount--;
        System.arraycopy(waiting, i + 1, waiting, i, waitingCount - i);
        waiting[waitingCount] = null;
    }

    /** Fails a call whose deadline passed, unless a leader is reading its reply right now. */
    private synchronized void timedOut(ClientCall call) {
        if (remove(call)) {
            call.fail(new IOException("no answer from " + server + " in time"));
        }
    }

    /** The reply port broke (or was closed): every waiting call fails; the next call opens a new port. */
    private void broken(ReceivePort p, Throwable cause) {
        synchronized (this) {
            if (port != p) {
                return; // replaced already; its calls were failed then
            }
            port = null;
            epoch++;
            failAllLocked(gone != null ? gone : cause);
        }
        if (gone == null) {
            LOG.debug("reply connection from {} lost; failing the calls waiting for it: {}", server, cause.toString());
        }
        closeQuietly(p);
    }

    /** Fails the waiting calls of one stub (its send port broke). */
    synchronized void failCalls(RemoteReference ref, Throwable cause) {
        for (int i = waitingCount - 1; i >= 0; i--) {
            ClientCall c = waiting[i];
            if (c.reference() == ref) {
                removeAt(i);
                c.fail(cause);
            }
        }
    }

    /** The server left or died: every waiting call fails, now and later. */
    void serverGone(Throwable cause) {
        ReceivePort p;
        synchronized (this) {
            if (gone != null) {
                return;
            }
            gone = cause;
            p = port;
            port = null;
            failAllLocked(cause);
        }
        // Closing breaks the connection under a leader's receive: it fails at once.
        closeQuietly(p);
    }

    /** The runtime ends. */
    void close() {
        serverGone(new IOException("Ibis RMI is ending"));
    }

    private void failAllLocked(Throwable cause) {
        for (int i = 0; i < waitingCount; i++) {
            ClientCall c = waiting[i];
            waiting[i] = null;
            c.fail(cause);
        }
        waitingCount = 0;
    }

    private static void finishQuietly(ReadMessage m) {
        try {
            m.finish();
        } catch (IOException | RuntimeException e) {
            // The connection is given up anyway.
        }
    }

    private static void closeQuietly(ReceivePort p) {
        if (p != null) {
            try {
                p.close(-1);
            } catch (IOException | RuntimeException e) {
                // Nothing more to release.
            }
        }
    }

    @Override
    public String toString() {
        return "ReplyChannel[" + server + "]";
    }
}
