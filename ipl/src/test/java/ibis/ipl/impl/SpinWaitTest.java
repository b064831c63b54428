package ibis.ipl.impl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/** The poll-then-block policy: its time limit, and its back-off when yields come back late. */
public class SpinWaitTest {

    /** A clock the test moves: every yield and every pause takes {@code yieldNanos}. */
    private static final class Clock {
        long now = 1_000_000;
        long yieldNanos = 1_000;
        int yields;
        int pauses;
    }

    private static SpinWait spinWait(long micros, Clock clock) {
        return new SpinWait(micros, () -> clock.now, () -> {
            clock.yields++;
            clock.now += clock.yieldNanos;
        }, () -> {
            clock.pauses++;
            clock.now += clock.yieldNanos;
        });
    }

    @Test
    public void noSpinTimeMeansBlockAtOnce() {
        Clock clock = new Clock();
        SpinWait spin = spinWait(0, clock);
        assertFalse(spin.start());
        assertEquals(clock.yields, 0);
        assertEquals(clock.pauses, 0);
    }

    @Test
    public void pollingStopsWhenTheSpinTimeIsOver() {
        Clock clock = new Clock();
        SpinWait spin = spinWait(50, clock); // 50 µs, 1 µs per yield
        assertTrue(spin.start());
        int polls = 0;
        while (spin.next()) {
            polls++;
        }
        assertEquals(polls, 49);
        assertEquals(clock.yields, 50 / SpinWait.YIELD_EVERY, "one wait in YIELD_EVERY yields");
        assertEquals(clock.pauses, 50 - 50 / SpinWait.YIELD_EVERY, "the others pause");
        assertEquals(spin.skipping(), 0, "a slow message is no reason to stop polling next time");
        assertTrue(spin.start());
    }

    @Test
    public void aLateYieldStopsPollingAndBacksOffExponentiallyUntilPollingSucceeds() {
        Clock clock = new Clock();
        SpinWait spin = spinWait(50, clock);
        clock.yieldNanos = 2_000_000; // other work held the processor for 2 ms
        int[] expectedSkips = {1, 2, 4, 8};
        for (int expected : expectedSkips) {
            assertTrue(spin.start());
            assertFalse(spin.next(), "a late yield ends the polling");
            assertEquals(spin.skipping(), expected);
            for (int i = 0; i < expected; i++) {
                assertFalse(spin.start(), "backing off: block at once");
            }
        }
        clock.yieldNanos = 1_000;
        assertTrue(spin.start());
        assertTrue(spin.next());
        spin.succeeded();
        clock.yieldNanos = 2_000_000;
        assertTrue(spin.start());
        assertFalse(spin.next());
        assertEquals(spin.skipping(), 1, "a success resets the back-off");
    }

    @Test
    public void theBackOffIsBounded() {
        Clock clock = new Clock();
        SpinWait spin = spinWait(50, clock);
        clock.yieldNanos = 2_000_000;
        for (int round = 0; round < 20; round++) {
            while (!spin.start()) {
                // skip the waits that block at once
            }
            assertFalse(spin.next());
        }
        assertEquals(spin.skipping(), SpinWait.MAX_SKIP);
    }
}
