package ibis.ipl.impl;

/**
 * "Poll briefly, then block" (Ibis paper, section 3.2.2), the waiting policy of a reader that
 * expects data soon: an explicit receive waiting for a reply, an upcall reader after an upcall, a
 * transport waiting for the rest of a message. Polling saves the thread wake-up that a blocked
 * reader costs when the data comes; blocking frees the processor when it does not.
 *
 * <p>Between polls the poller pauses ({@link Thread#onSpinWait()}) and, every
 * {@value #YIELD_EVERY}th time (or as often as its creator says) while the host is crowded (more
 * runnable threads than processors,
 * {@link HostLoad}), yields the processor. Pausing keeps the poll loop tight: a yield is a system
 * call (one to two microseconds on a virtual machine), and when the peer runs on another core, as
 * two ranks of a job on a host with enough cores do, a yield after every poll was most of a
 * shared-memory round trip, and one after every 16th still added a microsecond to a one-way
 * latency of two (MPI, this VM). On a crowded host the occasional yield lets a sender that runs on
 * the same processor go ahead soon (a pure busy spin would keep it off for the whole spin time,
 * adding that to every round trip). A pause or yield that comes back late, later than the whole spin
 * time, shows that other work holds this processor (more busy threads than cores); polling then
 * only loses time against it, while a blocked reader is woken as soon as the data comes. So the
 * poller stops at once and skips polling for the next 1, 2, 4, ... waits (at most
 * {@value #MAX_SKIP}); a poll that succeeds ends the back-off.
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
    /** One wait in this many between polls yields the processor; the others pause. */
    public static final int YIELD_EVERY = 16;
    /**
     * The clock is read at the first wait of a spin, after every yield and at every this many
     * pauses: a read costs about 30 ns on a virtual machine's kvm-clock, a sixth of an idle poll of
     * a shared-memory transport, while a pause and a poll take well under a microsecond. So the spin
     * ends, and a late pause is noticed, at most this many polls late.
     */
    public static final int CLOCK_EVERY = 4;

    private final long spinNanos;
    private final java.util.function.LongSupplier clock;
    private final Runnable yielder;
    private final Runnable pauser;
    private final java.util.function.BooleanSupplier crowded;
    private final int yieldEvery;
    private int pauses;
    /** Pauses since the clock was last read. */
    private int unclocked;
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
        this(spinMicros, YIELD_EVERY, System::nanoTime, Thread::yield, Thread::onSpinWait, HostLoad::crowded);
    }

    /**
     * Creates the policy of one reader with its own yield period.
     *
     * @param spinMicros how long one wait polls at most (0: never poll)
     * @param yieldEvery on a crowded host, one wait in this many yields the processor (at least 1)
     */
    public SpinWait(long spinMicros, int yieldEvery) {
        this(spinMicros, yieldEvery, System::nanoTime, Thread::yield, Thread::onSpinWait, HostLoad::crowded);
    }

    /**
     * For tests: a given yield period, clock (nanoseconds), ways of yielding and pausing, and answer
     * to whether the host is crowded.
     */
    SpinWait(long spinMicros, int yieldEvery, java.util.function.LongSupplier clock, Runnable yielder,
            Runnable pauser, java.util.function.BooleanSupplier crowded) {
        this.spinNanos = Math.max(0, spinMicros) * 1000L;
        this.yieldEvery = Math.max(1, yieldEvery);
        this.clock = clock;
        this.yielder = yielder;
        this.pauser = pauser;
        this.crowded = crowded;
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
        unclocked = CLOCK_EVERY - 1; // the first wait reads the clock
        return true;
    }

    /**
     * Pauses once, or yields the processor (every {@value #YIELD_EVERY}th call, or the creator's
     * period, while the host is crowded); reads the clock at the first call, after a yield and at
     * every {@value #CLOCK_EVERY}th pause.
     *
     * @return true when the caller should poll again; false when the polling time is over or the
     *         pause or yield came back so late that other work evidently holds this processor (then the
     *         next waits block at once, see the class comment)
     */
    public boolean next() {
        boolean yield = false;
        if (++pauses >= yieldEvery) {
            pauses = 0;
            yield = crowded.getAsBoolean();
        }
        if (yield) {
            yielder.run();
        } else {
            pauser.run();
            if (++unclocked < CLOCK_EVERY) {
                return true;
            }
        }
        unclocked = 0;
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
