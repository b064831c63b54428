package ibis.impl.ucx;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits for a UCX request of one end of a connection to complete (made once per end and reused:
 * nothing is allocated per request). The wait goes on through interrupts: a request in progress
 * owns its memory, which must not be given up half written.
 */
final class RequestCompletion extends UcxWorker.Condition {

    /** How long an abandoned request may take to end after it was cancelled. */
    private static final long ABANDON_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final UcxWorker worker;
    private final UcxWorker.Condition liveness;
    /** The request waited for; written before the wait, read by the leader (under the worker's lock). */
    private long request;

    /**
     * @param liveness whose {@link UcxWorker.Condition#check()} ends a wait that can never succeed
     *        (the peer is gone)
     */
    RequestCompletion(UcxWorker worker, UcxWorker.Condition liveness) {
        this.worker = worker;
        this.liveness = liveness;
    }

    @Override
    public boolean ready() {
        return UcxNative.requestStatus(request) != UcxNative.IN_PROGRESS;
    }

    /** The same look: the request stays valid while its waiter is a follower. */
    @Override
    boolean mayBeReady() {
        return UcxNative.requestStatus(request) != UcxNative.IN_PROGRESS;
    }

    @Override
    public void check() throws IOException {
        liveness.check();
    }

    /**
     * Waits until the result of a send or receive call is done and frees its request.
     *
     * @param result what the call returned: 0 (done), a request, or a negative status
     * @param memory the buffer the request reads or writes (kept for good when the request has to
     *        be abandoned while UCX may still use it)
     * @param what the operation, for the error message
     * @throws IOException when the operation failed, or the wait was given up (the peer is gone)
     */
    void await(long result, Object memory, String what) throws IOException {
        await(result, memory, what, 0);
    }

    /**
     * {@link #await(long, Object, String)} that gives up at {@code deadline} ({@link System#nanoTime()};
     * 0: never), abandoning the request.
     */
    void await(long result, Object memory, String what, long deadline) throws IOException {
        if (result == 0) {
            return;
        }
        if (result < 0) {
            throw new IOException(what + " failed: " + UcxNative.statusString((int) result));
        }
        request = result;
        boolean done;
        try {
            done = worker.await(this, null, deadline, false);
        } catch (IOException | RuntimeException e) {
            abandon(worker, result, memory);
            throw e;
        }
        if (!done) {
            abandon(worker, result, memory);
            throw new IOException(what + " did not complete in time");
        }
        int status = UcxNative.requestStatus(result);
        UcxNative.requestFree(result);
        if (status != UcxNative.OK) {
            throw new IOException(what + " failed: " + UcxNative.statusString(status));
        }
    }

    /**
     * Gives up a request: cancels it, progresses the worker a short while for the cancellation to
     * take effect, and frees it; when it is still running, its memory is kept for good
     * ({@link UcxWorker#pinForever}), since UCX may still use it.
     */
    static void abandon(UcxWorker worker, long request, Object memory) {
        if (UcxNative.requestStatus(request) == UcxNative.IN_PROGRESS) {
            UcxNative.requestCancel(worker.handle, request);
            long deadline = System.nanoTime() + ABANDON_NANOS;
            while (UcxNative.requestStatus(request) == UcxNative.IN_PROGRESS && System.nanoTime() - deadline < 0) {
                if (worker.progress() == 0) {
                    LockSupport.parkNanos(100_000);
                }
            }
            if (UcxNative.requestStatus(request) == UcxNative.IN_PROGRESS) {
                UcxWorker.pinForever(memory);
            }
        }
        UcxNative.requestFree(request);
    }
}
