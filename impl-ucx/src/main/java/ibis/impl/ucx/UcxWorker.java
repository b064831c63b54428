package ibis.impl.ucx;

import ibis.ipl.impl.HostLoad;
import ibis.ipl.impl.SpinWait;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The UCP worker of one transport and the way threads wait on it. There is no progress thread: a
 * thread that waits for something (the next message, credit, a request to complete) drives the
 * worker itself ({@link #await}): it first polls briefly ({@link SpinWait}, progressing the worker
 * between yields), then blocks.
 *
 * <p>Blocking: at most one thread per worker, the <em>leader</em>, blocks in the worker's event
 * file descriptor ({@code ucp_worker_arm}, then {@code poll(2)}, slices of at most
 * {@value #SLICE_MILLIS} ms); every other blocked waiter is a <em>follower</em>, parked in Java
 * ({@link LockSupport}, slices of at most {@value #SLICE_MILLIS} ms). Two threads in the
 * descriptor would both wake for every event and one's arm could swallow the event the other
 * waited for. The leader, woken, progresses the worker and then unparks exactly the followers
 * whose wait may be over ({@link Condition#mayBeReady()}, a look that takes nothing); when its own
 * wait is over it gives up the lead and unparks one follower, which takes it over. Between slices
 * every waiter checks its deadline, its interrupt (when the wait may be interrupted) and the
 * liveness of its connection. A waiter that polls before blocking progresses the worker itself.
 *
 * <p>Lifetime: the worker is destroyed when its transport has closed and every connection the
 * transport made has been torn down ({@link #retain}/{@link #release}, a reference count); a thread
 * uses the worker only while it holds a connection (or the transport) open, so the worker is never
 * destroyed under a running thread, which would crash the JVM.
 */
final class UcxWorker {

    private static final Logger LOG = LoggerFactory.getLogger(UcxWorker.class);

    /**
     * The longest a thread blocks (the leader in the event descriptor, a follower parked) before it
     * looks at its deadline, interrupt and connection again.
     */
    static final int SLICE_MILLIS = 100;

    /**
     * How long the lead may stay away before the stand-by takes it over: while it is away nobody
     * is in the descriptor, so a follower's message may wait that long (unless a polling thread
     * takes it in).
     */
    static final long STANDBY_NANOS = 200_000;
    /**
     * How recent another thread's poll must be for it to count as polling ({@link #othersPoll}). A
     * polling thread takes in every message and wakes the followers whose message came, so while
     * one polls a woken leader steps aside, a waiter does not take a lead that is away, the
     * stand-by does not take it over, and a follower whose park ran out makes no UCX call. Ten
     * stand-by looks: a thread that polls, runs its own code for a few hundred microseconds (a
     * reduction, a copy, the next send) and polls again is still polling. With the stand-by's 200
     * µs the lead went to a parked thread and back at such pauses, a wake-up each, which on a
     * crowded host costs a core: the gmi suite's 1 MB allreduce of 4 members on 2 cores (beside
     * the GMI runtime's upcall readers, parked on the same worker) took 3.0-3.4x MPI's time, with
     * 2 ms 2.2x (8 members: 10.9x, 3.6x). The price: when the polling thread stops for good (its
     * wait ended and it computes), a follower's message that came meanwhile waits up to this much
     * longer for the stand-by.
     */
    static final long POLLING_NANOS = 2_000_000;
    /** Looks of the stand-by at a present leader in a row after which it ends its duty. */
    private static final int STANDBY_LOOKS = 16;
    /**
     * While another thread keeps polling, the stand-by's park doubles at each look, up to
     * {@link #STANDBY_NANOS} times 2 to this power (6.4 ms): each of its wake-ups takes a core from
     * the polling threads (thousands a second at a fixed 200 µs), and it is needed only once the
     * polling stops.
     */
    private static final int STANDBY_MAX_SHIFT = 5;

    /** How long messages for a torn-down connection are taken and dropped. */
    static final int DEAD_KEEP_SECONDS = 60;
    /** Matches every message to one connection id. */
    private static final long CONNECTION_MASK = 0xFFFF_FFFF_0000_0000L;
    /** Messages up to this size are dropped through one buffer. */
    private static final int SWEEP_BUFFER = 64 * 1024;

    /**
     * How long a polling thread that takes in its own messages may leave the scan for other
     * waiters whose messages it may have taken in ({@link #progressDeferringScan}).
     */
    static final long SCAN_NANOS = 20_000;

    /**
     * The longest a writer short of staging, or the send keeper, waits before it progresses the
     * worker again while sends stay in flight: a send UCX queued for room in the peer's
     * shared-memory FIFO moves on only then, and no event says when the peer made room. Their
     * waits start shorter and double up to this.
     */
    static final long QUEUED_SEND_RECHECK_MAX_NANOS = 25_600_000;

    /** Progress calls in a row before a waiter looks at its wait again. */
    private static final int PROGRESS_BURST = 64;

    /**
     * Memory that UCX may still read or write after its owner gave up on it (a request that could
     * not be completed or cancelled): kept reachable for the rest of the JVM's life, so that the
     * direct buffer is never freed under UCX. Only failures put anything here.
     */
    private static final Queue<Object> PINNED = new ConcurrentLinkedQueue<>();

    /**
     * What a thread waits for on the worker. One object per kind of wait of an end, reused (it is
     * also the waiter's place in the worker's list of followers: nothing is allocated per wait); one
     * thread at a time waits on it.
     */
    abstract static class Condition {

        // Guarded by the worker's followers lock: the list of followers.
        private Condition next;
        private Condition prev;
        private boolean queued;
        private Thread thread;
        /** Unparked by the leader and not yet running again (not unparked twice). */
        private boolean signalled;
        /** As the stand-by: the away epoch it saw last, and its looks at a present leader in a row. */
        private int seenEpoch;
        private int presentLooks;
        /** As the stand-by: its looks in a row at a lead left away for a polling thread (park doubling). */
        private int pollingLooks;

        /**
         * Whether the wait is over, looking without blocking (the caller has just progressed the
         * worker). May take what it waited for (probe a message, read a credit). Called by the
         * waiting thread only.
         */
        abstract boolean ready() throws IOException;

        /** Throws when the wait can never end well: the end was closed, the peer is gone. */
        abstract void check() throws IOException;

        /**
         * Whether the wait may be over, for the leader to decide whether to unpark this waiter:
         * called by another thread while the waiter is parked, so it must be thread-safe, take
         * nothing and never block (a {@link UcxNative#peek}, a request's status). A false true
         * costs a wake-up; a false false costs up to a slice. Default: true.
         */
        boolean mayBeReady() {
            return true;
        }
    }

    final long handle;
    private final long spinMicros;
    /** The longest a thread blocks before it looks at its deadline, interrupt and connection again. */
    private final long sliceNanos;
    /** Threads blocked in the event descriptor now: the leader (at most one), or none. */
    private final AtomicInteger blocked = new AtomicInteger();
    /** Drives the worker for sends in flight when no thread waits on it. */
    final UcxSendKeeper keeper;
    /** Reads the side channels of the connections when they become readable. */
    final SideWatcher sideWatcher;
    /** The transport (1) and every connection not yet torn down; 0: destroyed. */
    private final AtomicInteger references = new AtomicInteger(1);

    /** Guards the leader and the list of followers. */
    private final Object followersLock = new Object();
    /** The thread that blocks in the event descriptor (or is about to), or null. */
    private Thread leader;
    /**
     * The leader is not in the descriptor: its own wait ended (it keeps the lead until it waits
     * again, so that a thread that receives message after message is woken straight from the
     * descriptor, with no hand-over per message), or it stepped aside for a polling thread.
     * Another thread that blocks takes the lead at once, the stand-by once it stayed away.
     */
    private boolean leaderAway;
    /** Counts the departures of leaders, so that the stand-by sees whether the lead stayed away. */
    private int awayEpoch;
    /** The follower that takes over a lead left away for {@link #STANDBY_NANOS}, or null. */
    private Condition standby;
    /** When a polling thread last progressed the worker ({@link System#nanoTime()}; see {@link #notePoll}). */
    private volatile long lastPoll;
    /** The thread that polled last ({@link #lastPoll}). */
    private volatile Thread lastPoller;
    /** Polls of {@link #lastPoller} since it last set {@link #lastPoll} (written by it only; racy, harmless). */
    private int pollsUnclocked;
    /** A poller sets {@link #lastPoll} at every this many polls ({@link #notePoll}). */
    private static final int CLOCK_POLLS = 8;
    /** A poll took in events and left the scan for waiters to later ({@link #progressDeferringScan}). */
    private volatile boolean unscanned;
    /**
     * Events polls took in since the last scan that no reader has accounted for as its own message
     * ({@link #tookMessage}): while there are none, nothing taken in can be another waiter's, and a
     * scan left for later is not due.
     */
    private final AtomicLong unaccounted = new AtomicLong();
    /** When a poll last scanned the waiters ({@link System#nanoTime()}). */
    private volatile long lastScan;
    /** How long a scan takes (a running average, in nanoseconds; written racily, an estimate). */
    private volatile long scanNanos;
    private Condition firstFollower;
    private Condition lastFollower;
    /** Whether any follower is parked (read without the lock by the leader after each event). */
    private volatile boolean anyFollower;
    /**
     * The wait of the lead holder while it arms and blocks in the event descriptor, or null;
     * written under the followers lock.
     */
    private volatile Condition inside;

    /** A thread takes held messages for readers ({@link #adoptHeld}): one at a time, never nested. */
    private final AtomicBoolean adopting = new AtomicBoolean();
    /** The send keeper asks the thread that polls to look for held messages ({@link #adoptHeld}). */
    private volatile boolean adoptWanted;
    /** Held messages taken for readers by other threads (for the send keeper's pace, and tests). */
    private final AtomicLong adoptions = new AtomicLong();

    // Counters, for tests and diagnostics (cheap: blocking waits only).
    private final AtomicInteger mostBlocked = new AtomicInteger();
    private final AtomicLong leaderWakeUps = new AtomicLong();
    private final AtomicLong readyWakeUps = new AtomicLong();
    /** How often {@link #wakeAll} woke every waiter (for tests). */
    private final AtomicLong allWakeUps = new AtomicLong();
    private final AtomicLong handOvers = new AtomicLong();
    private final AtomicLong leaderSignals = new AtomicLong();
    private final AtomicLong sliceRescues = new AtomicLong();
    /** Follower progresses while the lead holder stalled ({@link #leaderStalled}; for tests). */
    private final AtomicLong stallRescues = new AtomicLong();
    /**
     * When the lead holder last took the lead or came back from the event descriptor (a slice at
     * most after it went in): {@link #leaderStalled}.
     */
    private volatile long leaderSeen;

    // Guarded by this: connections torn down lately (a ring), and the sweep's buffers.
    private final int[] deadIds = new int[256];
    private final long[] deadSince = new long[256];
    private int deadNext;
    private ByteBuffer sweepInfo;
    private long sweepInfoAddress;
    private ByteBuffer sweepBuffer;
    private long sweepBufferAddress;

    /**
     * @param handle the worker made by {@link UcxNative#workerCreate()}; owned by this object
     * @param spinMicros how long a wait polls before it blocks ({@code ibis.receive.spin.micros})
     */
    UcxWorker(long handle, long spinMicros, String name) {
        this(handle, spinMicros, name, SLICE_MILLIS);
    }

    /**
     * @param sliceMillis the longest a thread blocks at a time ({@code ibis.ucx.wait.slice}); no
     *        wake-up depends on it, only the looks at deadlines, interrupts and liveness
     */
    UcxWorker(long handle, long spinMicros, String name, long sliceMillis) {
        this.handle = handle;
        this.spinMicros = spinMicros;
        this.sliceNanos = Math.max(1, sliceMillis) * 1_000_000L;
        this.keeper = new UcxSendKeeper(this, "ibis-ucx-send-keeper-" + name);
        this.sideWatcher = new SideWatcher("ibis-ucx-side-watcher-" + name);
    }

    /** A new poll-then-block policy for one waiter (an end of a connection). */
    SpinWait newSpinWait() {
        return new SpinWait(spinMicros);
    }

    /**
     * Waits until {@code condition} is ready.
     *
     * @param spin the waiter's polling policy (null: block at once)
     * @param deadline the {@link System#nanoTime()} after which the wait gives up; 0: never
     * @param interruptible whether an interrupt of the waiting thread ends the wait (with an
     *        {@link InterruptedIOException}, the interrupt status left set); otherwise the wait goes
     *        on through interrupts and leaves the status as it was
     * @return true when the condition is ready; false when the deadline passed
     * @throws IOException what {@link Condition#check()} throws, or a failure of the worker
     */
    boolean await(Condition condition, SpinWait spin, long deadline, boolean interruptible) throws IOException {
        if (poll(condition, spin)) {
            return true;
        }
        return block(condition, deadline, interruptible);
    }

    /**
     * The polling part of {@link #await}: whether {@code condition} is ready now or becomes ready
     * while the thread polls the worker for {@code spin}'s time (null: one look), never blocking.
     */
    boolean poll(Condition condition, SpinWait spin) throws IOException {
        if (unscanned && System.nanoTime() - lastScan >= scanInterval()) {
            scan(null); // what the last poll took in besides its own message (deferScan)
        }
        if (condition.ready()) {
            return true;
        }
        if (spin != null && spin.start()) {
            while (spin.next()) {
                progressDeferringScan();
                if (condition.ready()) {
                    spin.succeeded();
                    return true;
                }
                scanDeferred();
            }
        }
        return false;
    }

    /** How a blocked waiter goes on: see {@link #lead}. */
    private static final int FOLLOW = 0;
    private static final int LEAD = 1;
    private static final int NESTED = 2;

    private boolean block(Condition condition, long deadline, boolean interruptible) throws IOException {
        int role = FOLLOW;
        boolean interrupted = false; // an interrupt a non-interruptible wait put aside (parking ignores none)
        try {
            // Until it blocks, this thread polls, as a spinning waiter does (a leader in the
            // descriptor steps aside for a thread that polls: see mayTakeAwayLead).
            notePoll();
            boolean tookIn = progressBurst();
            boolean quiet = false; // this pass does not look at the condition: see below
            while (true) {
                if (!quiet && condition.ready()) {
                    if (tookIn) {
                        deferScan(condition); // what it took in was most likely its own message
                    }
                    return true;
                }
                if (!quiet && (tookIn || unscanned)) {
                    // Its own wait goes on: what it took in may be others' messages (no event tells them).
                    scan(condition);
                }
                tookIn = false;
                condition.check();
                if (Thread.interrupted()) {
                    if (interruptible) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException("interrupted while waiting for data");
                    }
                    interrupted = true;
                }
                long slice = sliceNanos;
                if (deadline != 0) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    slice = Math.min(slice, left);
                }
                if (role == FOLLOW) {
                    role = lead(condition);
                    if (role == FOLLOW) {
                        if (!quiet && condition.ready()) {
                            return true; // it came before this waiter was a follower the leader looks at
                        }
                        long park = standbyPark(condition, slice);
                        long parkedAt = System.nanoTime();
                        LockSupport.parkNanos(condition, park);
                        boolean timedOut = !condition.signalled && System.nanoTime() - parkedAt >= park;
                        // A follower whose park ran out while another thread polls does not call
                        // into UCX: the poller takes in its message too and wakes it (a scan), and
                        // UCX's worker lock, which the poller holds for long stretches (a
                        // rendezvous copy), is a spin lock: each look would burn a core for
                        // milliseconds (30 parked readers halved a stream beside them).
                        quiet = timedOut && othersPoll(Thread.currentThread());
                        if (!quiet && park == sliceNanos && timedOut && condition.ready()) {
                            noteRescue(condition);
                            return true;
                        }
                        if (!quiet && park == sliceNanos && timedOut && leaderStalled()) {
                            // The lead holder has not been back from the event descriptor for two
                            // slices (stuck in a condition's look, a JNI call, a monitor): nobody
                            // progresses the worker, so this follower does once, and the scan at the
                            // top wakes the others whose messages it took in.
                            stallRescues.incrementAndGet();
                            tookIn = progressBurst();
                        }
                        continue;
                    }
                }
                quiet = false;
                // From here on a change that raises no event (a delivery through UCX's self
                // transport, another thread's progress) signals this thread: see wakeReadyWaiters.
                enter(condition);
                try {
                    int status = UcxNative.arm(handle);
                    if (status == UcxNative.OK) {
                        if (condition.ready()) {
                            return true; // it came before the worker was armed
                        }
                        // What another thread took in before the arm raises no event any more: a
                        // scan it left for later is made now (one it leaves after this wait went
                        // inside, it makes itself: deferScan). What came without an event was
                        // looked at when it came (changedWithoutEvent).
                        if (unscanned) {
                            scan(condition);
                        }
                        int inside = blocked.incrementAndGet();
                        if (inside > mostBlocked.get()) {
                            mostBlocked.accumulateAndGet(inside, Math::max);
                        }
                        int woken;
                        try {
                            woken = UcxNative.waitEvent(handle, (int) ((slice + 999_999) / 1_000_000));
                        } finally {
                            blocked.decrementAndGet();
                        }
                        if (woken < 0) {
                            throw new IOException("waiting for the UCX worker's events failed: "
                                    + UcxNative.statusString(woken));
                        }
                        leaderWakeUps.incrementAndGet();
                        leaderSeen = System.nanoTime();
                        if (woken == 0 && slice == sliceNanos && condition.ready()) {
                            noteRescue(condition); // it was there all the slice long: a lost wake-up
                            progressBurst();
                            wakeReadyWaiters(condition);
                            return true;
                        }
                    } else if (status != UcxNative.ERR_BUSY) { // busy: events arrived meanwhile, progress them
                        throw new IOException("ucp_worker_arm failed: " + UcxNative.statusString(status));
                    }
                } finally {
                    exit();
                }
                tookIn = progressBurst();
                if (condition.ready()) {
                    if (tookIn) {
                        deferScan(condition);
                    }
                    return true; // (ready() may consume: its answer must be used)
                }
                scan(condition); // woken, but not for its own wait: for a follower's, most likely
                if (role == LEAD && othersPoll(Thread.currentThread())) {
                    // A thread polls the worker (it takes in its own messages and wakes the
                    // followers whose messages it took in): each event would only wake this
                    // thread for nothing.
                    role = FOLLOW;
                    LockSupport.parkNanos(condition, stepAside(condition, slice));
                }
            }
        } finally {
            leave(condition, role == LEAD);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Progresses until nothing is left (bounded, so that the condition is looked at); whether anything was. */
    private boolean progressBurst() {
        int i = 0;
        int n;
        while (i < PROGRESS_BURST && (n = UcxNative.progress(handle)) != 0) {
            unaccounted.addAndGet(n);
            i++;
        }
        if (adoptWanted) {
            adoptHeldWanted();
        }
        return i > 0;
    }

    /**
     * Whether a held message ({@link UcxConnection#KIND_HELD}: its sender waits until it is
     * received) has arrived for any connection of this worker. A look that takes nothing, any thread.
     */
    boolean heldMessageArrived() {
        return UcxNative.peek(handle, (long) UcxConnection.KIND_HELD << 28, UcxConnection.KIND_MASK) != 0;
    }

    /**
     * Takes the held messages that have arrived for sources whose readers are not inside a call,
     * for those readers ({@link UcxByteSource#adoptHeld}), and wakes the waiters whose wait it may
     * have ended when it took any (a reader of such a source, alone or in a wait set; not every
     * parked thread: beside GMI's parked upcall readers, waking them all per taken message made two
     * processes that exchange direct buffers 2-3x slower): a remote writer waits for them, and must
     * not wait for the reading application. Called by a writer that waits for its own held sends,
     * by a polling thread the send keeper asked ({@link #askForAdoption}), and by the send keeper.
     * One thread at a time; a call inside another (a take waits for its receive) looks at nothing.
     *
     * @return whether it took anything
     */
    boolean adoptHeld() {
        if (!heldMessageArrived() || !adopting.compareAndSet(false, true)) {
            return false;
        }
        boolean took = false;
        try {
            for (UcxSendKeeper.Sender end : keeper.ends()) {
                if (end instanceof UcxByteSource source && source.adoptHeld()) {
                    took = true;
                }
            }
        } finally {
            adopting.set(false);
        }
        if (took) {
            adoptions.incrementAndGet();
            wakeReadyWaiters(null); // the reader may wait, alone or in a set for any of its sources
        }
        return took;
    }

    /**
     * The send keeper's progress before it looks for held messages: as {@link #progress()}, but it
     * does not count as polling (waiters would step aside from the event descriptor for it).
     */
    void progressForLook() {
        int n = UcxNative.progress(handle);
        if (n != 0 || unscanned) {
            scan(null);
        }
    }

    /**
     * Whether a thread waits on the worker: blocks in the event descriptor (or is about to), or is
     * parked as a follower. Such a thread progresses the worker when an event comes; the send
     * keeper then leaves progress to it ({@link #wakeForAdoption}).
     */
    boolean anyWaiter() {
        synchronized (followersLock) {
            return leader != null && !leaderAway || firstFollower != null || inside != null;
        }
    }

    /**
     * For the send keeper while threads wait on the worker: when a held message has arrived (a
     * waiter progressed it in but does not look for held messages), asks the lead holder to take it
     * and wakes it from the event descriptor.
     */
    void wakeForAdoption() {
        if (heldMessageArrived()) {
            adoptWanted = true;
            UcxNative.signal(handle);
        }
    }

    /** The look the send keeper asked for, by the polling thread. */
    private void adoptHeldWanted() {
        adoptWanted = false;
        adoptHeld();
    }

    /**
     * For the send keeper while another thread polls (UCX's worker lock is a spin lock it holds for
     * long stretches): that thread looks for held messages after its next progress.
     */
    void askForAdoption() {
        adoptWanted = true;
    }

    /** Held messages taken for readers by other threads so far. */
    long adoptions() {
        return adoptions.get();
    }

    /**
     * Progresses the worker once, for a thread that polls (not the leader): when that took in
     * events while followers are parked, wakes those whose wait may now be over. A message taken
     * in here raises no event for the leader (the descriptor may have been armed after it came),
     * so without this its follower would wait for the end of its slice. Not to be called with the
     * monitor of a sink held ({@link Condition#mayBeReady()} of a sink takes it).
     *
     * @return the events handled
     */
    int progress() {
        notePoll();
        int n = UcxNative.progress(handle);
        if (n != 0 || unscanned) {
            scan(null);
        }
        if (adoptWanted) {
            adoptHeldWanted();
        }
        return n;
    }

    /**
     * {@link #progress()} for a thread that looks at its own wait right after: the scan for other
     * waiters whose messages came is left for {@link #scanDeferred()} (when this thread's own wait
     * goes on) or at most {@link #SCAN_NANOS}. A thread that receives message after message then
     * does not look at every parked waiter per message (a probe each), and a parked waiter's
     * message is still seen within that time while the thread polls (when it stops polling, the
     * stand-by takes the lead within about {@link #POLLING_NANOS}, and its first progress scans).
     *
     * @return the events handled
     */
    int progressDeferringScan() {
        notePoll();
        int n = UcxNative.progress(handle);
        tookIn(n);
        return n;
    }

    /** After a poll that handled {@code n} events: the deferred scan, and adoption when asked for. */
    private void tookIn(long n) {
        if (n != 0) {
            unaccounted.addAndGet(n);
        }
        if (n != 0 || unscanned) {
            deferScan(null);
        }
        if (adoptWanted) {
            adoptHeldWanted();
        }
    }

    /**
     * {@link #progressDeferringScan()} and a probe for a reader that waits for its next message and
     * would poll again at once: up to {@value #SPIN_POLLS} progresses and probes in native code
     * ({@link UcxNative#progressProbe}), so a message is seen at the pace of UCX's own progress rather
     * than at that of the reader's loop (its calls, checks, pauses and clock reads). Stops at the
     * first progress that handled events (they may be other waiters' messages; the deferred scan
     * looks for those as after a single progress). A single turn when polling does not pay: the
     * spin time is 0 or the host is crowded ({@link HostLoad}).
     *
     * @param info 24 bytes at {@code infoAddress}: the message's length and sender tag, then the
     *        events handled
     * @return the message handle (to be received exactly once), or 0
     */
    long progressProbe(long tag, long mask, long infoAddress, ByteBuffer info) {
        notePoll();
        int polls = spinMicros > 0 && !HostLoad.crowded() ? SPIN_POLLS : 1;
        long m = UcxNative.progressProbe(handle, tag, mask, infoAddress, polls);
        tookIn(info.getLong(16));
        return m;
    }

    /** Progresses and probes of one {@link #progressProbe} at most. */
    static final int SPIN_POLLS = 32;

    /**
     * The scan {@link #progressDeferringScan()} left, when it left one and four scans' time passed
     * since the last: a thread whose own wait goes on polls again at once, so it would otherwise
     * scan after every message it takes in (a ping-pong does, between its reply and the next
     * message) and pay a probe per parked waiter each time. With the 30 parked readers of the ipl
     * suite's peer that was most of a 1-byte round trip; now scans take at most a fifth of the
     * polling, and with few parked waiters (a scan of a few tens of nanoseconds) they are still made
     * at once, so their messages wait no longer than before.
     */
    void scanDeferred() {
        if (unscanned && System.nanoTime() - lastScan >= 4 * scanNanos) {
            scan(null);
        }
    }

    /**
     * Notes a poll for {@link #othersPoll}: the time only at a change of poller and at every
     * {@value #CLOCK_POLLS}th poll of the same thread, so {@link #lastPoll} may lag its last polls by
     * a few microseconds while it spins (against the {@link #POLLING_NANOS} that matter). A spinning
     * waiter read the clock twice per poll before (its {@link SpinWait} and here), each read about
     * 30 ns on this VM's kvm-clock: a sixth of an idle poll.
     */
    private void notePoll() {
        Thread me = Thread.currentThread();
        if (lastPoller != me) {
            pollsUnclocked = 0;
            lastPoll = System.nanoTime();
            lastPoller = me;
        } else if (++pollsUnclocked >= CLOCK_POLLS) {
            pollsUnclocked = 0;
            lastPoll = System.nanoTime();
        }
    }

    /** Looks at every parked waiter (and the one inside) but {@code mine}: {@link #wakeReadyWaiters}. */
    private void scan(Condition mine) {
        unscanned = false;
        unaccounted.set(0);
        long start = System.nanoTime();
        wakeReadyWaiters(mine);
        long end = System.nanoTime();
        lastScan = end;
        scanNanos += (end - start - scanNanos) >> 3;
    }

    /**
     * After a thread took in events: the scan for the other waiters, left for later
     * ({@link #unscanned}): for the polling thread's next look or wait ({@link #scanDeferred}, the
     * start of {@link #await}), before the lead blocks in the descriptor, or when the stand-by
     * takes the lead; and not made at all when the readers account for everything taken in as
     * their own messages ({@link #tookMessage}): what a poller took in is most likely its own
     * message, which it receives next. A scan right here looked at every parked waiter after
     * nearly every message of a ping-pong beside thirty parked readers (three peeks each), at most
     * every {@link #scanInterval()}: its one-way latency was 1.5-2.0 µs against 1.0-1.3 without
     * them. Made here when overdue (four intervals), and at once when a waiter is inside the event
     * descriptor: it may have looked at {@code unscanned} already, and what was taken in raises no
     * event for it.
     */
    private void deferScan(Condition mine) {
        if (!anyFollower && inside == null) {
            return; // a waiter that parks or arms later looks at its condition after that
        }
        unscanned = true;
        Condition in = inside;
        if (in != null && in != mine || System.nanoTime() - lastScan >= 4 * scanInterval()) {
            scan(mine);
        }
    }

    /**
     * A reader took a message that a poll took in (not one over a connection to this worker, which
     * UCX delivers without an event): when that accounts for every event taken in since the last
     * scan, the scan left for later is not due. A message another poll takes in meanwhile sets
     * {@link #unscanned} after counting itself, and is seen by the second look here.
     */
    void tookMessage() {
        if (unaccounted.get() > 0 && unaccounted.updateAndGet(ACCOUNT_ONE) == 0 && unscanned) {
            unscanned = false;
            if (unaccounted.get() > 0) {
                unscanned = true;
            }
        }
    }

    private static final java.util.function.LongUnaryOperator ACCOUNT_ONE = v -> v > 0 ? v - 1 : 0;

    /**
     * How long a scan may be left: {@link #SCAN_NANOS}, or longer when scans take long (many
     * parked waiters: a probe each), so that they take at most a fifth of a polling thread's time.
     */
    private long scanInterval() {
        return Math.max(SCAN_NANOS, 4 * scanNanos);
    }

    /**
     * Takes the lead when nobody has it, else (once) joins the followers.
     *
     * @return {@link #LEAD}; {@link #NESTED} when this thread leads already (a condition that waits
     *         for a request of its own inside {@link Condition#ready()}); or {@link #FOLLOW}
     */
    private int lead(Condition condition) {
        Thread me = Thread.currentThread();
        synchronized (followersLock) {
            condition.signalled = false;
            if (leader == me && !leaderAway) {
                return NESTED;
            }
            if (leader == null || leaderAway && mayTakeAwayLead(condition, me)) {
                leader = me;
                leaderAway = false;
                leaderSeen = System.nanoTime();
                unqueue(condition);
                return LEAD;
            }
            enqueue(condition, me);
            return FOLLOW;
        }
    }

    /** Puts a waiter at the end of the followers, unless it is there; the caller holds the lock. */
    private void enqueue(Condition condition, Thread me) {
        if (condition.queued) {
            return;
        }
        if (condition.thread != null && condition.thread != me) {
            throw new IllegalStateException("two threads wait on one condition");
        }
        condition.thread = me;
        condition.queued = true;
        condition.prev = lastFollower;
        condition.next = null;
        if (lastFollower == null) {
            firstFollower = condition;
        } else {
            lastFollower.next = condition;
        }
        lastFollower = condition;
        anyFollower = true;
    }

    /**
     * Whether a waiter takes over a lead that is away; the caller holds the lock. Any waiter but
     * the stand-by does (nobody is in the descriptor); the stand-by only when the lead stayed away
     * since its last look, {@link #STANDBY_NANOS} ago. Neither while another thread polls the
     * worker ({@link #othersPoll}): that thread takes in every message and wakes the followers
     * whose message came ({@link #progress}), so a leader in the descriptor would only cost: UCX's
     * shared-memory transports make a sender to an armed worker signal it (a system call per
     * message), and each wake-up of the leader takes a core from the threads that poll. Then the
     * waiter becomes the stand-by if there is none, so that the lead comes back when the polling
     * stops.
     */
    private boolean mayTakeAwayLead(Condition condition, Thread me) {
        boolean othersPoll = othersPoll(me);
        if (condition != standby) {
            if (!othersPoll) {
                return true;
            }
            if (standby == null) {
                standby = condition;
                condition.seenEpoch = awayEpoch;
                condition.presentLooks = 0;
                condition.pollingLooks = 0;
            }
            return false;
        }
        if (condition.seenEpoch == awayEpoch && !othersPoll) {
            return true;
        }
        condition.seenEpoch = awayEpoch;
        condition.presentLooks = 0;
        return false;
    }

    /** Whether a thread other than {@code me} progressed the worker by polling lately ({@link #POLLING_NANOS}). */
    private boolean othersPoll(Thread me) {
        return polledWithin(me, POLLING_NANOS);
    }

    /** Whether a thread other than {@code me} polled the worker in the last {@code nanos}. */
    private boolean polledWithin(Thread me, long nanos) {
        return lastPoller != me && System.nanoTime() - lastPoll < nanos;
    }

    /** {@link #othersPoll} for the calling thread: another thread progressed the worker lately. */
    boolean othersPolling() {
        return othersPoll(Thread.currentThread());
    }

    /**
     * Whether another thread progressed the worker within the last {@link #STANDBY_NANOS}: for the
     * send keeper, which leaves a held message to such a thread ({@link #askForAdoption}) and looks
     * again only later, so that thread must be polling still, not only lately.
     */
    boolean othersPollingNow() {
        return polledWithin(Thread.currentThread(), STANDBY_NANOS);
    }

    /**
     * How long a follower parks: the stand-by only briefly, until the leader was there
     * {@link #STANDBY_LOOKS} times in a row (then it ends its duty; the next departure of a leader
     * picks a stand-by again).
     */
    private long standbyPark(Condition condition, long slice) {
        synchronized (followersLock) {
            if (condition != standby) {
                return slice;
            }
            if (!leaderAway) {
                if (++condition.presentLooks >= STANDBY_LOOKS) {
                    standby = null;
                    return slice;
                }
                condition.seenEpoch = awayEpoch;
                condition.pollingLooks = 0;
            } else if (othersPoll(Thread.currentThread())) {
                condition.pollingLooks = Math.min(STANDBY_MAX_SHIFT, condition.pollingLooks + 1);
            } else {
                condition.pollingLooks = 0;
            }
            return Math.min(slice, STANDBY_NANOS << condition.pollingLooks);
        }
    }

    /**
     * The leader steps aside for a polling thread: the lead is away and the leader a follower, and
     * the stand-by unless one is on duty (so the lead comes back when the polling ends without a
     * blocking wait).
     *
     * @return how long it parks: briefly as the stand-by; a slice when a stand-by is on duty already
     */
    private long stepAside(Condition condition, long slice) {
        synchronized (followersLock) {
            leaderAway = true;
            awayEpoch++;
            enqueue(condition, Thread.currentThread());
            if (standby != null) {
                return slice;
            }
            standby = condition;
            condition.seenEpoch = awayEpoch;
            condition.presentLooks = 0;
            condition.pollingLooks = 0;
            return Math.min(slice, STANDBY_NANOS);
        }
    }

    /** Takes a follower out of the list; the caller holds the lock. */
    private void unqueue(Condition condition) {
        if (standby == condition) {
            standby = null;
        }
        if (!condition.queued) {
            return;
        }
        if (condition.prev == null) {
            firstFollower = condition.next;
        } else {
            condition.prev.next = condition.next;
        }
        if (condition.next == null) {
            lastFollower = condition.prev;
        } else {
            condition.next.prev = condition.prev;
        }
        condition.next = null;
        condition.prev = null;
        condition.queued = false;
        condition.thread = null;
        anyFollower = firstFollower != null;
    }

    /**
     * The end of a blocking wait: a follower leaves the list; a leader gives up the lead. Then,
     * when nobody leads while followers wait (also when a follower that was to take over the lead
     * ends its wait instead), one of them is unparked to take it over.
     */
    private void leave(Condition condition, boolean leading) {
        synchronized (followersLock) {
            unqueue(condition);
            if (leading) {
                leaderAway = true;
                awayEpoch++;
            }
            if (firstFollower == null) {
                return;
            }
            if (leader == null) {
                Condition next = firstFollower;
                next.signalled = true;
                handOvers.incrementAndGet();
                LockSupport.unpark(next.thread);
            } else if (leaderAway && standby == null) {
                standby = firstFollower;
                standby.seenEpoch = awayEpoch;
                standby.presentLooks = 0;
                handOvers.incrementAndGet();
                LockSupport.unpark(standby.thread); // to park again, briefly
            }
        }
    }

    /**
     * After this thread took in events, or made a change no event reports: unparks the followers
     * whose wait may be over, and signals the thread in the event descriptor when its own wait may
     * be over (another thread's progress may have taken in its message and, over TCP, the event
     * with it; a delivery through UCX's self transport raises none).
     *
     * @param mine the caller's own wait (not looked at), or null
     */
    private void wakeReadyWaiters(Condition mine) {
        if (!anyFollower && inside == null) {
            return;
        }
        boolean signal = false;
        synchronized (followersLock) {
            for (Condition c = firstFollower; c != null; c = c.next) {
                if (c != mine && !c.signalled && mayBeReady(c)) {
                    c.signalled = true;
                    readyWakeUps.incrementAndGet();
                    LockSupport.unpark(c.thread);
                }
            }
            Condition c = inside;
            if (c != null && c != mine && mayBeReady(c)) {
                signal = true;
            }
        }
        if (signal) {
            leaderSignals.incrementAndGet();
            UcxNative.signal(handle);
        }
    }

    /**
     * Messages may have come in that no event reports: a send over a connection to this same
     * worker (UCX's {@code self} transport delivers it, or completes a rendezvous, in the sender's
     * call), or the worker was progressed inside another UCX call (an endpoint's close). Wakes the
     * waiters whose wait may be over, the one in the event descriptor included.
     */
    void changedWithoutEvent() {
        wakeReadyWaiters(null);
    }

    /** The lead holder goes into the event descriptor with its wait (the scans look at it). */
    private void enter(Condition condition) {
        synchronized (followersLock) {
            inside = condition;
        }
    }

    /** ... and out again (under the lock: a scan never looks at a wait that has ended). */
    private void exit() {
        synchronized (followersLock) {
            inside = null;
        }
    }

    /**
     * Whether another thread holds the lead (not away) and has not come back from the event
     * descriptor, nor taken the lead, for two slices: it is stuck elsewhere, and followers would
     * wait for it with their messages untaken.
     */
    private boolean leaderStalled() {
        synchronized (followersLock) {
            return leader != null && leader != Thread.currentThread() && !leaderAway
                    && System.nanoTime() - leaderSeen > 2 * sliceNanos;
        }
    }

    /** How often a follower progressed the worker because the lead holder stalled (for tests). */
    long stallRescues() {
        return stallRescues.get();
    }

    /** A wait found its condition ready only when its slice ran out: counted (for tests) and logged. */
    private void noteRescue(Condition condition) {
        sliceRescues.incrementAndGet();
        LOG.debug("a wait on {} was found ready only at the end of its slice (a lost wake-up)", condition);
    }

    private static boolean mayBeReady(Condition c) {
        try {
            return c.mayBeReady();
        } catch (RuntimeException e) {
            return true; // let the waiter find out itself
        }
    }

    /**
     * Wakes every thread blocked on the worker, the leader and the followers, so that they look at
     * their waits again (an end closed, a wait set woken).
     */
    void wakeAll() {
        allWakeUps.incrementAndGet();
        UcxNative.signal(handle);
        if (anyFollower) {
            synchronized (followersLock) {
                for (Condition c = firstFollower; c != null; c = c.next) {
                    c.signalled = true;
                    LockSupport.unpark(c.thread);
                }
            }
        }
    }

    /** The most threads that were in the event descriptor at once (for tests). */
    int mostBlocked() {
        return mostBlocked.get();
    }

    /** How often the leader came back from the event descriptor (for tests). */
    long leaderWakeUps() {
        return leaderWakeUps.get();
    }

    /** How many followers the leader unparked because their wait might be over (for tests). */
    long readyWakeUps() {
        return readyWakeUps.get();
    }

    /** How often every waiter was woken at once, for a close or a woken wait set (for tests). */
    long allWakeUps() {
        return allWakeUps.get();
    }

    /**
     * Waits that found their condition ready only when their slice ran out (a wake-up that was
     * lost and only the slice made up for; for tests: 0 when nothing is lost).
     */
    long sliceRescues() {
        return sliceRescues.get();
    }

    /** How often a scan signalled the thread in the event descriptor (for tests). */
    long leaderSignals() {
        return leaderSignals.get();
    }

    /** How often a follower was unparked to take over the lead (for tests). */
    long handOvers() {
        return handOvers.get();
    }

    /** The threads parked as followers now (for tests). */
    int followers() {
        synchronized (followersLock) {
            int n = 0;
            for (Condition c = firstFollower; c != null; c = c.next) {
                n++;
            }
            return n;
        }
    }

    /** The thread that leads (blocks in the event descriptor or is about to) now, or null (for tests). */
    Thread leader() {
        synchronized (followersLock) {
            return leaderAway ? null : leader;
        }
    }

    /**
     * Takes one more reference (a new connection), unless the worker has been destroyed or is
     * about to be.
     *
     * @return false when the worker is gone (the transport closed and every connection ended)
     */
    boolean tryRetain() {
        while (true) {
            int n = references.get();
            if (n <= 0) {
                return false;
            }
            if (references.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    /** Drops a reference; the last one destroys the worker. */
    void release() {
        int n = references.decrementAndGet();
        if (n == 0) {
            LOG.debug("destroying the UCX worker");
            keeper.stop();
            sideWatcher.stop();
            int left = drain(0, 0);
            if (left > 0) {
                LOG.debug("{} messages for closed connections were still queued", left);
            }
            UcxNative.workerDestroy(handle);
        } else if (n < 0) {
            throw new IllegalStateException("UCX worker released once too often");
        }
    }

    /** Whether the worker has been destroyed (for tests). */
    boolean destroyed() {
        return references.get() <= 0;
    }

    /**
     * A connection was torn down: messages that still arrive for it (typically a last credit sent
     * after its sink closed, or a CLOSE after its source closed) would stay in UCX's queue of
     * unexpected messages until the worker ends. Its id is remembered for {@value #DEAD_KEEP_SECONDS}
     * s, and every tear-down takes what arrived for the ids remembered ({@link #sweep()}).
     */
    synchronized void connectionEnded(int id) {
        deadIds[deadNext] = id;
        deadSince[deadNext] = System.nanoTime();
        deadNext = (deadNext + 1) % deadIds.length;
        sweep();
    }

    /** Takes and drops the messages that arrived for connections torn down lately. */
    synchronized void sweep() {
        long now = System.nanoTime();
        for (int i = 0; i < deadIds.length; i++) {
            if (deadIds[i] == 0) {
                continue;
            }
            if (now - deadSince[i] > DEAD_KEEP_SECONDS * 1_000_000_000L) {
                deadIds[i] = 0;
                continue;
            }
            drain(UcxConnection.tag(deadIds[i], 0), CONNECTION_MASK);
        }
    }

    /**
     * Receives and drops every message queued whose tag matches {@code tag} under {@code mask};
     * each receive is bounded in time (a large message whose sender is gone is given up).
     *
     * @return how many were taken
     */
    private synchronized int drain(long tag, long mask) {
        if (sweepInfo == null) {
            sweepInfo = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
            sweepInfoAddress = address(sweepInfo);
            sweepBuffer = ByteBuffer.allocateDirect(SWEEP_BUFFER);
            sweepBufferAddress = address(sweepBuffer);
        }
        int taken = 0;
        while (true) {
            long m = UcxNative.probe(handle, tag, mask, sweepInfoAddress);
            if (m == 0) {
                return taken;
            }
            taken++;
            long length = sweepInfo.getLong(0);
            ByteBuffer into = sweepBuffer;
            long intoAddress = sweepBufferAddress;
            if (length > SWEEP_BUFFER) {
                if (length > UcxPropertyTable.PROTOCOL_MESSAGE_MAX) {
                    LOG.debug("leaving a queued message of {} bytes (tag {}) to UCX", length, Long.toHexString(tag));
                    continue;
                }
                into = ByteBuffer.allocateDirect((int) length);
                intoAddress = address(into);
            }
            long r = UcxNative.receiveMessage(handle, m, intoAddress, length);
            if (r > 0) {
                long deadline = System.nanoTime() + 1_000_000_000L;
                while (UcxNative.requestStatus(r) == UcxNative.IN_PROGRESS && System.nanoTime() - deadline < 0) {
                    progress(); // wakes those whose messages it took in
                }
                RequestCompletion.abandon(this, r, into);
            }
        }
    }

    /** Keeps {@code memory} (a buffer UCX may still use) reachable for the rest of the JVM's life. */
    static void pinForever(Object memory) {
        if (memory != null) {
            PINNED.add(memory);
            LOG.debug("keeping a buffer of an unfinished UCX request for good ({} so far)", PINNED.size());
        }
    }

    /** The native address of a direct buffer's first byte (index 0). */
    static long address(ByteBuffer direct) {
        return UcxNative.address(direct);
    }
}
