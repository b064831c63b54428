package ibis.ipl.impl;

/**
 * "Poll briefly, then block" (Ibis paper, section 3.2.2), the waiting policy of a reader that
 * expects data soon: an explicit receive waiting for a reply, an upcall reader after an upcall, a
 * transport waiting for the rest of a message. Polling saves the thread wake-up that a blocked
 * reader costs when the data comes; blocking frees the processor when it does not.
 *
 * <p>Between polls the poller pauses ({@link Thread#onSpinWait()}) and now and then yields the
 * processor: every {@value #YIELD_EVERY}th time, or (a waiter made with a yield interval) once per
 * interval of polling. Pausing keeps the poll loop tight: a yield is a system call (about a
 * microsecond on a virtual machine), and when the peer runs on another core, as two ranks of a job
 * on a host with enough cores do, a message that arrives during a yield waits for it to return. A
 * yield after every poll was most of a shared-memory round trip. The occasional yield lets a thread
 * that runs on the same processor go ahead soon (a pure busy spin would keep it off for the whole
 * spin time, adding that to every round trip). Which rhythm fits depends on who ends the wait: a
 * waiter whose data another thread of its process brings (a GMI call's reply, handed over by the
 * upcall that read it) needs that thread to run, and yields every {@value #YIELD_EVERY} polls; a
 * thread that receives from another process itself (an explicit receive on a port with one sender)
 * gains by yielding less: through MPI, where 16 polls take a few microseconds, once per 10 µs made
 * the one-way latency 0.66 instead of 0.80 µs, while the same rhythm for every waiter tripled GMI's
 * call time between two processes on two cores (its reply threads waited for the processor).
 *
 * <p>A pause or yield that comes back late, later than the whole spin time, shows that other work
 * holds this processor (more busy threads than cores); polling then only loses time against it,
 * while a blocked reader is woken as soon as the data comes. So the poller stops at once and skips
 * polling for the next 1, 2, 4, ... waits (at most {@value #MAX_SKIP}); a poll that succeeds ends
 * the back-off.
 *
 * <p>Usage, by the one thread that waits on the object at a time:
 * <pre>{@code
 * if (spin.start()) {
 *     while (spin.next()) {
 *         if (dataReady()) { spin.succeeded(); return true; }
 *     }
 * }
 * block();
 * }</pre>
 * Nothing allocates. Not thread-safe: one waiter at a time (a race between two only skews the
 * back-off).
 */
public final class SpinWait {

    /** The longest back-off, in waits without polling. */
    public static final int MAX_SKIP = 1024;
    /** One wait in this many between polls yields the processor; the others pause (by default). */
    public static final int YIELD_EVERY = 16;
    /** The yield interval of {@link #receivingItself}: nanoseconds of polling between two yields. */
    public static final long RECEIVER_YIELD_INTERVAL_NANOS = 10_000;

    private final long spinNanos;
    private final java.util.function.LongSupplier clock;
    private final Runnable yielder;
    private final Runnable pauser;
    /** 0: yield every {@link #YIELD_EVERY} pauses; else nanoseconds of polling between yields. */
    private final long yieldIntervalNanos;
    private int pauses;
    private long lastYield;
    private int skip;
    private int backoff;
    private long start;
    private long last;

    /**
     * Creates the policy of one reader.
     *
     * @param spinMicros how long one wait polls at most (0: never poll)
     */
    public SpinWait(long spinMicros) {
        this(spinMicros, 0, System::nanoTime, Thread::yield, Thread::onSpinWait);
    }

    /**
     * The policy of a thread that receives from another process itself (no other thread of its own
     * brings the data): it yields once per {@value #RECEIVER_YIELD_INTERVAL_NANOS} ns of polling.
     *
     * @param spinMicros how long one wait polls at most (0: never poll)
     */
    public static SpinWait receivingItself(long spinMicros) {
        return new SpinWait(spinMicros, RECEIVER_YIELD_INTERVAL_NANOS, System::nanoTime, Thread::yield,
                Thread::onSpinWait);
    }

    /**
     * For tests: a given yield interval (0: every {@link #YIELD_EVERY} pauses), clock (nanoseconds)
     * and ways of yielding and pausing.
     */
    SpinWait(long spinMicros, long yieldIntervalNanos, java.util.function.LongSupplier clock, Runnable yielder,
            Runnable pauser) {
        this.spinNanos = Math.max(0, spinMicros) * 1000L;
        this.yieldIntervalNanos = yieldIntervalNanos;
        this.clock = clock;
        this.yielder = yielder;
        this.pauser = pauser;
    }

    /** The polling time of one wait, in nanoseconds. */
    public long spinNanos() {
        return spinNanos;
    }

    /**
     * Starts a wait.
     *
     * @return true when the caller should poll (with {@link #next()}); false when it should block
     *         at once (polling is off, or backing off)
     */
    public boolean start() {
        if (spinNanos == 0) {
            return false;
        }
        if (skip > 0) {
            skip--;
            return false;
        }
        start = clock.getAsLong();
        last = start;
        lastYield = start;
        return true;
    }

    /**
     * Pauses once, or yields the processor (every {@value #YIELD_EVERY}th call, or when the yield
     * interval passed since the start or the last yield).
     *
     * @return true when the caller should poll again; false when the polling time is over or the
     *         pause or yield came back so late that other work evidently holds this processor (then the
     *         next waits block at once, see the class comment)
     */
    public boolean next() {
        if (yieldIntervalNanos > 0 ? last - lastYield >= yieldIntervalNanos : ++pauses == YIELD_EVERY) {
            pauses = 0;
            lastYield = last;
            yielder.run();
        } else {
            pauser.run();
        }
        long now = clock.getAsLong();
        if (now - last > spinNanos) {
            backoff = backoff == 0 ? 1 : Math.min(MAX_SKIP, backoff * 2);
            skip = backoff;
            return false;
        }
        last = now;
        return now - start < spinNanos;
    }

    /** The data came while polling: polling pays off here, so any back-off ends. */
    public void succeeded() {
        backoff = 0;
    }

    /** Waits that will still block at once (for tests). */
    int skipping() {
        return skip;
    }
}
