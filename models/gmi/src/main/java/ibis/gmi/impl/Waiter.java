package ibis.gmi.impl;

import ibis.ipl.impl.SpinWait;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Something a thread waits for that processes must deliver: parts keyed by an index. When a
 * process it watches leaves or dies first, the wait fails instead of hanging.
 *
 * <p>A wait polls for {@value #REPLY_SPIN_MICROS_DEFAULT} µs (system property
 * {@value #REPLY_SPIN_MICROS}; 0: never) before it blocks, with the IPL's {@link SpinWait} policy
 * (pauses, an occasional yield, and no polling for a while when other work evidently holds the
 * processor): a reply that comes soon, as a group call's usually does, is then taken without the
 * wake-up of a blocked thread. Not at all when more of the pool's processes run on this host than it
 * has cores ({@link #pollOnlyIfCoresFor}): the processes a waiter waits for would lose the cores
 * to it.
 */
class Waiter {

    /** System property: microseconds a wait for a part polls before it blocks. */
    static final String REPLY_SPIN_MICROS = "ibis.gmi.reply.spin.micros";
    static final long REPLY_SPIN_MICROS_DEFAULT = 50;
    private static final long SPIN_MICROS = Math.max(0, Long.getLong(REPLY_SPIN_MICROS, REPLY_SPIN_MICROS_DEFAULT));
    /** Whether waits poll at all (see {@link #pollOnlyIfCoresFor}). */
    private static volatile boolean polling = true;
    /** Each waiting thread's polling policy (its back-off belongs to the thread). */
    private static final ThreadLocal<SpinWait> SPIN = ThreadLocal.withInitial(() -> new SpinWait(SPIN_MICROS));
    /** What {@link #take} returns when the part is not there yet. */
    static final Object NONE = new Object();

    private volatile int[] watched;
    /** Counts deliveries and failures: a polling waiter looks again only when it changed. */
    private volatile int changes;
    private final Map<Integer, Object> parts = new HashMap<>();
    private IOException failure;

    /**
     * Lets waits poll only when {@code processesOnThisHost} (this process included) do not
     * outnumber this host's cores.
     */
    static void pollOnlyIfCoresFor(int processesOnThisHost) {
        polling = processesOnThisHost <= Runtime.getRuntime().availableProcessors();
    }

    Waiter(int... watched) {
        this.watched = watched;
    }

    /** Also watches {@code processes}. */
    synchronized void watch(int... processes) {
        int[] w = Arrays.copyOf(watched, watched.length + processes.length);
        System.arraycopy(processes, 0, w, watched.length, processes.length);
        watched = w;
    }

    boolean watches(int process) {
        for (int w : watched) {
            if (w == process) {
                return true;
            }
        }
        return false;
    }

    synchronized void deliver(int index, Object part) {
        parts.put(index, part);
        changes++;
        notifyAll();
    }

    synchronized void fail(IOException cause) {
        if (failure == null) {
            failure = cause;
        }
        changes++;
        notifyAll();
    }

    synchronized boolean failed() {
        return failure != null;
    }

    /** Counts deliveries and failures so far. */
    int changes() {
        return changes;
    }

    /**
     * Waits for part {@code index}, reading the replies of {@code channel} meanwhile when no other
     * waiting thread does ({@link ReplyChannel#await}); throws the failure when a watched process
     * went first.
     */
    Object await(int index, ReplyChannel channel) throws IOException, InterruptedException {
        synchronized (this) {
            Object part = take(index);
            if (part != NONE) {
                return part;
            }
        }
        return channel.await(this, index);
    }

    /** Waits for part {@code index}; throws the failure when a watched process went first. */
    Object await(int index) throws IOException, InterruptedException {
        int seen = changes;
        synchronized (this) {
            Object part = take(index);
            if (part != NONE) {
                return part;
            }
        }
        SpinWait spin = polling ? SPIN.get() : null;
        if (spin != null && spin.start()) {
            while (spin.next()) {
                int now = changes;
                if (now != seen) {
                    seen = now;
                    synchronized (this) {
                        Object part = take(index);
                        if (part != NONE) {
                            spin.succeeded();
                            return part;
                        }
                    }
                }
            }
        }
        synchronized (this) {
            while (true) {
                Object part = take(index);
                if (part != NONE) {
                    return part;
                }
                wait();
            }
        }
    }

    /** Part {@code index}, removed; {@link #NONE} when it is not there; the failure when there is one. Holds this. */
    Object take(int index) throws IOException {
        if (parts.containsKey(index)) {
            return parts.remove(index);
        }
        if (failure != null) {
            throw new IOException(failure.getMessage(), failure);
        }
        return NONE;
    }
}
