package ibis.benchmarks.gmi.apps;

/**
 * The time an application computes: started by the application once its group is set up and
 * every process is there (not counting JVM start, stub generation and connection set-up), stopped
 * by the entry point when the application returned its checksum.
 */
public final class Stopwatch {

    private long start = -1;
    private long stop = -1;

    /** Starts (again). */
    public void start() {
        start = System.nanoTime();
    }

    /** Stops. */
    public void stop() {
        stop = System.nanoTime();
    }

    /** @return the seconds between start and stop */
    public double seconds() {
        if (start < 0 || stop < start) {
            throw new IllegalStateException("the stopwatch was not started and stopped");
        }
        return (stop - start) / 1e9;
    }
}
