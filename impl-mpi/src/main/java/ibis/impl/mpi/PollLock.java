package ibis.impl.mpi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The lock of {@link MpiProcess#poll}: taken by one compare-and-set and given back by one release
 * write, where a {@code ReentrantLock} gives back with a volatile write (a fence) and looks for
 * queued threads; polling takes it on every poll, idle ones included (a spinning receiver polls
 * every few tens of nanoseconds). Pollers never wait for it ({@link #tryLock()}); the rare callers
 * that must have it ({@link #lock()}: registering a receiver, finalizing) poll for it, pausing a
 * little longer each time up to {@value #MAX_PARK_NANOS} ns, since a poll holds it for a short
 * while only. Reentrant for the thread that holds it (a receiver that unregisters while handling a
 * message).
 */
final class PollLock {

    /** The longest pause of a thread that waits for the lock. */
    static final long MAX_PARK_NANOS = 100_000;

    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(PollLock.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The holder, or null; set by compare-and-set, cleared by a release write. */
    private volatile Thread owner;
    /** Nested holds beyond the first; the holder's only. */
    private int nested;

    /** Takes the lock if it is free (not nested: a holder gets false). */
    boolean tryLock() {
        return OWNER.compareAndSet(this, null, Thread.currentThread());
    }

    boolean isHeldByCurrentThread() {
        return owner == Thread.currentThread();
    }

    /** Takes the lock, waiting as long as it takes (not interruptible). */
    void lock() {
        Thread me = Thread.currentThread();
        if (owner == me) {
            nested++;
            return;
        }
        long park = 1_000;
        while (!tryLock()) {
            LockSupport.parkNanos(this, park);
            park = Math.min(2 * park, MAX_PARK_NANOS);
        }
    }

    /**
     * Takes the lock, waiting at most {@code timeout}.
     *
     * @return whether it was taken
     * @throws InterruptedException when the thread is interrupted while waiting
     */
    boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException {
        Thread me = Thread.currentThread();
        if (owner == me) {
            nested++;
            return true;
        }
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        long park = 1_000;
        while (!tryLock()) {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for the MPI poll lock");
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            LockSupport.parkNanos(this, Math.min(park, left));
            park = Math.min(2 * park, MAX_PARK_NANOS);
        }
        return true;
    }

    /** Gives the lock back (one hold); the caller must hold it. */
    void unlock() {
        if (owner != Thread.currentThread()) {
            throw new IllegalMonitorStateException("the MPI poll lock is not held by " + Thread.currentThread());
        }
        if (nested > 0) {
            nested--;
            return;
        }
        OWNER.setRelease(this, (Thread) null);
    }
}
