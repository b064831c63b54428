package ibis.gmi.impl;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Something a thread waits for that processes must deliver: parts keyed by an index. When a
 * process it watches leaves or dies first, the wait fails instead of hanging.
 */
class Waiter {

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

    /** Waits for part {@code index}; throws the failure when a watched process went first. */
    synchronized Object await(int index) throws IOException, InterruptedException {
        while (!parts.containsKey(index)) {
            if (failure != null) {
                throw new IOException(failure.getMessage(), failure);
            }
            wait();
        }
        return parts.remove(index);
    }
}
