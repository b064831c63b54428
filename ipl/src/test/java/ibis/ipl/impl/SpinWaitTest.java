package ibis.ipl.impl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.testng.annotations.Test;

/** The poll-then-block policy: its time limit, and its back-off when yields come back late. */
public class SpinWaitTest {

    /** A clock the test moves: every yield and every pause takes {@code yieldNanos}. */
    private static final class Clock {
        long now = 1_000_000;
        long yieldNanos = 1_000;
        int yields;
        int pauses;
        int reads;
        boolean crowded = true;
    }

    private static SpinWait spinWait(long micros, Clock clock) {
        return spinWait(micros, SpinWait.YIELD_EVERY, clock);
    }

    private static SpinWait spinWait(long micros, int yieldEvery, Clock clock) {
        return new SpinWait(micros, yieldEvery, () -> {
            clock.reads++;
            return clock.now;
        }, () -> {
            clock.yields++;
            clock.now += clock.yieldNanos;
        }, () -> {
            clock.pauses++;
            clock.now += clock.yieldNanos;
        }, () -> clock.crowded);
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
        assertSpinEnded(polls, clock);
        assertEquals(clock.yields, 50 / SpinWait.YIELD_EVERY, "one wait in YIELD_EVERY yields");
        assertEquals(clock.pauses, polls + 1 - clock.yields, "the others pause");
        assertEquals(spin.skipping(), 0, "a slow message is no reason to stop polling next time");
        assertTrue(spin.start());
    }

    /**
     * A spin of 50 µs, 1 µs per pause or yield, started at {@code clock.reads == 1}: it ended once 50
     * µs had passed, at most {@link SpinWait#CLOCK_EVERY} polls late, having read the clock at the
     * first wait, after each yield and at every CLOCK_EVERY-th pause only.
     */
    private static void assertSpinEnded(int polls, Clock clock) {
        assertTrue(polls >= 49 && polls < 49 + SpinWait.CLOCK_EVERY, "polls: " + polls);
        int waits = polls + 1;
        assertTrue(clock.reads - 1 <= 1 + clock.yields + waits / SpinWait.CLOCK_EVERY,
                "clock reads: " + clock.reads + " for " + waits + " waits, " + clock.yields + " yields");
    }

    @Test
    public void onAHostWithIdleProcessorsThePollerNeverYields() {
        Clock clock = new Clock();
        clock.crowded = false;
        SpinWait spin = spinWait(50, clock);
        assertTrue(spin.start());
        int polls = 0;
        while (spin.next()) {
            polls++;
        }
        assertSpinEnded(polls, clock);
        assertEquals(clock.yields, 0, "a yield only costs time when the peer has its own processor");
        assertEquals(clock.pauses, polls + 1);
        clock.crowded = true;
        assertTrue(spin.start());
        while (spin.next()) {
            polls++;
        }
        assertEquals(clock.yields, 50 / SpinWait.YIELD_EVERY, "crowded again: every YIELD_EVERY-th wait yields");
    }

    @Test
    public void aShorterYieldPeriodYieldsMoreOftenOnACrowdedHost() {
        Clock clock = new Clock();
        SpinWait spin = spinWait(50, 2, clock);
        assertTrue(spin.start());
        int polls = 0;
        while (spin.next()) {
            polls++;
        }
        assertTrue(polls >= 49 && polls < 49 + SpinWait.CLOCK_EVERY, "polls: " + polls);
        assertEquals(clock.yields, (polls + 1) / 2, "every second wait yields");
        clock.crowded = false;
        clock.yields = 0;
        assertTrue(spin.start());
        while (spin.next()) {
            polls++;
        }
        assertEquals(clock.yields, 0, "not on a host with idle processors");
    }

    @Test
    public void theRunnableThreadsAreTheNumberBeforeTheSlashOfTheFourthField() {
        assertEquals(runnable("0.50 0.40 0.30 3/120 4567\n"), 3);
        assertEquals(runnable("12.01 9.87 7.00 117/2048 99\n"), 117);
        assertEquals(runnable("0.50 0.40 0.30 3"), -1, "cut short");
        assertEquals(runnable("0.50 0.40 3/120 4567"), -1, "a field missing");
        assertEquals(runnable(""), -1);
        assertEquals(runnable("a b c /12 4"), -1, "no number");
    }

    @Test
    public void theHostIsCrowdedBeyondItsProcessorsAndTheSpareThreadsOrWhenUnknown() {
        assertFalse(HostLoad.crowded(2, 2, 0), "a runnable thread per processor");
        assertTrue(HostLoad.crowded(3, 2, 0));
        assertFalse(HostLoad.crowded(3, 2, 1), "one spare: two spinning ranks and a thread waking up");
        assertTrue(HostLoad.crowded(4, 2, 1), "two ranks whose main threads compute beside their waiters");
        assertTrue(HostLoad.crowded(-1, 2, 1), "unknown: the cautious answer");
    }

    /**
     * The answer comes from {@code /proc/loadavg} at the first question already (later questions
     * look at the clock only at one in {@link HostLoad#CLOCK_EVERY}): with a thousand spare threads
     * a host whose file was read is never crowded, while an answer not read from it (unknown: no
     * such file, not Linux) says it is.
     */
    @Test
    public void theFirstQuestionIsAnsweredFromTheFile() {
        boolean readable = Files.isReadable(Path.of("/proc/loadavg"));
        assertEquals(HostLoad.crowdedBeyond(1000), !readable,
                "crowded beyond a thousand spare threads, with /proc/loadavg readable: " + readable);
    }

    private static int runnable(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        return HostLoad.runnable(bytes, bytes.length);
    }

    @Test
    public void linuxSaysHowManyThreadsAreRunnable() throws IOException {
        if (System.getProperty("os.name").equals("Linux")) {
            byte[] bytes = Files.readAllBytes(Path.of("/proc/loadavg"));
            assertTrue(HostLoad.runnable(bytes, bytes.length) >= 1, "the reading thread itself runs");
        }
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
