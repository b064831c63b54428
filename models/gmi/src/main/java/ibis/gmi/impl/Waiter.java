package ibis.gmi.impl;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Something a thread waits for that processes must deliver: parts keyed by an index. When a
 * process it watches leaves or dies first, the wait fails instead of hanging. Every wait goes
 * through the process's {@link ReplyChannel}: the waiting thread reads the reply port itself
 * while no other waiting thread does, so the messages it waits for need no hand-off.
 */
class Waiter {

    /** What {@link #take} returns when the part is not there yet. */
    static final Object NONE = new Object();

    private volatile int[] watched;
    private final Map<Integer, Object> parts = new HashMap<>();
    private IOException failure;

    Waiter(int... watched) {
        this.watched = watched;
    }

    /** Also watches {@code processes}. */
    synchronized void watch(int... processes) {
        int[] w = Arrays.copyOf(watched, watched.length + processes.length);
        System.arraycopy(processes, 0, w, watched.length, processes.length);
        watched = w;
    }

    boolean watches(int process) {
        for (int w : watched) {
            if (w == process) {
                return true;
            }
        }
        return false;
    }

    synchronized void deliver(int index, Object part) {
        parts.put(index, part);
        notifyAll();
    }

    synchronized void fail(IOException cause) {
        if (failure == null) {
            failure = cause;
        }
        notifyAll();
    }

    synchronized boolean failed() {
        return failure != null;
    }

    /**
     * Waits for part {@code index}, reading the replies of {@code channel} meanwhile when no other
     * waiting thread does ({@link ReplyChannel#await}); throws the failure when a watched process
     * went first.
     */
    Object await(int index, ReplyChannel channel) throws IOException, InterruptedException {
        return channel.await(this, index);
    }

    /** Part {@code index}, removed; {@link #NONE} when it is not there; the failure when there is one. Holds this. */
    Object take(int index) throws IOException {
        if (parts.containsKey(index)) {
            return parts.remove(index);
        }
        if (failure != null) {
            throw new IOException(failure.getMessage(), failure);
        }
        return NONE;
    }
}
