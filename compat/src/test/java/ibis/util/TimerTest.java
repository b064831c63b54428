package ibis.util;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayDeque;
import java.util.Deque;

import org.testng.annotations.Test;

public class TimerTest {

    /** A timer whose clock returns the given time stamps in turn: exact values, no waiting. */
    private static final class ScriptedTimer extends Timer {
        private static final long serialVersionUID = 1L;
        private final Deque<Long> stamps = new ArrayDeque<>();

        ScriptedTimer(long... nanos) {
            for (long n : nanos) {
                stamps.add(n);
            }
        }

        @Override
        public long currentTimeNanos() {
            return stamps.remove();
        }
    }

    @Test
    public void anyImplementationNameGivesTheJavaTimer() {
        for (String name : new String[] {"ibis.util.nativeCode.Rdtsc", "no.such.Timer", "java.lang.String", ""}) {
            Timer t = Timer.createTimer(name);
            assertSame(t.getClass(), Timer.class, name);
            assertEquals(t.implementationName(), "ibis.util.Timer");
            assertEquals(t.nrTimes(), 0);
        }
        assertSame(Timer.createTimer().getClass(), Timer.class);
        assertEquals(Timer.createTimer().accuracy(), 1e-9);
    }

    @Test
    public void theRealClockGivesOrderedNonNegativeTimes() {
        Timer t = Timer.createTimer("ibis.util.nativeCode.Rdtsc");
        long before = t.currentTimeNanos();
        t.start();
        t.stop();
        t.start();
        t.stop();
        assertTrue(t.currentTimeNanos() >= before);
        assertEquals(t.nrTimes(), 2);
        assertTrue(t.lastTimeVal() >= 0.0);
        assertTrue(t.minTimeVal() <= t.maxTimeVal());
        assertTrue(t.maxTimeVal() <= t.totalTimeVal());
        assertTrue(t.averageTimeVal() <= t.maxTimeVal() && t.averageTimeVal() >= t.minTimeVal());
        assertTrue(t.totalTimeVal() >= 0.0);
    }

    @Test
    public void intervalsAreSummedInMicroseconds() {
        // start 1000, stop 4000 (3 us); start 10000, stop 11000 (1 us)
        Timer t = new ScriptedTimer(1_000, 4_000, 10_000, 11_000);
        t.start();
        t.stop();
        assertEquals(t.lastTimeVal(), 3.0);
        t.start();
        t.stop();
        assertEquals(t.nrTimes(), 2);
        assertEquals(t.totalTimeVal(), 4.0);
        assertEquals(t.averageTimeVal(), 2.0);
        assertEquals(t.lastTimeVal(), 1.0);
        assertEquals(t.maxTimeVal(), 3.0);
        assertEquals(t.minTimeVal(), 1.0);
        assertEquals(t.totalTime(), "  4.000 us");
        assertEquals(t.averageTime(), "  2.000 us");
        assertEquals(t.lastTime(), "  1.000 us");
        assertEquals(t.maxTime(), "  3.000 us");
        assertEquals(t.minTime(), "  1.000 us");
    }

    @Test
    public void theTotalIncludesTheRunningIntervalButTheAverageDoesNot() {
        Timer t = new ScriptedTimer(0, 2_000, 5_000, 6_000);
        t.start();
        t.stop();
        t.start(); // at 5000
        assertEquals(t.totalTimeVal(), 3.0); // read at 6000: 2 us done + 1 us running
        assertEquals(t.averageTimeVal(), 2.0);
        assertEquals(t.nrTimes(), 1);
    }

    @Test
    public void startWhileRunningAndStopWhileStoppedChangeNothing() {
        Timer t = new ScriptedTimer(100, 600);
        t.stop(); // not started: reads no clock
        assertEquals(t.nrTimes(), 0);
        t.start(); // at 100
        t.start(); // ignored: reads no clock
        t.stop(); // at 600
        assertEquals(t.nrTimes(), 1);
        assertEquals(t.lastTimeVal(), 0.5);
        t.stop();
        assertEquals(t.nrTimes(), 1);
    }

    @Test
    public void resetForgetsEveryInterval() {
        Timer t = new ScriptedTimer(0, 7_000);
        t.start();
        t.stop();
        t.reset();
        assertEquals(t.nrTimes(), 0);
        assertEquals(t.totalTimeVal(), 0.0);
        assertEquals(t.averageTimeVal(), 0.0);
        assertEquals(t.lastTimeVal(), 0.0);
        assertEquals(t.maxTimeVal(), 0.0);
    }

    @Test
    public void addSumsCountsAndTotalsOfAnotherTimerOrOfMicroseconds() {
        Timer a = new ScriptedTimer(0, 2_000);
        a.start();
        a.stop();
        Timer b = new ScriptedTimer(0, 4_000, 0, 6_000);
        b.start();
        b.stop();
        b.start();
        b.stop();
        a.add(b);
        assertEquals(a.nrTimes(), 3);
        assertEquals(a.totalTimeVal(), 12.0);
        assertEquals(a.averageTimeVal(), 4.0);
        assertEquals(b.nrTimes(), 2, "the added timer is unchanged");
        a.add(8L, 1);
        assertEquals(a.nrTimes(), 4);
        assertEquals(a.totalTimeVal(), 20.0);
    }

    @Test
    public void formatPicksTheUnitAndPadsTheNumber() {
        assertEquals(Timer.format(0.0), "  0.000  s");
        assertEquals(Timer.format(-5.0), "  0.000  s");
        assertEquals(Timer.format(0.0025), "  2.500 ns");
        assertEquals(Timer.format(0.5), "500.000 ns");
        assertEquals(Timer.format(1.0), "  1.000 us");
        assertEquals(Timer.format(12.5), " 12.500 us");
        assertEquals(Timer.format(1500.0), "  1.500 ms");
        assertEquals(Timer.format(250_000.0), "250.000 ms");
        assertEquals(Timer.format(2_000_000.0), "  2.000  s");
        assertEquals(Timer.format(1234_000_000.0), "1234.000  s");
    }

    @Test
    public void aTimerIsSerializableWithItsIntervals() throws Exception {
        Timer t = Timer.createTimer();
        t.start();
        t.stop();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(t);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            Timer copy = (Timer) in.readObject();
            assertEquals(copy.nrTimes(), 1);
            assertEquals(copy.totalTimeVal(), t.totalTimeVal());
        }
    }
}
