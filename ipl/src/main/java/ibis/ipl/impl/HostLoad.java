package ibis.ipl.impl;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this host has more runnable threads than processors right now ("crowded"), for pollers
 * that must decide whether to give the processor away now and then ({@link SpinWait}). Linux says
 * how many threads are runnable in the fourth field of {@code /proc/loadavg} ({@code running/total},
 * the asking thread included); this class reads it at most every {@value #REFRESH_MILLIS} ms, from
 * whichever thread asks first after that, so asking costs a clock read and a field read. Where the
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
    private static volatile boolean crowded = true;
    private static volatile long readAt = System.nanoTime() - 2 * REFRESH_NANOS;
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
        long now = System.nanoTime();
        if (now - readAt > REFRESH_NANOS && file != null && REFRESHING.compareAndSet(false, true)) {
            try {
                crowded = read();
                readAt = now;
            } finally {
                REFRESHING.set(false);
            }
        }
        return crowded;
    }

    /** Reads the file once more (holding REFRESHING); nothing is allocated. */
    private static boolean read() {
        RandomAccessFile f = file;
        if (f == null) {
            return true; // given up by a refresh that failed after this caller looked
        }
        try {
            f.seek(0);
            int length = f.read(BYTES, 0, BYTES.length);
            int running = runnable(BYTES, Math.max(0, length));
            return running < 0 || running > PROCESSORS;
        } catch (IOException e) {
            LOG.debug("reading {} failed ({}): pollers take the host as crowded from now on", LOADAVG,
                    e.toString());
            try {
                f.close();
            } catch (IOException ignored) {
                // it is given up either way
            }
            file = null;
            return true;
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
