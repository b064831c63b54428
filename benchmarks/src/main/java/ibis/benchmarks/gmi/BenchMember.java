package ibis.benchmarks.gmi;

import ibis.gmi.GroupMember;

/** The member of {@link BenchGroup} in every process of a gmi suite job. */
public final class BenchMember extends GroupMember implements BenchGroup {

    private int pings;
    private boolean waiting;

    @Override
    public synchronized void ping(int x) {
        pings++;
        if (waiting) {
            notifyAll();
        }
    }

    @Override
    public int value(int x) {
        return x + 1;
    }

    @Override
    public synchronized int awaitPings(int count) {
        // Discarded calls may be handed to upcall threads in any order; this call may overtake them.
        waiting = true;
        try {
            while (pings < count) {
                wait();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for ping " + count, e);
        } finally {
            waiting = false;
        }
        return 1;
    }
}
