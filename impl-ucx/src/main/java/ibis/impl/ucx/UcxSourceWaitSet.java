package ibis.impl.ucx;

import ibis.io.ByteSource;
import ibis.ipl.impl.SourceWaitSet;
import ibis.ipl.impl.SpinWait;

import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link SourceWaitSet} of the UCX transport: the thread that receives on a many-to-one port
 * waits on the worker ({@link UcxWorker#await}, blocking in its event descriptor) until one of the
 * added sources has a message, its end or a failure; it probes them itself between waits (the
 * receive port guarantees that no other thread reads them meanwhile). Nothing is allocated per wait.
 * The set holds a reference to the worker until it is closed, so the worker outlives any wait in it.
 */
final class UcxSourceWaitSet implements SourceWaitSet {

    private final UcxWorker worker;
    private final EndGuard guard = new EndGuard();
    private final AtomicBoolean woken = new AtomicBoolean();
    /** The sources watched, in [0, count); used by the one waiting thread only. */
    private UcxByteSource[] sources = new UcxByteSource[8];
    private int count;
    /** The same sources, for the worker's leader to look at while the waiting thread is parked (copied on change). */
    private volatile UcxByteSource[] watched = new UcxByteSource[0];

    private final UcxWorker.Condition anyReady = new UcxWorker.Condition() {
        @Override
        public boolean ready() {
            if (woken.compareAndSet(true, false) || guard.isClosed()) {
                return true; // a wake-up is consumed by the wait it ends
            }
            for (int i = 0; i < count; i++) {
                if (sources[i].readyForWaitSet()) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void check() {
            // liveness of each source is looked at in ready()
        }

        @Override
        boolean mayBeReady() {
            if (woken.get() || guard.isClosed()) {
                return true;
            }
            for (UcxByteSource s : watched) {
                if (s.mayHaveMessage()) {
                    return true;
                }
            }
            return false;
        }
    };

    /**
     * @throws IOException when the worker is gone (the transport closed)
     */
    UcxSourceWaitSet(UcxWorker worker) throws IOException {
        if (!worker.tryRetain()) {
            throw new IOException("the ucx transport is closed");
        }
        this.worker = worker;
    }

    @Override
    public void add(ByteSource source) throws IOException {
        if (!(source instanceof UcxByteSource ucx) || ucx.worker() != worker) {
            throw new IOException(source + " is not a receiving source of this ucx transport");
        }
        for (int i = 0; i < count; i++) {
            if (sources[i] == ucx) {
                return;
            }
        }
        if (count == sources.length) {
            sources = Arrays.copyOf(sources, count * 2);
        }
        sources[count++] = ucx;
        watched = Arrays.copyOf(sources, count);
    }

    @Override
    public void remove(ByteSource source) {
        for (int i = 0; i < count; i++) {
            if (sources[i] == source) {
                sources[i] = sources[--count];
                sources[count] = null;
                watched = Arrays.copyOf(sources, count);
                return;
            }
        }
    }

    @Override
    public void await(long timeoutMillis) throws IOException {
        if (!guard.enter()) {
            throw new AsynchronousCloseException();
        }
        try {
            long deadline = 0;
            if (timeoutMillis > 0) {
                deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
                if (deadline == 0) {
                    deadline = 1;
                }
            }
            worker.await(anyReady, null, deadline, true);
            if (guard.isClosed()) {
                throw new AsynchronousCloseException();
            }
        } finally {
            if (guard.exit()) {
                worker.release();
            }
        }
    }

    /**
     * One progress of the worker and one probe per source per round (a poll of each source on its
     * own would progress the worker once per source and probe each twice).
     */
    @Override
    public boolean poll(SpinWait spin) throws IOException {
        if (!guard.enter()) {
            throw new AsynchronousCloseException();
        }
        try {
            return worker.poll(anyReady, spin);
        } finally {
            if (guard.exit()) {
                worker.release();
            }
        }
    }

    @Override
    public void wakeup() {
        woken.set(true);
        worker.wakeAll();
    }

    @Override
    public void close() {
        int state = guard.close();
        if (state == EndGuard.IDLE) {
            worker.release();
        } else if (state == EndGuard.BUSY) {
            worker.wakeAll(); // the waiting thread lets go of the worker
        }
    }
}
