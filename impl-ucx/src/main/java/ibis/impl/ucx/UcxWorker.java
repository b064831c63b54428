package ibis.impl.ucx;

import ibis.ipl.impl.SpinWait;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The UCP worker of one transport and the way threads wait on it. There is no progress thread: a
 * thread that waits for something (the next message, credit, a request to complete) drives the
 * worker itself ({@link #await}): it first polls briefly ({@link SpinWait}, yielding the processor
 * between polls of {@code ucp_worker_progress}), then blocks in the worker's event file descriptor
 * ({@code ucp_worker_arm}, then {@code poll(2)}) in slices of at most {@value #SLICE_MILLIS} ms,
 * checking between slices its deadline, its interrupt (when the wait may be interrupted) and the
 * liveness of its connection. Several threads may wait on the worker at once; each wakes when the
 * descriptor fires.
 *
 * <p>Lifetime: the worker is destroyed when its transport has closed and every connection the
 * transport made has been torn down ({@link #retain}/{@link #release}, a reference count); a thread
 * uses the worker only while it holds a connection (or the transport) open, so the worker is never
 * destroyed under a running thread, which would crash the JVM.
 */
final class UcxWorker {

    private static final Logger LOG = LoggerFactory.getLogger(UcxWorker.class);

    /** The longest a thread blocks in the event descriptor before it looks at its wait again. */
    static final int SLICE_MILLIS = 100;

    /**
     * The slice while another thread blocks on the worker too: one waiter's {@code ucp_worker_arm}
     * may consume the wake-up another needed, which then costs at most this long.
     */
    static final int SHARED_SLICE_MILLIS = 10;

    /** How long messages for a torn-down connection are taken and dropped. */
    static final int DEAD_KEEP_SECONDS = 60;
    /** Matches every message to one connection id. */
    private static final long CONNECTION_MASK = 0xFFFF_FFFF_0000_0000L;
    /** Messages up to this size are dropped through one buffer. */
    private static final int SWEEP_BUFFER = 64 * 1024;

    /** Progress calls in a row before a waiter looks at its wait again. */
    private static final int PROGRESS_BURST = 64;

    /**
     * Memory that UCX may still read or write after its owner gave up on it (a request that could
     * not be completed or cancelled): kept reachable for the rest of the JVM's life, so that the
     * direct buffer is never freed under UCX. Only failures put anything here.
     */
    private static final Queue<Object> PINNED = new ConcurrentLinkedQueue<>();

    /** What a thread waits for on the worker. */
    interface Condition {

        /**
         * Whether the wait is over, looking without blocking (the caller has just progressed the
         * worker). May take what it waited for (probe a message, read a credit).
         */
        boolean ready() throws IOException;

        /** Throws when the wait can never end well: the end was closed, the peer is gone. */
        void check() throws IOException;
    }

    final long handle;
    private final long spinMicros;
    /** Threads blocked in the event descriptor now. */
    private final AtomicInteger blocked = new AtomicInteger();
    /** Threads in {@link #await} past its first look (polling or blocked): they progress the worker. */
    private final AtomicInteger waiting = new AtomicInteger();
    /** Drives the worker for sends in flight when no thread waits on it. */
    final UcxSendKeeper keeper;
    /** The transport (1) and every connection not yet torn down; 0: destroyed. */
    private final AtomicInteger references = new AtomicInteger(1);

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
        this.handle = handle;
        this.spinMicros = spinMicros;
        this.keeper = new UcxSendKeeper(this, "ibis-ucx-send-keeper-" + name);
    }

    /** Threads waiting on the worker now (they progress it). */
    int waiting() {
        return waiting.get();
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
        if (condition.ready()) {
            return true;
        }
        waiting.incrementAndGet();
        try {
            return awaitProgressing(condition, spin, deadline, interruptible);
        } finally {
            waiting.decrementAndGet();
        }
    }

    private boolean awaitProgressing(Condition condition, SpinWait spin, long deadline, boolean interruptible)
            throws IOException {
        if (spin != null && spin.start()) {
            while (spin.next()) {
                UcxNative.progress(handle);
                if (condition.ready()) {
                    spin.succeeded();
                    return true;
                }
            }
        }
        while (true) {
            for (int i = 0; i < PROGRESS_BURST && UcxNative.progress(handle) != 0; i++) {
                // progress until nothing is left (bounded, so that the condition is looked at)
            }
            if (condition.ready()) {
                return true;
            }
            condition.check();
            if (interruptible && Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted while waiting for data");
            }
            int slice = SLICE_MILLIS;
            if (deadline != 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                slice = (int) Math.min(slice, (left + 999_999) / 1_000_000);
            }
            int status = UcxNative.arm(handle);
            if (status == UcxNative.ERR_BUSY) {
                continue; // events arrived meanwhile: progress them first
            }
            if (status != UcxNative.OK) {
                throw new IOException("ucp_worker_arm failed: " + UcxNative.statusString(status));
            }
            if (condition.ready()) {
                return true; // it came before the worker was armed
            }
            if (blocked.incrementAndGet() > 1) {
                slice = Math.min(slice, SHARED_SLICE_MILLIS);
            }
            int woken;
            try {
                woken = UcxNative.waitEvent(handle, slice);
            } finally {
                blocked.decrementAndGet();
            }
            if (woken < 0) {
                throw new IOException("waiting for the UCX worker's events failed: " + UcxNative.statusString(woken));
            }
        }
    }

    /**
     * One round of the worker for the {@link UcxSendKeeper}: progresses it, blocks in its event
     * descriptor for at most {@code sliceMillis} unless events are pending, and progresses again.
     */
    void waitOnce(int sliceMillis) {
        for (int i = 0; i < PROGRESS_BURST && UcxNative.progress(handle) != 0; i++) {
            // drain
        }
        int status = UcxNative.arm(handle);
        if (status == UcxNative.OK) {
            blocked.incrementAndGet();
            try {
                UcxNative.waitEvent(handle, sliceMillis);
            } finally {
                blocked.decrementAndGet();
            }
        }
        for (int i = 0; i < PROGRESS_BURST && UcxNative.progress(handle) != 0; i++) {
            // drain
        }
    }

    /**
     * Wakes the threads blocked on the worker, if any, so that they look at their waits again:
     * after a send to this same worker (UCX's {@code self} transport delivers it without an event)
     * or a close of an end another thread may wait on.
     */
    void wakeBlocked() {
        if (blocked.get() > 0) {
            UcxNative.signal(handle);
        }
    }

    /** Wakes every thread blocked on the worker. */
    void wakeAll() {
        UcxNative.signal(handle);
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
                    UcxNative.progress(handle);
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
