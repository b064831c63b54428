package ibis.benchmarks.gmi.apps;

import java.util.HashMap;
import java.util.Map;

/**
 * Values that GMI upcalls deliver (a {@code put} of step k) and the application thread takes, by
 * step: upcalls may run in any order and ahead of the taker, so each value waits under its key.
 *
 * @param <T> the value type
 */
final class Slots<T> {

    private final Map<Integer, T> values = new HashMap<>();

    /** Stores the value of step {@code k} and wakes the taker. */
    synchronized void put(int k, T value) {
        values.put(k, value);
        notifyAll();
    }

    /** Waits for the value of step {@code k} and removes it. */
    synchronized T take(int k) {
        boolean interrupted = false;
        try {
            while (!values.containsKey(k)) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            return values.remove(k);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
