package ibis.ipl.impl;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this host has more runnable threads than processors right now ("crowded"), for pollers
 * that must decide whether to give the processor away now and then ({@link SpinWait}). Linux says
 * how many threads are runnable in the fourth field of {@code /proc/loadavg} ({@code running/total},
 * the asking thread included); this class reads it at most every {@value #REFRESH_MILLIS} ms, from
 * whichever thread asks first after that. Asking costs a field read and a draw of the asking
 * thread's own random numbers: the clock is read at one question in {@value #CLOCK_EVERY} only (a
 * read costs 25-30 ns on this VM's kvm-clock, and pollers ask once per poll, some once per message;
 * a count shared by the threads would be written by pollers on every core). Where the
 * file cannot be read (not Linux) the host counts as crowded, which keeps the cautious behaviour.
 * Transports use it for their own waits too (impl-mpi's waiters on an oversubscribed host spin
 * while it is not crowded and yield between polls while it is).
 */
public final class HostLoad {

    private static final Logger LOG = LoggerFactory.getLogger(HostLoad.class);
    /** How old the answer may get before it is read again. */
    static final long REFRESH_MILLIS = 10;
    private static final long REFRESH_NANOS = TimeUnit.MILLISECONDS.toNanos(REFRESH_MILLIS);
    private static final String LOADAVG = "/proc/loadavg";

    private static final AtomicBoolean REFRESHING = new AtomicBoolean();
    private static final int PROCESSORS = Runtime.getRuntime().availableProcessors();
    /** The runnable threads when last looked at; -1 when that cannot be known. */
    private static volatile int runnableThreads = -1;
    private static volatile long readAt = System.nanoTime() - 2 * REFRESH_NANOS;
    /**
     * The clock is read (and the file, when the answer is older than {@value #REFRESH_MILLIS} ms)
     * at one question in this many, drawn at random per question ({@link ThreadLocalRandom}, whose
     * state is the asking thread's own): the answer may be a few questions older than that. A power
     * of two.
     */
    static final int CLOCK_EVERY = 8;
    /** Guarded by REFRESHING; null when the file cannot be read. */
    private static RandomAccessFile file = open();
    private static final byte[] BYTES = new byte[256];

    private HostLoad() {
    }

    private static RandomAccessFile open() {
        try {
            return new RandomAccessFile(LOADAVG, "r");
        } catch (IOException | SecurityException e) {
            LOG.debug("{} cannot be read ({}): pollers take the host as crowded", LOADAVG, e.toString());
            return null;
        }
    }

    /**
     * Whether more threads were runnable on this host than it has processors when it was last
     * looked at (at most {@value #REFRESH_MILLIS} ms ago); true when that cannot be known.
     */
    public static boolean crowded() {
        return crowdedBeyond(0);
    }

    /**
     * Whether more than {@code spare} threads beyond its processors were runnable on this host when
     * it was last looked at (at most {@value #REFRESH_MILLIS} ms and a few questions ago, see
     * {@link #CLOCK_EVERY}); true when that cannot be known. A poller that knows some runnable
     * threads to be pollers like itself (one rank of a job per core, each with a thread that polls)
     * tolerates a few.
     */
    public static boolean crowdedBeyond(int spare) {
        int running = runnableThreads;
        boolean look = (ThreadLocalRandom.current().nextInt() & (CLOCK_EVERY - 1)) == 0;
        if (look || running < 0 && file != null) { // (the draw says look, or not read yet)
            refreshIfOld();
            running = runnableThreads;
        }
        return crowded(running, PROCESSORS, spare);
    }

    /** Reads the file again when the answer is older than {@value #REFRESH_MILLIS} ms (one thread at a time). */
    private static void refreshIfOld() {
        long now = System.nanoTime();
        if (now - readAt > REFRESH_NANOS && file != null && REFRESHING.compareAndSet(false, true)) {
            try {
                runnableThreads = read();
                readAt = now;
            } finally {
                REFRESHING.set(false);
            }
        }
    }

    /** Whether {@code running} runnable threads (-1: unknown) crowd {@code processors} beyond {@code spare}. */
    static boolean crowded(int running, int processors, int spare) {
        return running < 0 || running > processors + spare;
    }

    /** Reads the file once more (holding REFRESHING): the runnable threads, -1 when unknown; nothing is allocated. */
    private static int read() {
        RandomAccessFile f = file;
        if (f == null) {
            return -1; // given up by a refresh that failed after this caller looked
        }
        try {
            f.seek(0);
            int length = f.read(BYTES, 0, BYTES.length);
            return runnable(BYTES, Math.max(0, length));
        } catch (IOException e) {
            LOG.debug("reading {} failed ({}): pollers take the host as crowded from now on", LOADAVG,
                    e.toString());
            try {
                f.close();
            } catch (IOException ignored) {
                // it is given up either way
            }
            file = null;
            return -1;
        }
    }

    /**
     * The number of runnable threads in the text of {@code /proc/loadavg} ("0.50 0.40 0.30 3/120
     * 4567"): the number before the '/'; -1 when the text is not of that form.
     */
    static int runnable(byte[] text, int length) {
        int field = 0;
        int i = 0;
        while (i < length && field < 3) {
            if (text[i] == ' ') {
                field++;
                while (i + 1 < length && text[i + 1] == ' ') {
                    i++;
                }
            }
            i++;
        }
        int value = 0;
        int digits = 0;
        while (i < length && text[i] >= '0' && text[i] <= '9' && digits < 9) {
            value = value * 10 + text[i] - '0';
            digits++;
            i++;
        }
        return field == 3 && digits > 0 && i < length && text[i] == '/' ? value : -1;
    }
}
