package ibis.impl.mpi;

import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/** When a waiter polls MPI on (spins) and when it parks. */
public class MpiSpinRuleTest {

    private static final long SPIN = 500_000;

    @Test
    public void aWaiterSpinsWithinItsSpinTimeOnly() {
        assertTrue(MpiProcess.spins(0, SPIN, true, () -> false));
        assertTrue(MpiProcess.spins(SPIN - 1, SPIN, true, () -> false));
        assertFalse(MpiProcess.spins(SPIN, SPIN, true, () -> false), "then it parks");
        assertFalse(MpiProcess.spins(0, 0, true, () -> false), "a spin time of 0: park at once");
    }

    @Test
    public void onAnOversubscribedHostAWaiterSpinsOnlyWhileTheHostIsNotCrowded() {
        assertTrue(MpiProcess.spins(0, SPIN, false, () -> false), "most ranks wait: spin");
        assertFalse(MpiProcess.spins(0, SPIN, false, () -> true), "more runnable threads than cores: park");
    }

    @Test
    public void aCoreForEveryRankOrAnExplicitSpinTimeSpinsRegardlessOfTheLoad() {
        assertTrue(MpiProcess.spins(0, SPIN, true, () -> true));
    }

    @Test
    public void theDefaultSpinOutlastsAPark() {
        // A park takes 60-100 µs at least here, and nobody wakes a waiter that polls MPI itself.
        assertTrue(MpiProcess.DEFAULT_SPIN_NANOS >= 200_000, "a shorter spin let one late answer make the peer park");
    }
}
