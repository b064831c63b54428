package ibis.gmi.impl;

import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.ReceiveTimedOutException;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replies to this process's calls that wait for them: one many-to-one receive port with
 * explicit receipt ({@value GmiProtocol#REPLY_PORT_NAME}), read by the threads that wait for
 * replies, so that a caller reads its own reply and no upcall thread hands it over (a thread switch
 * per reply: a wake-up and, on a busy host, a wait for a core).
 *
 * <p>Waiting calls take turns as <em>leader/followers</em>: the first waiting call is the leader
 * and receives; the others wait on their {@link Waiter}. The leader hands every reply it reads to
 * the call it belongs to (waking that call when it is a follower) and receives on until its own
 * part is there; then it gives up the lead and wakes the followers, one of which takes it over (a
 * hand-over only when calls overlap). The leader receives in slices of {@value #SLICE_MILLIS} ms,
 * so that a call failed by others (a member that died, GMI ended) ends within a slice.
 *
 * <p>The port carries the messages that a thread of this process waits for: the directory's
 * answers, the replies to calls whose invoker waits, the parts of binomial combining, and the
 * messages among the invokers of a combined invocation. Replies that go to a forwarder, and every
 * other GMI message, arrive by upcalls on the port {@value GmiProtocol#PORT_NAME}.
 */
final class ReplyChannel {

    private static final Logger LOG = LoggerFactory.getLogger(ReplyChannel.class);

    /** The longest a leader receives before it looks whether its own call failed meanwhile. */
    static final long SLICE_MILLIS = 50;

    /** Reads the rest of one message of a kind a thread waits for and hands it to that wait. */
    interface Handler {
        /** @throws IOException for a kind that does not belong on this port, or a malformed message */
        void handle(byte kind, ReadMessage m) throws IOException;
    }

    private final ReceivePort port;
    private final Handler handler;
    /** The thread that receives for all, or null. */
    private final AtomicReference<Thread> leader = new AtomicReference<>();
    /**
     * The calls that waited as followers (a call that takes the lead at once is listed nowhere: the
     * common case of one waiting call costs no set operation).
     */
    private final Set<Waiter> waiting = ConcurrentHashMap.newKeySet();
    /** The size of {@link #waiting}, read by a leader that gives up the lead. */
    private final AtomicInteger followers = new AtomicInteger();
    /** Replies ({@link GmiProtocol#REPLY}) read. */
    private final AtomicLong replies = new AtomicLong();

    ReplyChannel(ReceivePort port, Handler handler) {
        this.port = port;
        this.handler = handler;
    }

    /** @return replies read from the port */
    long replies() {
        return replies.get();
    }

    /**
     * Waits for part {@code index} of {@code w}, receiving replies as the leader while no other
     * thread does.
     *
     * @throws IOException the call's failure (a watched process gone), or the port's
     * @throws InterruptedException when interrupted while a follower
     */
    Object await(Waiter w, int index) throws IOException, InterruptedException {
        synchronized (w) {
            Object part = w.take(index);
            if (part != Waiter.NONE) {
                return part;
            }
        }
        boolean follower = false;
        try {
            while (true) {
                if (leader.compareAndSet(null, Thread.currentThread())) {
                    try {
                        return lead(w, index);
                    } finally {
                        leader.set(null);
                        if (followers.get() > 0) {
                            wakeFollowers(w);
                        }
                    }
                }
                if (!follower) {
                    // A follower from now on, which the leader wakes when it gives up the lead. Listed
                    // before the lead is tried again: a leader that left before it could see this
                    // wait left the lead free (volatile order of the two), else it wakes it.
                    waiting.add(w);
                    followers.incrementAndGet();
                    follower = true;
                    continue;
                }
                synchronized (w) {
                    Object part = w.take(index);
                    if (part != Waiter.NONE) {
                        return part;
                    }
                    // The leader clears the lead before it wakes the followers under their locks:
                    // seen here, or this wait is woken.
                    if (leader.get() != null) {
                        w.wait();
                    }
                }
            }
        } finally {
            if (follower) {
                waiting.remove(w);
                followers.decrementAndGet();
            }
        }
    }

    /** Receives until part {@code index} of {@code w} is there (or {@code w} failed). */
    private Object lead(Waiter w, int index) throws IOException {
        while (true) {
            synchronized (w) {
                Object part = w.take(index);
                if (part != Waiter.NONE) {
                    return part;
                }
            }
            ReadMessage m;
            try {
                m = port.receive(SLICE_MILLIS);
            } catch (ReceiveTimedOutException e) {
                continue;
            }
            read(m);
        }
    }

    private void read(ReadMessage m) throws IOException {
        try {
            byte kind = m.readByte();
            if (kind == GmiProtocol.REPLY) {
                replies.incrementAndGet();
            }
            handler.handle(kind, m);
        } catch (IOException | RuntimeException e) {
            // Malformed: dropped (the wait it was for still fails when its sender goes); the port reads on.
            LOG.warn("dropped a bad GMI message on the reply port from {}: {}", m.origin(), e.toString());
            try {
                m.finish(e instanceof IOException io ? io : new IOException(e.toString(), e));
            } catch (RuntimeException ignored) {
                // finished already
            }
        }
    }

    private void wakeFollowers(Waiter self) {
        for (Waiter w : waiting) {
            if (w != self) {
                synchronized (w) {
                    w.notifyAll();
                }
            }
        }
    }
}
