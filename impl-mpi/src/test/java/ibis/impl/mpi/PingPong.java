package ibis.impl.mpi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * A checksummed ping-pong between ranks 0 and 1 of an MPI job, used by the tests under {@code mpirun}:
 * rank 0 sends messages of several sizes filled with pseudo-random bytes, rank 1 receives each one
 * (even rounds: probe, then receive; odd rounds: a matched probe and its receive), checks its size
 * and checksum and sends it back, and rank 0 checks the echo. Each rank
 * then prints one line: {@code pingpong rank=R of N <binding>: messages=M bytes=B crc=C OK}, where C
 * is the CRC-32 over every message in order (equal on both ranks), or {@code pingpong rank=R FAILED:
 * <reason>} and exits with 1.
 */
final class PingPong {

    /** Message sizes, from empty to larger than any eager limit. */
    static final int[] SIZES = {0, 1, 1000, 65_536, 1 << 20, 4 << 20};
    /** Round trips per size: fewer for the large ones. */
    static final int[] ROUNDS = {50, 200, 200, 20, 5, 3};
    /** The tag no message uses (for the cancelled receive). */
    static final int UNUSED_TAG = 999;

    private PingPong() {
    }

    /** Runs the ping-pong and exits the JVM: 0 when it passed, 1 when not. */
    static void runAndExit(PingPongEndpoint endpoint) {
        int rank = -1;
        try {
            rank = endpoint.rank();
            String result = run(endpoint);
            endpoint.finish();
            System.out.println("pingpong rank=" + rank + " of 2 " + endpoint.describe() + ": " + result + " OK");
            System.out.flush();
            System.exit(0);
        } catch (Throwable t) {
            System.out.println("pingpong rank=" + rank + " FAILED: " + t);
            t.printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
        }
    }

    private static String run(PingPongEndpoint endpoint) throws IOException {
        if (endpoint.size() != 2) {
            throw new IOException("needs 2 ranks, runs with " + endpoint.size());
        }
        int rank = endpoint.rank();
        int peer = 1 - rank;
        int largest = SIZES[SIZES.length - 1];
        ByteBuffer buffer = ByteBuffer.allocateDirect(largest);
        CRC32 all = new CRC32();
        CRC32 one = new CRC32();
        long messages = 0;
        long bytes = 0;
        for (int s = 0; s < SIZES.length; s++) {
            int size = SIZES[s];
            int tag = s + 1;
            for (int round = 0; round < ROUNDS[s]; round++) {
                long expected = fill(one, buffer, size, s * 1_000_003L + round, rank == 0);
                if (rank == 0) {
                    endpoint.send(buffer, size, peer, tag);
                    buffer.clear();
                    int echoed = endpoint.receive(buffer, largest, peer, tag);
                    check(size, round, "echo", echoed, size, checksum(one, buffer, echoed), expected);
                } else if (round % 2 == 1) {
                    int received = endpoint.receiveMatched(buffer, largest, peer, tag);
                    check(size, round, "matched message", received, size, checksum(one, buffer, received), expected);
                    endpoint.send(buffer, received, peer, tag);
                } else {
                    int probed = endpoint.probe(peer, tag);
                    check(size, round, "probed size", probed, size, expected, expected);
                    int received = endpoint.receive(buffer, largest, peer, tag);
                    check(size, round, "message", received, size, checksum(one, buffer, received), expected);
                    endpoint.send(buffer, received, peer, tag);
                }
                all.update(buffer.duplicate().position(0).limit(size));
                messages++;
                bytes += size;
            }
        }
        if (!endpoint.cancelUnmatchedReceive(buffer, UNUSED_TAG)) {
            throw new IOException("a receive no message matched was not cancelled");
        }
        return String.format("messages=%d bytes=%d crc=%08x", messages, bytes, all.getValue());
    }

    /**
     * Fills the first {@code size} bytes with the message's pseudo-random content when {@code write},
     * and returns its CRC-32 either way (the receiver computes the expected value without writing).
     */
    private static long fill(CRC32 crc, ByteBuffer buffer, int size, long seed, boolean write) {
        SplittableRandom random = new SplittableRandom(seed);
        crc.reset();
        byte[] chunk = new byte[Math.min(size, 8192)];
        for (int at = 0; at < size; at += chunk.length) {
            int n = Math.min(chunk.length, size - at);
            for (int i = 0; i < n; i++) {
                chunk[i] = (byte) random.nextInt();
            }
            crc.update(chunk, 0, n);
            if (write) {
                buffer.put(at, chunk, 0, n);
            }
        }
        return crc.getValue();
    }

    private static long checksum(CRC32 crc, ByteBuffer buffer, int length) {
        crc.reset();
        crc.update(buffer.duplicate().position(0).limit(length));
        return crc.getValue();
    }

    private static void check(int size, int round, String what, int count, int expectedCount, long crc,
            long expectedCrc) throws IOException {
        if (count != expectedCount || crc != expectedCrc) {
            throw new IOException(String.format("size %d round %d: %s has %d bytes (expected %d), crc %08x"
                    + " (expected %08x)", size, round, what, count, expectedCount, crc, expectedCrc));
        }
    }
}
