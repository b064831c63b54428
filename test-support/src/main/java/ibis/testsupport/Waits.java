package ibis.testsupport;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Condition waits for tests: until a condition holds, until a thread blocks. These are not timing
 * assertions: the limits only turn a hang into a clear failure long before the TestNG time-out, and
 * they are far above what any correct run needs.
 */
public final class Waits {

    /** Upper bound for anything that must eventually happen. */
    public static final long EVENTUALLY_MILLIS = 15_000;

    /** Upper bound for a thread to reach the blocking call a test waits for. */
    private static final long BLOCKED_MILLIS = 30_000;

    private Waits() {
    }

    /** Waits until {@code condition} holds; fails with {@code what} when it never does. */
    public static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EVENTUALLY_MILLIS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
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
    public static void untilBlockedOrDone(Thread thread) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() - deadline < 0) {
            Thread.State s = thread.getState();
            if (blocked(s) || s == Thread.State.TERMINATED) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** Waits until a thread is parked, waiting or blocked; fails when it ends instead, or never blocks. */
    public static void untilBlocked(Thread thread) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BLOCKED_MILLIS);
        while (true) {
            Thread.State s = thread.getState();
            if (blocked(s)) {
                return;
            }
            if (s == Thread.State.TERMINATED) {
                throw new AssertionError(thread.getName() + " ended instead of blocking");
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(thread.getName() + " never blocked");
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Waits until the stack of {@code thread} satisfies {@code where} (for example: it is inside a
     * given method, or in a native call under a given class); a thread blocked in a socket call is
     * RUNNABLE, so its state alone does not tell. Returns as well when the thread ended and
     * {@code orDone} is set; fails when the stack never matches.
     */
    public static void untilStack(Thread thread, String what, boolean orDone, Predicate<StackTraceElement[]> where) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BLOCKED_MILLIS);
        while (System.nanoTime() - deadline < 0) {
            if (where.test(thread.getStackTrace())) {
                return;
            }
            if (orDone && thread.getState() == Thread.State.TERMINATED) {
                return;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError(thread.getName() + " never got " + what);
    }

    /** True when a frame of {@code stack} is a method named one of {@code methods}. */
    public static boolean inMethod(StackTraceElement[] stack, String... methods) {
        for (StackTraceElement frame : stack) {
            for (String m : methods) {
                if (frame.getMethodName().equals(m)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** True when a frame of {@code stack} belongs to {@code className} and the top frame is a native call. */
    public static boolean inNativeCallUnder(StackTraceElement[] stack, String className) {
        if (stack.length == 0 || !stack[0].isNativeMethod()) {
            return false;
        }
        for (StackTraceElement frame : stack) {
            if (frame.getClassName().equals(className)) {
                return true;
            }
        }
        return false;
    }

    private static boolean blocked(Thread.State s) {
        return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING || s == Thread.State.BLOCKED;
    }
}
