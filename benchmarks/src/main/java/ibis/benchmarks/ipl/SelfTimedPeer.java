package ibis.benchmarks.ipl;

import java.io.IOException;

/**
 * A peer that times itself: a separate program (a C benchmark such as {@code ucx_perftest}) that
 * runs a given number of operations and reports its own figure, which the suite records as it is.
 */
interface SelfTimedPeer {

    /**
     * Runs {@code iterations} operations.
     *
     * @param iterations operations (round trips, or messages)
     * @return the figure in the report's unit: µs (one-way) or MB/s (10^6 bytes/s)
     * @throws IOException when the program fails or prints no figure
     * @throws InterruptedException when interrupted
     */
    double measure(int iterations) throws IOException, InterruptedException;

    /** @return the nanoseconds one operation took in the last {@link #measure}, to size the next ones */
    double lastNanosPerIteration();
}
