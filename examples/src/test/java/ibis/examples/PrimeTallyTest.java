package ibis.examples;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/** The demo's arithmetic: workers' shares cover the range exactly and add up to the sieve's answer. */
public class PrimeTallyTest {

    @Test
    public void knownCountsAndSums() {
        assertEquals(PrimeTally.bySieve(10), new PrimeTally(4, 17));
        assertEquals(PrimeTally.bySieve(100).count(), 25);
        assertEquals(PrimeTally.bySieve(2_000_000).count(), 148_933);
        assertEquals(PrimeTally.bySieve(2), new PrimeTally(0, 0));
    }

    @Test
    public void trialDivisionAgreesWithTheSieve() {
        assertEquals(PrimeTally.ofRange(0, 100_000), PrimeTally.bySieve(100_000));
        assertTrue(PrimeTally.isPrime(2));
        assertTrue(PrimeTally.isPrime(999_983));
        assertFalse(PrimeTally.isPrime(1));
        assertFalse(PrimeTally.isPrime(999_981));
    }

    @Test
    public void sharesCoverTheRangeWithoutGapsOrOverlapForAnyWorkerCount() {
        long limit = 100_003;
        for (int workers = 1; workers <= 9; workers++) {
            assertEquals(PoolDemo.shareStart(limit, workers, 0), 2);
            assertEquals(PoolDemo.shareStart(limit, workers, workers), limit);
            PrimeTally total = new PrimeTally(0, 0);
            for (int k = 0; k < workers; k++) {
                long from = PoolDemo.shareStart(limit, workers, k);
                long to = PoolDemo.shareStart(limit, workers, k + 1);
                assertTrue(from <= to);
                total = total.plus(PrimeTally.ofRange(from, to));
            }
            assertEquals(total, PrimeTally.bySieve(limit), "workers=" + workers);
        }
    }
}
