package ibis.impl.ucx;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The open/closed state of one end (sink or source) of a connection and the calls running in it,
 * so that {@code close()} from another thread (an abort) never frees native resources under a
 * running call: whoever is last, the closer or the last call to leave, finishes the close. Two
 * atomic operations per call, no lock.
 */
final class EndGuard {

    /** {@link #close()}: the end was closed before. */
    static final int ALREADY_CLOSED = 0;
    /** {@link #close()}: no call is running; the closer finishes the close. */
    static final int IDLE = 1;
    /** {@link #close()}: calls are running; the last to {@link #exit()} finishes the close. */
    static final int BUSY = 2;

    private static final int CLOSED = 1 << 30;

    /** Running calls, plus {@link #CLOSED}. */
    private final AtomicInteger state = new AtomicInteger();

    /**
     * Enters a call.
     *
     * @return false when the end is closed (the call must not touch the end's native resources)
     */
    boolean enter() {
        while (true) {
            int s = state.get();
            if ((s & CLOSED) != 0) {
                return false;
            }
            if (state.compareAndSet(s, s + 1)) {
                return true;
            }
        }
    }

    /**
     * Leaves a call.
     *
     * @return true when the end was closed meanwhile and this was the last call: the caller
     *         finishes the close
     */
    boolean exit() {
        return state.decrementAndGet() == CLOSED;
    }

    /** Marks the end closed: {@link #ALREADY_CLOSED}, {@link #IDLE} or {@link #BUSY}. */
    int close() {
        while (true) {
            int s = state.get();
            if ((s & CLOSED) != 0) {
                return ALREADY_CLOSED;
            }
            if (state.compareAndSet(s, s | CLOSED)) {
                return s == 0 ? IDLE : BUSY;
            }
        }
    }

    /** Whether the end has been closed. */
    boolean isClosed() {
        return (state.get() & CLOSED) != 0;
    }
}
