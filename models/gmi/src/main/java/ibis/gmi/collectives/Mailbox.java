package ibis.gmi.collectives;

import ibis.gmi.GroupMember;
import ibis.gmi.impl.GmiRuntime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The member that receives a process's collective messages. Messages are keyed by sender and
 * sequence number, so that upcalls running concurrently cannot reorder them.
 */
final class Mailbox extends GroupMember implements Exchange {

    /** How often a receive that is still waiting checks whether its sender is gone. */
    private static final long LIVENESS_CHECK_MS = 50;

    /** The sequence number of an abort message: its payload says why the sender gave up. */
    static final int ABORT = -1;

    private final Map<Long, Object> messages = new HashMap<>();
    private String aborted;

    @Override
    public synchronized void put(int from, int seq, Object payload) {
        if (seq == ABORT) {
            if (aborted == null) {
                aborted = "process " + from + " aborted: " + payload;
            }
        } else {
            messages.put(key(from, seq), payload);
        }
        notifyAll();
    }

    /** Whether another member told this one that the collectives failed. */
    synchronized boolean aborted() {
        return aborted != null;
    }

    /**
     * Waits for message {@code seq} of member {@code from} (member rank = process rank); fails with
     * an {@link UncheckedIOException} when that process leaves or dies first, or another member
     * aborted the collectives.
     */
    synchronized Object take(int from, int seq, String collective) {
        Long k = key(from, seq);
        if (aborted != null) {
            throw new UncheckedIOException(new IOException(collective + ": " + aborted));
        }
        while (!messages.containsKey(k)) {
            if (aborted != null) {
                throw new UncheckedIOException(new IOException(collective + ": " + aborted));
            }
            if (GmiRuntime.get().isGone(from)) {
                throw new UncheckedIOException(new IOException(collective + ": process " + from
                        + " is gone before it sent its part"));
            }
            try {
                wait(LIVENESS_CHECK_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(collective + ": interrupted waiting for process " + from, e);
            }
        }
        return messages.remove(k);
    }

    private static Long key(int from, int seq) {
        return ((long) from << 32) | (seq & 0xffffffffL);
    }
}
