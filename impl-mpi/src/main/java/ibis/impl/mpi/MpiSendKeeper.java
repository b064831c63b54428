package ibis.impl.mpi;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps sends in flight moving while nobody else is in MPI: a rendezvous send (or any send over the
 * tcp btl) progresses only while some thread of the sending process calls MPI. A sink whose send did
 * not complete at once {@linkplain #watch registers}; this daemon thread then tests its requests and
 * polls, with growing back-off, until none is pending, and parks for good while nothing is watched.
 */
final class MpiSendKeeper {

    private static final Logger LOG = LoggerFactory.getLogger(MpiSendKeeper.class);
    private static final long MIN_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(5);
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** What the keeper watches. */
    interface Watched {
        /**
         * Tests the sends in flight.
         *
         * @return whether some are still pending
         */
        boolean reap();
    }

    private final MpiProcess process;
    private final Set<Watched> watched = ConcurrentHashMap.newKeySet();
    private volatile Thread thread;
    /** The keeper parks until a sink is watched (else it looks again after its back-off by itself). */
    private volatile boolean idle;

    MpiSendKeeper(MpiProcess process) {
        this.process = process;
    }

    /** Watches a sink until its sends in flight completed. */
    void watch(Watched sink) {
        if (watched.add(sink)) {
            Thread t = thread;
            if (t == null) {
                synchronized (this) {
                    if (thread == null) {
                        t = new Thread(this::run, "ibis-mpi-send-keeper");
                        t.setDaemon(true);
                        thread = t;
                        t.start();
                    }
                    t = thread;
                }
            }
            if (idle) {
                // Only an idle keeper needs the wake-up: a busy one looks again after its back-off
                // (at most a millisecond), and a wake-up per message of a stream of rendezvous sends
                // cost a thread switch each.
                LockSupport.unpark(t);
            }
        }
    }

    private void run() {
        long park = MIN_PARK_NANOS;
        while (true) {
            if (watched.isEmpty()) {
                idle = true;
                if (watched.isEmpty()) { // a sink watched before idle was set did not unpark
                    LockSupport.park(this);
                }
                idle = false;
                park = MIN_PARK_NANOS;
                continue;
            }
            try {
                process.poll();
            } catch (java.io.IOException | RuntimeException e) {
                LOG.warn("polling MPI failed: {}", e.toString());
            }
            for (Watched sink : watched) {
                // A sink that sends again between the two reaps is kept (or adds itself again).
                if (!sink.reap()) {
                    watched.remove(sink);
                    if (sink.reap()) {
                        watched.add(sink);
                    }
                }
            }
            LockSupport.parkNanos(this, park);
            park = Math.min(park * 2, MAX_PARK_NANOS);
        }
    }
}
