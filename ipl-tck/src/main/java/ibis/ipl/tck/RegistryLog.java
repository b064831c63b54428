package ibis.ipl.tck;

import ibis.ipl.IbisIdentifier;
import ibis.ipl.RegistryEventHandler;
import ibis.testsupport.Waits;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Records the registry events of one member as text ("joined NAME", "left NAME", "died NAME",
 * "signal TEXT from NAME", "election E NAME", "closed", "terminated NAME") and checks that events
 * arrive one at a time.
 */
final class RegistryLog implements RegistryEventHandler {

    private final List<String> events = new ArrayList<>();
    private final AtomicInteger active = new AtomicInteger();
    private volatile boolean overlapped;

    private void add(String event) {
        if (active.incrementAndGet() != 1) {
            overlapped = true;
        }
        try {
            synchronized (this) {
                events.add(event);
                notifyAll();
            }
        } finally {
            active.decrementAndGet();
        }
    }

    @Override
    public void joined(IbisIdentifier joinedIbis) {
        add("joined " + joinedIbis.name());
    }

    @Override
    public void left(IbisIdentifier leftIbis) {
        add("left " + leftIbis.name());
    }

    @Override
    public void died(IbisIdentifier corpse) {
        add("died " + corpse.name());
    }

    @Override
    public void gotSignal(String signal, IbisIdentifier source) {
        add("signal " + signal + " from " + (source == null ? "null" : source.name()));
    }

    @Override
    public void electionResult(String electionName, IbisIdentifier winner) {
        add("election " + electionName + " " + (winner == null ? "null" : winner.name()));
    }

    @Override
    public void poolClosed() {
        add("closed");
    }

    @Override
    public void poolTerminated(IbisIdentifier source) {
        add("terminated " + (source == null ? "null" : source.name()));
    }

    /** Whether two events were ever delivered at the same time. */
    boolean overlapped() {
        return overlapped;
    }

    synchronized List<String> events() {
        return new ArrayList<>(events);
    }

    /** Events of one kind (the text before the first space), in order. */
    synchronized List<String> events(String kind) {
        List<String> result = new ArrayList<>();
        for (String e : events) {
            if (e.equals(kind) || e.startsWith(kind + " ")) {
                result.add(e);
            }
        }
        return result;
    }

    /** Waits until the recorded events satisfy {@code condition}; fails when they never do. */
    synchronized List<String> await(String what, Predicate<List<String>> condition) throws InterruptedException {
        long deadline = System.currentTimeMillis() + Waits.EVENTUALLY_MILLIS;
        while (!condition.test(events)) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                throw new AssertionError("registry events never showed " + what + "; got " + events);
            }
            wait(left);
        }
        return new ArrayList<>(events);
    }

    /** Waits until an event equal to {@code event} was recorded. */
    List<String> awaitEvent(String event) throws InterruptedException {
        return await(event, l -> l.contains(event));
    }
}
