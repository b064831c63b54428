package ibis.benchmarks.ipl;

import java.io.IOException;

/**
 * One benchmarked operation, run a given number of times per measurement. Implementations move
 * data between this JVM and the peer JVM; {@link #run(int)} returns when the last operation has
 * been acknowledged by the peer, so the elapsed time covers the whole transfer. Every run checks
 * what came back (echoed bytes, or the checksum of the last payload the peer received) and throws
 * an {@link IOException} when it is wrong, so a broken path cannot pass for a fast one.
 */
interface Workload extends AutoCloseable {

    /** Performs {@code iterations} operations (round trips, or messages of which the last is acknowledged). */
    void run(int iterations) throws IOException, InterruptedException;

    @Override
    void close() throws IOException;

    /** Compares the checksum in an acknowledgement with the expected one. */
    static void checkAck(long received, long expected, String what) throws IOException {
        if (received != expected) {
            throw new IOException(what + ": the peer acknowledged checksum " + received + ", expected " + expected);
        }
    }
}
