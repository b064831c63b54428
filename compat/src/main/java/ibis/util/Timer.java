package ibis.util;

import java.io.Serializable;
import java.util.Locale;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stopwatch that sums intervals: the {@code ibis.util.Timer} of IPL 2.x, kept so that programs
 * written against it compile and run unchanged.
 *
 * <p>
 * {@link #start()} and {@link #stop()} bracket one interval; the timer keeps the number of intervals, their
 * total, the last, the shortest and the longest. Every {@code ...TimeVal()} is in <b>microseconds</b>
 * (a {@code double}); the String forms ({@link #totalTime()}, ...) are the same value through
 * {@link #format(double)}. The clock is {@link System#nanoTime()}: {@link #createTimer(String)} accepts the
 * earlier native timer's name ({@code "ibis.util.nativeCode.Rdtsc"}) or any other and always returns this
 * class, since there is no native timer here. A subclass may supply another clock by overriding
 * {@link #currentTimeNanos()}.
 *
 * <p>
 * Misuse is logged, not thrown, as before: {@link #start()} on a running timer and {@link #stop()} on a
 * stopped one change nothing (both are documented as no-ops in IPL 2.x). The methods are synchronized, so a
 * timer may be read by another thread while it runs.
 *
 * <p>
 * Left out of the earlier class: its protected fields (a subclass sees the values through the methods) and
 * its {@code main}, which printed the cost of a start/stop pair.
 */
public class Timer implements Serializable {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(Timer.class);

    private int count;
    private long totalNanos;
    private long lastNanos;
    private long maxNanos;
    private long minNanos = Long.MAX_VALUE;
    private long startedAt;
    private boolean running;

    /** A stopped timer with no intervals; programs use {@link #createTimer()} as before. */
    protected Timer() {
    }

    /**
     * A timer. The name of the implementation the earlier Ibis would load is accepted for source
     * compatibility; every name, the native {@code "ibis.util.nativeCode.Rdtsc"} included, gives the
     * {@link System#nanoTime()} timer of this class.
     *
     * @param impl the name of the earlier timer implementation class (ignored)
     * @return a new stopped timer
     */
    public static Timer createTimer(String impl) {
        LOG.debug("timer {} requested; using the System.nanoTime timer", impl);
        return new Timer();
    }

    /**
     * A timer suited to this machine: here always the {@link System#nanoTime()} timer.
     *
     * @return a new stopped timer
     */
    public static Timer createTimer() {
        return new Timer();
    }

    /**
     * @return the name of this timer's implementation, {@code "ibis.util.Timer"}
     */
    public String implementationName() {
        return "ibis.util.Timer";
    }

    /**
     * An upper bound of this timer's resolution, in seconds: the nanosecond unit of
     * {@link System#nanoTime()} (its real resolution may be coarser).
     *
     * @return {@code 1e-9}
     */
    public double accuracy() {
        return 1e-9;
    }

    /**
     * The clock: a time stamp in nanoseconds from an arbitrary origin.
     *
     * @return {@link System#nanoTime()}
     */
    public long currentTimeNanos() {
        return System.nanoTime();
    }

    /** Starts an interval; a no-op (logged) if one is running. */
    public synchronized void start() {
        if (running) {
            LOG.warn("Timer.start() while the timer runs: ignored", new IllegalStateException("started twice"));
            return;
        }
        running = true;
        startedAt = currentTimeNanos();
    }

    /** Ends the running interval and adds it; a no-op (logged) if none runs. */
    public synchronized void stop() {
        if (!running) {
            LOG.warn("Timer.stop() while the timer is stopped: ignored", new IllegalStateException("not started"));
            return;
        }
        // A clock that steps back (possible for an overriding clock) gives an empty interval, not a negative one.
        lastNanos = Math.max(0, currentTimeNanos() - startedAt);
        running = false;
        totalNanos += lastNanos;
        count++;
        maxNanos = Math.max(maxNanos, lastNanos);
        minNanos = Math.min(minNanos, lastNanos);
    }

    /**
     * Forgets every interval: count, total, last, shortest and longest are zero again. A running interval
     * keeps running.
     */
    public synchronized void reset() {
        count = 0;
        totalNanos = 0;
        lastNanos = 0;
        maxNanos = 0;
        minNanos = Long.MAX_VALUE;
    }

    /**
     * Adds {@code t}'s intervals (their number and total) to this timer.
     *
     * @param t the timer to add; it is not changed
     */
    public void add(Timer t) {
        int n;
        long nanos;
        synchronized (t) {
            n = t.count;
            nanos = t.totalNanos;
        }
        addIntervals(n, nanos);
    }

    /**
     * Adds {@code cnt} intervals that took {@code t} microseconds together.
     *
     * @param t the time to add, in microseconds
     * @param cnt the number of intervals
     */
    public void add(long t, int cnt) {
        addIntervals(cnt, t * 1000);
    }

    private synchronized void addIntervals(int n, long nanos) {
        count += n;
        totalNanos += nanos;
    }

    /**
     * @return the number of intervals measured (or added)
     */
    public synchronized int nrTimes() {
        return count;
    }

    /**
     * The total of the intervals, including the running one up to now, in microseconds.
     *
     * @return the total time in microseconds
     */
    public synchronized double totalTimeVal() {
        long current = running ? Math.max(0, currentTimeNanos() - startedAt) : 0;
        return (totalNanos + current) / 1000.0;
    }

    /**
     * The mean of the finished intervals in microseconds; 0 when there is none.
     *
     * @return the average time in microseconds
     */
    public synchronized double averageTimeVal() {
        return count == 0 ? 0.0 : totalNanos / (count * 1000.0);
    }

    /**
     * @return the last finished interval in microseconds (0 before the first)
     */
    public synchronized double lastTimeVal() {
        return lastNanos / 1000.0;
    }

    /**
     * @return the longest finished interval in microseconds (0 before the first)
     */
    public synchronized double maxTimeVal() {
        return maxNanos / 1000.0;
    }

    /**
     * @return the shortest finished interval in microseconds ({@code Long.MAX_VALUE / 1000.0} before the first,
     *         as in IPL 2.x)
     */
    public synchronized double minTimeVal() {
        return minNanos / 1000.0;
    }

    /**
     * @return {@link #totalTimeVal()} through {@link #format(double)}
     */
    public String totalTime() {
        return format(totalTimeVal());
    }

    /**
     * @return {@link #averageTimeVal()} through {@link #format(double)}
     */
    public String averageTime() {
        return format(averageTimeVal());
    }

    /**
     * @return {@link #lastTimeVal()} through {@link #format(double)}
     */
    public String lastTime() {
        return format(lastTimeVal());
    }

    /**
     * @return {@link #maxTimeVal()} through {@link #format(double)}
     */
    public String maxTime() {
        return format(maxTimeVal());
    }

    /**
     * @return {@link #minTimeVal()} through {@link #format(double)}
     */
    public String minTime() {
        return format(minTimeVal());
    }

    /**
     * A time for people: three decimals in the largest unit of ns, us, ms and s that keeps the number at
     * least 1, the number right-aligned in seven characters and the unit in two (so {@code "  1.500 ms"},
     * {@code " 12.000  s"}), the decimal point a dot whatever the locale. Zero and negative times are
     * {@code "  0.000  s"}.
     *
     * @param micros the time in microseconds
     * @return the formatted time
     */
    public static String format(double micros) {
        if (!(micros > 0.0)) {
            return number(0.0, " s");
        }
        if (micros < 1.0) {
            return number(micros * 1e3, "ns");
        }
        if (micros < 1e3) {
            return number(micros, "us");
        }
        if (micros < 1e6) {
            return number(micros / 1e3, "ms");
        }
        return number(micros / 1e6, " s");
    }

    private static String number(double value, String unit) {
        return String.format(Locale.ROOT, "%7.3f %s", value, unit);
    }
}
