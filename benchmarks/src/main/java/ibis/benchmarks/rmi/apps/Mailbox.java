package ibis.benchmarks.rmi.apps;

import java.rmi.RemoteException;
import java.util.HashMap;
import java.util.Map;

/**
 * Values delivered by remote calls (RMI threads) and taken by the rank's main thread, one slot per
 * key, so a value may arrive before it is wanted. Waiting is bounded by the run's time limit.
 */
final class Mailbox {

    private final Map<Long, Object> slots = new HashMap<>();

    /** A key from two ints (for example an iteration and a sender). */
    static long key(int high, int low) {
        return ((long) high << 32) | (low & 0xffffffffL);
    }

    /**
     * Stores a value.
     *
     * @throws RemoteException when the slot is full (a protocol error, reported to the sender)
     */
    synchronized void put(long key, Object value) throws RemoteException {
        if (slots.putIfAbsent(key, value) != null) {
            throw new RemoteException("two values delivered for slot " + Long.toHexString(key));
        }
        notifyAll();
    }

    /**
     * Takes the value of a slot, waiting for it at most {@link AppMain#TIMEOUT_MILLIS}.
     *
     * @throws InterruptedException when interrupted
     * @throws IllegalStateException when nothing arrives in time
     */
    synchronized Object take(long key) throws InterruptedException {
        long deadline = System.nanoTime() + AppMain.TIMEOUT_MILLIS * 1_000_000L;
        while (true) {
            Object value = slots.remove(key);
            if (value != null) {
                return value;
            }
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                throw new IllegalStateException("nothing arrived for slot " + Long.toHexString(key) + " in time");
            }
            wait(left);
        }
    }
}
