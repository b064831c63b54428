package ibis.benchmarks.ipl;

import java.io.IOException;

/**
 * One benchmarked operation, run a given number of times per measurement. Implementations move
 * data between this JVM and the peer JVM; {@link #run(int)} returns when the last operation has
 * been acknowledged by the peer, so the elapsed time covers the whole transfer.
 */
interface Workload extends AutoCloseable {

    /** Performs {@code iterations} operations (round trips, or messages followed by one ack). */
    void run(int iterations) throws IOException, InterruptedException;

    @Override
    void close() throws IOException;
}
