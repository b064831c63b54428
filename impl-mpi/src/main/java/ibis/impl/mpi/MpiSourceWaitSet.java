package ibis.impl.mpi;

import ibis.io.ByteSource;
import ibis.ipl.impl.SourceWaitSet;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Many-to-one receiving over MPI: one thread waits for data on any of several sources. MPI's matched
 * probe for any source and tag, which the waiting thread runs itself ({@link MpiProcess#await}), is
 * the wait set: it delivers every connection's messages into their sources, and the waiter checks
 * whether one of its sources became ready. No thread switch per message.
 */
final class MpiSourceWaitSet implements SourceWaitSet {

    private final MpiProcess process;
    /** Replaced on add/remove (by the one receiving thread), read by the condition. */
    private volatile MpiByteSource[] sources = new MpiByteSource[0];
    private volatile boolean woken;
    private volatile boolean closed;
    private volatile Thread waiter;
    private final BooleanSupplier readyCondition = this::anyReady;

    MpiSourceWaitSet(MpiProcess process) {
        this.process = process;
    }

    private boolean anyReady() {
        if (woken || closed) {
            return true;
        }
        for (MpiByteSource source : sources) {
            if (source.ready()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void add(ByteSource source) throws IOException {
        if (!(source instanceof MpiByteSource)) {
            throw new IOException(source + " is not a source of the MPI transport");
        }
        MpiByteSource s = (MpiByteSource) source;
        if (Arrays.asList(sources).contains(s)) {
            return;
        }
        MpiByteSource[] next = Arrays.copyOf(sources, sources.length + 1);
        next[sources.length] = s;
        sources = next;
        s.waitSet(this);
    }

    @Override
    public void remove(ByteSource source) {
        MpiByteSource[] current = sources;
        for (int i = 0; i < current.length; i++) {
            if (current[i] == source) {
                MpiByteSource[] next = new MpiByteSource[current.length - 1];
                System.arraycopy(current, 0, next, 0, i);
                System.arraycopy(current, i + 1, next, i, current.length - i - 1);
                sources = next;
                ((MpiByteSource) source).waitSet(null);
                return;
            }
        }
    }

    @Override
    public void await(long timeoutMillis) throws IOException {
        if (closed) {
            throw new IOException("the MPI source wait set is closed");
        }
        waiter = Thread.currentThread();
        try {
            process.awaitDelivery(readyCondition,
                    timeoutMillis == 0 ? 0 : TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
        } finally {
            waiter = null;
            woken = false;
        }
        if (closed) {
            throw new IOException("the MPI source wait set was closed");
        }
    }

    @Override
    public void wakeup() {
        woken = true;
        Thread t = waiter;
        if (t != null && t != Thread.currentThread()) {
            LockSupport.unpark(t); // not the waiter that delivered while it polled
        }
    }

    @Override
    public void close() {
        closed = true;
        for (MpiByteSource source : sources) {
            source.waitSet(null);
        }
        wakeup();
    }
}
