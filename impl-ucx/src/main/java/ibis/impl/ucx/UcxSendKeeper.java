package ibis.impl.ucx;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives a worker for sends that nobody waits for. A sink returns from a write before its sends
 * have completed, and UCX only moves a send on when the sender's worker is progressed: a message
 * queued because the peer's shared-memory FIFO was full, a rendezvous over TCP, or a completion
 * that frees a staging buffer. Threads that wait on the worker (a receive, a credit wait) progress
 * it anyway; but when the application stops calling Ibis after a send (it computes, or waits for a
 * reply on another Ibis of the same JVM), nothing would, and the peer would wait for ever.
 *
 * <p>So this daemon thread, one per worker, started on first use, runs while some end of a
 * connection has sends in flight: it waits on the worker as any other waiter does
 * ({@link UcxWorker#await}): when nobody else blocks there it is the leader, blocking in the
 * worker's event descriptor a slice at a time and progressing the worker; otherwise it is a parked
 * follower (the leader progresses the worker) that takes over the lead when the leader's wait
 * ends. It reaps the ends' finished sends after every wait, and its waits end after 1 ms,
 * doubling to 25.6 ms while sends stay in flight: a send queued for room in the peer's FIFO moves on
 * only when the worker is progressed, and no event says when room came. It also drives the
 * worker for a while after an endpoint close that UCX could not finish at once (over TCP the flush
 * needs the peer's answer). Once nothing is in flight it parks. It never touches data: no message
 * is handed from it to another thread. It holds a worker reference while it runs, so the worker is
 * never destroyed under it.
 *
 * <p>While sources are open it also looks for held messages now and then ({@link
 * UcxWorker#adoptHeld}): a remote writer that sent from its application's buffer waits until they
 * are received, and when no thread of this process drives the worker (the application computes, or
 * waits outside Ibis) nobody else would take them. It progresses the worker and looks itself when
 * no thread polls or waits on the worker; else it asks the polling thread, or the waiting lead
 * holder (woken from the event descriptor when one has come), to take them (UCX's worker lock is a
 * spin lock a polling thread holds, and a waiter's progress hands over the descriptor). Its looks
 * are {@value #LOOK_MIN_MILLIS} ms apart after one found something, doubling up to {@value
 * #LOOK_MAX_MILLIS} ms while none does: an idle process wakes ten times a second, and a writer that
 * waits for a computing receiver is held up that long once.
 */
final class UcxSendKeeper implements Runnable {

    /** An end of a connection whose sends may be in flight. */
    interface Sender {

        /** Whether sends of this end are in flight (a volatile read, no lock). */
        boolean hasSendsInFlight();

        /** Frees the sends that have completed (takes the end's lock briefly). */
        void reapSends();
    }

    private static final Logger LOG = LoggerFactory.getLogger(UcxSendKeeper.class);

    /** The longest park while nothing is in flight (a missed wake-up costs at most this). */
    private static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);
    /**
     * How long the keeper waits before it progresses the worker again while sends stay in flight
     * (doubling up to {@link UcxWorker#QUEUED_SEND_RECHECK_MAX_NANOS}; back to this once nothing is
     * in flight).
     */
    private static final long RECHECK_NANOS = 1_000_000;

    /** The pace of the looks for held messages: after one that found some, and at most. */
    static final long LOOK_MIN_MILLIS = 1;
    static final long LOOK_MAX_MILLIS = 100;

    /**
     * How long after sends were last in flight the keeper looks again by itself every
     * {@link #RECHECK_NANOS} instead of parking until a sink wakes it: in a stream of rendezvous
     * messages each send goes in flight after the last completed, and a wake-up for each cost a
     * thread switch per message (3,000 a second in a 100 KB stream); a send in that time waits at
     * most that long for the keeper.
     */
    private static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private static final Sender[] NONE = new Sender[0];

    private final UcxWorker worker;
    private final String name;
    private final Object lock = new Object();
    /** Every open end that sends (copied on change). */
    private volatile Sender[] senders = NONE;
    private volatile Thread thread;
    private volatile boolean parked;
    private volatile boolean stopped;
    /** Until when ({@link System#nanoTime()}) the keeper drives the worker anyway (closes in progress). */
    private volatile long lingerUntil;
    private volatile boolean lingering;
    /** When the keeper last saw sends in flight ({@link System#nanoTime()}); keeper thread only. */
    private long lastBusy = System.nanoTime() - LINGER_NANOS;

    /** The keeper's wait: every send reaped (or the keeper stopped); it never ends early. */
    private final UcxWorker.Condition nothingInFlight = new UcxWorker.Condition() {
        @Override
        boolean ready() {
            reapAll();
            return stopped || !anyInFlight();
        }

        @Override
        void check() {
            // the keeper's wait fails never
        }

        @Override
        boolean mayBeReady() {
            return stopped; // reaps at the end of a slice or when it takes the lead
        }
    };

    UcxSendKeeper(UcxWorker worker, String name) {
        this.worker = worker;
        this.name = name;
    }

    void add(Sender sender) {
        synchronized (lock) {
            Sender[] now = senders;
            Sender[] more = Arrays.copyOf(now, now.length + 1);
            more[now.length] = sender;
            senders = more;
        }
    }

    void remove(Sender sender) {
        synchronized (lock) {
            Sender[] now = senders;
            for (int i = 0; i < now.length; i++) {
                if (now[i] == sender) {
                    Sender[] fewer = Arrays.copyOf(now, now.length - 1);
                    System.arraycopy(now, i + 1, fewer, i, now.length - i - 1);
                    senders = fewer;
                    return;
                }
            }
        }
    }

    /**
     * An end has put sends in flight: makes sure the keeper runs. Allocates nothing once the
     * thread exists.
     */
    void wake() {
        Thread t = thread;
        if (t == null) {
            synchronized (lock) {
                if (thread == null && !stopped) {
                    t = new Thread(this, name);
                    t.setDaemon(true);
                    thread = t;
                    t.start();
                }
            }
            return;
        }
        if (parked) {
            LockSupport.unpark(t);
        }
    }

    /**
     * Drives the worker until {@code deadline} ({@link System#nanoTime()}) at least: an endpoint
     * close that UCX has not finished (it needs the worker progressed until the peer answers).
     */
    void linger(long deadline) {
        synchronized (lock) {
            if (!lingering || deadline - lingerUntil > 0) {
                lingerUntil = deadline;
            }
            lingering = true;
        }
        wake();
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Every open end that sends (sinks, and sources for their credits): a snapshot, not to be changed. */
    Sender[] ends() {
        return senders;
    }

    /** Whether a source is open (held messages may come for it). */
    private boolean anySource() {
        for (Sender s : senders) {
            if (s instanceof UcxByteSource) {
                return true;
            }
        }
        return false;
    }

    /**
     * Looks for held messages: asks the polling thread to take them when one polls; wakes the
     * waiting threads for them when some wait on the worker (they progress it; a progress here
     * would race their hand-over of the event descriptor); else progresses the worker and takes
     * them itself. The caller holds a worker reference.
     *
     * @return whether this look took any
     */
    private boolean lookForHeld() {
        if (worker.othersPollingNow()) {
            worker.askForAdoption();
            return false;
        }
        if (worker.anyWaiter()) {
            worker.wakeForAdoption();
            return false;
        }
        long before = worker.adoptions();
        worker.progressForLook();
        worker.adoptHeld();
        return worker.adoptions() != before;
    }

    /** Stops the thread (the transport closed); it lets go of the worker. */
    void stop() {
        stopped = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    private boolean anyInFlight() {
        if (lingering) {
            if (System.nanoTime() - lingerUntil < 0) {
                return true;
            }
            lingering = false;
        }
        for (Sender s : senders) {
            if (s.hasSendsInFlight()) {
                return true;
            }
        }
        return false;
    }

    private void reapAll() {
        for (Sender s : senders) {
            if (s.hasSendsInFlight()) {
                s.reapSends();
            }
        }
    }

    @Override
    public void run() {
        long recheck = RECHECK_NANOS;
        long look = TimeUnit.MILLISECONDS.toNanos(LOOK_MIN_MILLIS);
        long nextLook = System.nanoTime() + look;
        while (!stopped) {
            boolean sources = anySource();
            if (sources && System.nanoTime() - nextLook >= 0) {
                if (!worker.tryRetain()) {
                    return;
                }
                boolean found;
                try {
                    found = lookForHeld();
                } catch (RuntimeException e) {
                    LOG.warn("{}: {}", name, e.toString());
                    found = false;
                } finally {
                    worker.release();
                }
                look = found ? TimeUnit.MILLISECONDS.toNanos(LOOK_MIN_MILLIS)
                        : Math.min(look * 2, TimeUnit.MILLISECONDS.toNanos(LOOK_MAX_MILLIS));
                nextLook = System.nanoTime() + look;
            }
            if (!anyInFlight()) {
                recheck = RECHECK_NANOS;
                if (System.nanoTime() - lastBusy < LINGER_NANOS && !stopped) {
                    // Sends were in flight lately (a stream): look again in a while rather than
                    // be woken by the next send, a thread switch per message of a stream.
                    LockSupport.parkNanos(this, RECHECK_NANOS);
                    continue;
                }
                parked = true;
                if (!anyInFlight() && !stopped) {
                    long idle = sources ? Math.max(1, nextLook - System.nanoTime()) : IDLE_NANOS;
                    LockSupport.parkNanos(this, idle);
                }
                parked = false;
                continue;
            }
            lastBusy = System.nanoTime();
            if (!worker.tryRetain()) {
                return; // the worker is gone: so are its connections
            }
            try {
                if (worker.othersPolling()) {
                    // A thread polls the worker and moves the sends on: no UCX call (its worker
                    // lock is a spin lock the poller holds through long progress calls).
                    LockSupport.parkNanos(this, recheck);
                } else {
                    // As any waiter: the leader in the event descriptor when nobody else waits
                    // there, else a follower (the leader progresses the worker). With a deadline:
                    // a send UCX queued because the peer's shared-memory FIFO was full moves on
                    // only when this worker is progressed, and no event says when the peer made
                    // room; each new wait progresses first.
                    long deadline = System.nanoTime() + recheck;
                    worker.await(nothingInFlight, null, deadline == 0 ? 1 : deadline, false);
                }
                recheck = Math.min(recheck * 2, UcxWorker.QUEUED_SEND_RECHECK_MAX_NANOS);
            } catch (IOException | RuntimeException e) {
                LOG.warn("{}: {}", name, e.toString());
            } finally {
                worker.release();
            }
        }
    }
}
