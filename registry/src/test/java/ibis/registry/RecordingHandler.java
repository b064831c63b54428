package ibis.registry;

import ibis.ipl.IbisIdentifier;
import ibis.ipl.RegistryEventHandler;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A {@link RegistryEventHandler} that records every upcall as a short text ("joined 3",
 * "left 1", "died 2", "election leader 0", "signal hi from 1", "closed", "terminated 0") and
 * lets a test wait for a condition on the recording.
 */
public final class RecordingHandler implements RegistryEventHandler {

    private final List<String> events = new ArrayList<>();
    private int concurrentUpcalls;
    private boolean overlapSeen;

    private void record(String event) {
        synchronized (this) {
            if (++concurrentUpcalls > 1) {
                overlapSeen = true;
            }
            events.add(event);
            notifyAll();
            concurrentUpcalls--;
        }
    }

    @Override
    public void joined(IbisIdentifier joinedIbis) {
        record("joined " + joinedIbis.name());
    }

    @Override
    public void left(IbisIdentifier leftIbis) {
        record("left " + leftIbis.name());
    }

    @Override
    public void died(IbisIdentifier corpse) {
        record("died " + corpse.name());
    }

    @Override
    public void gotSignal(String signal, IbisIdentifier source) {
        record("signal " + signal + " from " + source.name());
    }

    @Override
    public void electionResult(String electionName, IbisIdentifier winner) {
        record("election " + electionName + " " + (winner == null ? "none" : winner.name()));
    }

    @Override
    public void poolClosed() {
        record("closed");
    }

    @Override
    public void poolTerminated(IbisIdentifier source) {
        record("terminated " + source.name());
    }

    /** A copy of the events recorded so far, in delivery order. */
    public synchronized List<String> events() {
        return new ArrayList<>(events);
    }

    /** True when two upcalls ever ran at the same time. */
    public synchronized boolean overlapSeen() {
        return overlapSeen;
    }

    /** Waits until {@code event} was recorded; fails after 30 s (the test's own timeOut is the real guard). */
    public void await(String event) throws InterruptedException {
        await(list -> list.contains(event), "event '" + event + "'");
    }

    /** Waits until the recording satisfies {@code condition}; fails after 30 s. */
    public synchronized void await(Predicate<List<String>> condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!condition.test(events)) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                throw new AssertionError("timed out waiting for " + what + "; recorded: " + events);
            }
            wait(left);
        }
    }
}
