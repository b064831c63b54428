package ibis.ipl.impl;

import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;

/**
 * Lazy hand-off of connections whose upcall called {@code finish()}.
 *
 * <p>{@code finish()} inside an upcall promises that the connection's next message can be
 * delivered while the upcall still runs, so another thread must be ready to read the connection.
 * Waking a pooled thread at every such finish costs a thread wake-up (and, with a thread pool, an
 * allocation) per message, although in the common request/reply pattern the upcall returns a few
 * microseconds later and its own thread reads on. So the hand-off is deferred: the connection is
 * noted here, and only when the upcall is still running {@link ImplPropertyTable#UPCALL_HANDOFF_MICROS}
 * later does this watcher give the connection to a pooled reader. The port decides under its lock
 * who reads on ({@link AbstractReceivePort#continueReading}), so a late hand-off and a returning
 * upcall never both read.
 *
 * <p>The watcher is one daemon thread per Ibis, started on first use. While hand-offs are noted it
 * wakes every {@code delay}; after a quiet second it parks until the next one (one wake-up after each
 * quiet period, none per message). Noting a connection allocates nothing once the queue has grown.
 */
final class UpcallHandOffs implements Runnable {

    /** Ticks without any noted hand-off before the watcher parks without a time limit. */
    private static final long QUIET_NANOS = 1_000_000_000L;

    private final AbstractIbis ibis;
    private final long delayNanos;
    private final String threadName;

    // Guarded by this.
    private final ArrayDeque<ReceiveConnection> pending = new ArrayDeque<>();
    private Thread watcher;
    private boolean parkedForGood;
    private boolean stopped;
    private long lastNoted;

    /** Reused by the watcher thread only. */
    private ReceiveConnection[] due = new ReceiveConnection[8];

    UpcallHandOffs(AbstractIbis ibis, long delayMicros, String threadName) {
        this.ibis = ibis;
        this.delayNanos = delayMicros * 1000L;
        this.threadName = threadName;
    }

    /**
     * Called right after {@code finish()} in an upcall released the connection ({@code
     * c.handOffPending} is set): hands the connection to a pooled reader now when there is no
     * delay, else notes it for the watcher.
     */
    void handOff(ReceiveConnection c) {
        if (delayNanos == 0) {
            ibis.execute(c.reader);
            return;
        }
        long now = System.nanoTime();
        Thread wake = null;
        synchronized (this) {
            if (stopped) {
                return;
            }
            c.handOffSince = now;
            lastNoted = now;
            if (!c.handOffListed) {
                c.handOffListed = true;
                pending.addLast(c);
            }
            if (watcher == null) {
                watcher = new Thread(this, threadName);
                watcher.setDaemon(true);
                watcher.start();
            } else if (parkedForGood) {
                parkedForGood = false;
                wake = watcher;
            }
        }
        if (wake != null) {
            LockSupport.unpark(wake);
        }
    }

    /** Stops the watcher; connections still noted are handed off at once (their ports are closing). */
    void stop() {
        Thread t;
        synchronized (this) {
            stopped = true;
            t = watcher;
        }
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void run() {
        while (true) {
            boolean forGood;
            synchronized (this) {
                if (stopped) {
                    break;
                }
                forGood = pending.isEmpty() && System.nanoTime() - lastNoted > QUIET_NANOS;
                parkedForGood = forGood;
            }
            if (forGood) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, delayNanos);
            }
            Thread.interrupted(); // never spin on a stale flag
            scan(false);
        }
        scan(true);
    }

    /** Hands the connections whose upcall has run long enough after finish() to pooled readers. */
    private void scan(boolean all) {
        int count = 0;
        long now = System.nanoTime();
        synchronized (this) {
            for (int n = pending.size(); n > 0; n--) {
                ReceiveConnection c = pending.pollFirst();
                if (!c.handOffPending) {
                    c.handOffListed = false; // the upcall returned and its thread read on
                } else if (all || now - c.handOffSince >= delayNanos) {
                    c.handOffListed = false;
                    if (count == due.length) {
                        due = java.util.Arrays.copyOf(due, count * 2);
                    }
                    due[count++] = c;
                } else {
                    pending.addLast(c);
                }
            }
        }
        for (int i = 0; i < count; i++) {
            ibis.execute(due[i].reader); // continueReading() checks handOffPending under the port's lock
            due[i] = null;
        }
    }
}
