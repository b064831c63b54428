import java.nio.ByteBuffer;

import mpi.MPI;
import mpi.MPIException;

/**
 * The Java peer of `bin/ibis-bench ipl --impl mpi` (ibis.benchmarks.ipl.MpiSuite): the same
 * ping-pong and stream as mpi_pingpong.c, written against the Open MPI Java bindings with direct
 * buffers (MPI.newByteBuffer), as a Java MPI programmer writes it. The suite compiles this file at
 * run time against the bindings' classes (they are not in every build) and runs it as 2 ranks.
 * Arguments and output as mpi_pingpong.c: "lat N" or "bw N SIZE"; rank 0 prints one RESULT line.
 *
 * <p>Warm-up: as the Ibis program, untimed rounds of N round trips or messages (each also untimed
 * for its first half) until rank 0 has spent the milliseconds of system property
 * ibis.bench.mpi.warmup.ms (default 1000) in them; after each round rank 0 tells rank 1 whether
 * another one follows. The JIT needs them here too: 0.215-0.229 µs one way after 20,000 untimed round
 * trips, 0.179-0.194 µs after 200,000 (shared memory, this VM, alternated).
 */
public final class MpiJavaPingPong {

    private MpiJavaPingPong() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        if (MPI.COMM_WORLD.getSize() != 2) {
            throw new IllegalStateException("needs exactly 2 ranks");
        }
        long n = Long.parseLong(args[1]);
        boolean lat = args[0].equals("lat");
        long warmupNanos = Long.getLong("ibis.bench.mpi.warmup.ms", 1000) * 1_000_000L;
        long warmupStart = System.nanoTime();
        do {
            if (lat) {
                latency(rank, n);
            } else {
                bandwidth(rank, n, Integer.parseInt(args[2]));
            }
        } while (again(rank, System.nanoTime() - warmupStart < warmupNanos));
        if (lat) {
            double us = latency(rank, n);
            if (rank == 0) {
                System.out.printf("RESULT lat %.4f%n", us);
            }
        } else {
            double mbs = bandwidth(rank, n, Integer.parseInt(args[2]));
            if (rank == 0) {
                System.out.printf("RESULT bw %.1f%n", mbs);
            }
        }
        System.out.flush();
        MPI.Finalize();
    }

    /** Rank 0's decision whether another untimed round follows, told to rank 1. */
    private static boolean again(int rank, boolean wanted) throws MPIException {
        ByteBuffer decision = MPI.newByteBuffer(1);
        if (rank == 0) {
            decision.put(0, (byte) (wanted ? 1 : 0));
            MPI.COMM_WORLD.send(decision, 1, MPI.BYTE, 1, 4);
        } else {
            MPI.COMM_WORLD.recv(decision, 1, MPI.BYTE, 0, 4);
        }
        return decision.get(0) == 1;
    }

    private static double latency(int rank, long n) throws MPIException {
        ByteBuffer b = MPI.newByteBuffer(1);
        double start = 0;
        for (long i = -n; i < n; i++) {
            if (i == 0) {
                start = MPI.wtime();
            }
            if (rank == 0) {
                byte sent = (byte) i;
                b.put(0, sent);
                MPI.COMM_WORLD.send(b, 1, MPI.BYTE, 1, 1);
                MPI.COMM_WORLD.recv(b, 1, MPI.BYTE, 1, 1);
                if (b.get(0) != sent) {
                    throw new IllegalStateException("round trip returned another byte");
                }
            } else {
                MPI.COMM_WORLD.recv(b, 1, MPI.BYTE, 0, 1);
                MPI.COMM_WORLD.send(b, 1, MPI.BYTE, 0, 1);
            }
        }
        return (MPI.wtime() - start) * 1e6 / n / 2;
    }

    private static double bandwidth(int rank, long n, int size) throws MPIException {
        ByteBuffer buf = MPI.newByteBuffer(size);
        ByteBuffer ack = MPI.newByteBuffer(1);
        double start = 0;
        for (long i = -n; i < n; i++) {
            if (i == 0) {
                start = MPI.wtime();
            }
            if (rank == 0) {
                buf.put(0, (byte) i);
                buf.put(size - 1, (byte) (i * 7));
                MPI.COMM_WORLD.send(buf, size, MPI.BYTE, 1, 2);
            } else {
                MPI.COMM_WORLD.recv(buf, size, MPI.BYTE, 0, 2);
                if (buf.get(0) != (byte) i || buf.get(size - 1) != (byte) (i * 7)) {
                    throw new IllegalStateException("wrong message " + i);
                }
            }
            if (i == -1 || i == n - 1) {
                if (rank == 0) {
                    MPI.COMM_WORLD.recv(ack, 1, MPI.BYTE, 1, 3);
                } else {
                    MPI.COMM_WORLD.send(ack, 1, MPI.BYTE, 0, 3);
                }
            }
        }
        return n * (double) size / (MPI.wtime() - start) / 1e6;
    }
}
