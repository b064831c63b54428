package ibis.impl.mpi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/** When a waiter polls MPI on (spins), when it yields between polls, and when it parks. */
public class MpiSpinRuleTest {

    private static final long SPIN = 500_000;

    @Test
    public void aWaiterSpinsWithinItsSpinTimeOnly() {
        assertEquals(MpiProcess.nextStep(0, SPIN, true, () -> false), MpiProcess.SPIN);
        assertEquals(MpiProcess.nextStep(SPIN - 1, SPIN, true, () -> false), MpiProcess.SPIN);
        assertEquals(MpiProcess.nextStep(SPIN, SPIN, true, () -> false), MpiProcess.PARK, "then it parks");
        assertEquals(MpiProcess.nextStep(0, 0, true, () -> false), MpiProcess.PARK, "a spin time of 0: park at once");
    }

    @Test
    public void onAnOversubscribedHostAWaiterSpinsWhileTheHostIsNotCrowdedAndYieldsWhileItIs() {
        assertEquals(MpiProcess.nextStep(0, SPIN, false, () -> false), MpiProcess.SPIN, "most ranks wait: spin");
        assertEquals(MpiProcess.nextStep(0, SPIN, false, () -> true), MpiProcess.YIELD,
                "more runnable threads than cores: let them run first");
        assertEquals(MpiProcess.nextStep(SPIN, SPIN, false, () -> true), MpiProcess.PARK,
                "the spin time bounds the yielding too");
    }

    @Test
    public void anExplicitSpinTimeSpinsRegardlessOfTheLoad() {
        assertEquals(MpiProcess.nextStep(0, SPIN, true, () -> true), MpiProcess.SPIN);
    }


    @Test
    public void theLoadIsNotAskedOnceTheSpinTimeIsOver() {
        assertEquals(MpiProcess.nextStep(SPIN, SPIN, false, () -> {
            throw new AssertionError("asked");
        }), MpiProcess.PARK);
    }

    @Test
    public void theDefaultSpinOutlastsAPark() {
        // A park takes 60-100 µs at least here, and nobody wakes a waiter that polls MPI itself.
        assertTrue(MpiProcess.DEFAULT_SPIN_NANOS >= 200_000, "a shorter spin let one late answer make the peer park");
    }

    @Test
    public void theDefaultSpinOutlastsTheBackgroundPollersPeriod() {
        // A parked waiter's message is taken in by the background poller up to a period later; a peer
        // that spins for less parks in turn, and the pair stays in that regime.
        assertTrue(MpiProcess.DEFAULT_SPIN_NANOS >= 2 * MpiProcess.MAX_PARK_NANOS,
                "a spin shorter than the background poller's period let a parked rank make its peer park");
    }
}
