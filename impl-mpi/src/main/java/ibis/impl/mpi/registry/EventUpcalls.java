package ibis.impl.mpi.registry;

import ibis.ipl.RegistryEventHandler;

import java.util.ArrayDeque;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the pool's events to the application's {@link RegistryEventHandler}: one thread makes the
 * upcalls one at a time, in the order the events were applied, while events are enabled. Without a
 * handler nothing is queued and there is no thread. Guarded by the {@link MemberView}'s lock, so an
 * event is queued in the same step that applies it.
 */
final class EventUpcalls {

    private static final Logger LOG = LoggerFactory.getLogger(EventUpcalls.class);

    private final Object lock;
    private final RegistryEventHandler handler;
    private final String owner;

    // Guarded by lock.
    private final ArrayDeque<Consumer<RegistryEventHandler>> queue = new ArrayDeque<>();
    private boolean enabled;
    /** No more events will come: the thread ends once the queue is empty. */
    private boolean ended;
    /** The member left: the thread ends at once, queued events are dropped. */
    private boolean stopped;
    private long delivered;

    EventUpcalls(Object lock, RegistryEventHandler handler, String owner) {
        this.lock = lock;
        this.handler = handler;
        this.owner = owner;
    }

    void start() {
        if (handler != null) {
            Thread t = new Thread(this::deliver, "ibis-mpi-registry-events " + owner);
            t.setDaemon(true);
            t.start();
        }
    }

    /** Queues an upcall; the caller holds the lock. */
    void enqueueLocked(Consumer<RegistryEventHandler> upcall) {
        if (handler != null && !stopped) {
            queue.add(upcall);
            lock.notifyAll();
        }
    }

    void enable() {
        synchronized (lock) {
            enabled = true;
            lock.notifyAll();
        }
    }

    void disable() {
        synchronized (lock) {
            enabled = false;
        }
    }

    /** No more events will be queued; the caller holds the lock. */
    void endLocked() {
        ended = true;
        lock.notifyAll();
    }

    /** Drops what is queued and ends the thread; the caller holds the lock. */
    void stopLocked() {
        stopped = true;
        queue.clear();
        lock.notifyAll();
    }

    int pendingLocked() {
        return queue.size();
    }

    long deliveredLocked() {
        return delivered;
    }

    private void deliver() {
        while (true) {
            Consumer<RegistryEventHandler> upcall;
            synchronized (lock) {
                while (!stopped && (!enabled || queue.isEmpty())) {
                    if (ended && queue.isEmpty()) {
                        return;
                    }
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (stopped) {
                    return;
                }
                upcall = queue.poll();
            }
            try {
                upcall.accept(handler);
            } catch (RuntimeException e) {
                LOG.warn("the registry event handler of {} threw an exception; continuing with the next event", owner,
                        e);
            }
            synchronized (lock) {
                delivered++;
            }
        }
    }
}
