package ibis.ipl.contract;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Condition waits for the tests. These are not timing assertions: the limits only turn a hang into
 * a clear failure long before the TestNG time-out, and they are far above what any correct run needs.
 */
final class Waits {

    /** Upper bound for anything that must eventually happen. */
    static final long EVENTUALLY_MILLIS = 15_000;

    private Waits() {
    }

    /** Waits until {@code condition} holds; fails with {@code what} when it never does. */
    static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EVENTUALLY_MILLIS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("never happened: " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }

    /**
     * Waits (at most a few seconds, without failing) until a thread is parked, waiting or blocked, or
     * has ended, so that a test can check that a call it made is really blocking. When the thread
     * never parks the test just continues; a check made afterwards then cannot give a false failure.
     */
    static void untilBlockedOrDone(Thread thread) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            Thread.State s = thread.getState();
            if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING || s == Thread.State.BLOCKED
                    || s == Thread.State.TERMINATED) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
