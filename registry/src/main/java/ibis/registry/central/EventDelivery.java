package ibis.registry.central;

import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.MemberIdentifier;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Passes the pool's events to the application's {@link RegistryEventHandler}: a queue that the
 * {@link PoolView} fills as it applies each event, and a thread that makes the upcalls one at a
 * time, in order, while events are enabled. Without a handler it queues nothing and has no thread.
 * The queue is guarded by the pool view's lock, so an event is queued in the same step that
 * applies it to the view.
 */
final class EventDelivery {

    private static final Logger LOG = LoggerFactory.getLogger(CentralRegistryClient.class);

    /** The pool view's lock. */
    private final Object lock;
    private final RegistryEventHandler handler;
    private final MemberIdentifier identifier;

    // Guarded by lock.
    private final ArrayDeque<Consumer<RegistryEventHandler>> upcalls = new ArrayDeque<>();
    private boolean enabled;
    /** No event can arrive any more (the registry can no longer be used): the thread ends when the queue is empty. */
    private boolean ended;
    /** The member left: the thread ends at once. */
    private boolean stopped;

    private final AtomicLong delivered = new AtomicLong();

    EventDelivery(Object lock, RegistryEventHandler handler, MemberIdentifier identifier) {
        this.lock = lock;
        this.handler = handler;
        this.identifier = identifier;
    }

    /** Starts the delivery thread (when there is a handler). */
    void start() {
        if (handler != null) {
            Thread delivery = new Thread(this::deliveryLoop, "ibis-registry-events " + identifier);
            delivery.setDaemon(true);
            delivery.start();
        }
    }

    /**
     * Queues an upcall for the handler (nothing without a handler). Caller holds the lock (or is
     * constructing the view).
     */
    void enqueueLocked(Consumer<RegistryEventHandler> upcall) {
        if (handler != null) {
            upcalls.add(upcall);
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

    /** No more events will be queued; the caller holds the lock and notifies it. */
    void endedLocked() {
        ended = true;
    }

    /** Drops the queued events and ends the thread; the caller holds the lock and notifies it. */
    void stopLocked() {
        stopped = true;
        upcalls.clear();
    }

    int pendingLocked() {
        return upcalls.size();
    }

    long delivered() {
        return delivered.get();
    }

    private void deliveryLoop() {
        while (true) {
            Consumer<RegistryEventHandler> upcall;
            synchronized (lock) {
                while (!stopped && (!enabled || upcalls.isEmpty())) {
                    if (ended && upcalls.isEmpty()) {
                        return; // nothing more can arrive
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
                upcall = upcalls.poll();
            }
            try {
                upcall.accept(handler);
            } catch (RuntimeException e) {
                LOG.warn("registry event handler of {} threw an exception; continuing with the next event",
                        identifier, e);
            }
            delivered.incrementAndGet();
        }
    }
}
