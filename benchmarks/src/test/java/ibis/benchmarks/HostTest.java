package ibis.benchmarks;

import static org.testng.Assert.assertTrue;

import java.util.regex.Pattern;

import org.testng.annotations.Test;

/** {@link Host}'s machine line: the load averages and the core-to-core latency. */
public class HostTest {

    @Test(timeOut = 60_000)
    public void coreToCoreLatencyIsAPositiveTimeOrNotMeasuredOnOneProcessor() {
        double ns = Host.coreToCoreNanos();
        if (Runtime.getRuntime().availableProcessors() < 2) {
            assertTrue(Double.isNaN(ns), "one processor: not measured, got " + ns);
        } else {
            // A round is bounded to 0.2 s: even a descheduled echo thread gives a finite figure.
            assertTrue(ns > 0 && ns < 200_000_000.0, "one-way core-to-core latency " + ns + " ns");
        }
    }

    @Test(timeOut = 60_000)
    public void theMachineLineHasTheLoadAndTheLatency() {
        String state = Host.state();
        assertTrue(Pattern.compile("^(\\S+ / \\S+ / \\S+|unknown), core to core (\\d+ ns|not measured \\(one"
                + " processor\\))$").matcher(state).matches(), state);
    }
}
