package ibis.benchmarks.ipl;

import ibis.benchmarks.JitActivity;
import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * The Ibis side of {@link MpiSuite}: an ordinary IPL program of two members, started as the two
 * ranks of an {@code mpirun} job (or by {@code bin/ibis-run --np 2}), with the same measurements
 * and output as the suite's C and Java MPI peers. One-to-one ports, data serialization, explicit
 * receive: {@code lat N} times N round trips of one byte and prints the one-way latency; {@code bw
 * N SIZE} streams N messages of {@code writeArray(byte[SIZE])}, the last one acknowledged, and
 * prints 10^6 bytes per second; {@code bwd N SIZE} streams them with {@code writeByteBuffer} and
 * {@code readByteBuffer} of one direct buffer per side, as the MPI peers do. Rank 0 (the member
 * elected "first") prints {@code RESULT lat <microseconds>}, {@code RESULT bw <MB/s>} or
 * {@code RESULT bwd <MB/s>}.
 *
 * <p>Warm-up: untimed rounds of N round trips or messages, repeated until rank 0 has spent the
 * milliseconds of system property {@value #WARMUP_PROPERTY} (default {@value #DEFAULT_WARMUP_MILLIS})
 * in them, at least one, and after that while the JIT of either member compiled for more than a
 * twentieth of the last round ({@link JitActivity}), up to five times that time in all
 * (after each round rank 1 tells rank 0 whether its JIT was busy, and rank 0 tells rank 1 whether
 * another round follows). A count alone is not enough: on two busy cores the JIT compiles the
 * message path only after some 10,000 messages (docs/benchmarks.md), so a fixed 5,000 untimed
 * messages measured the interpreter; and a fixed time is not either: the C2 compiler, starved by the
 * two busy members, was still compiling the stream's methods when the timed round began in some
 * runs, which then came out at 0.5-2 GB/s instead of 6-8 (`bwd`, shared memory, this VM; none of
 * eight runs with only C1 did).
 * Every message is checked: a round trip's byte comes back as sent, a streamed message's first and
 * last byte are the ones the sender put there.
 */
public final class RankPingPong {

    /** Milliseconds rank 0 spends in untimed rounds before it times. */
    public static final String WARMUP_PROPERTY = "ibis.bench.mpi.warmup.ms";
    static final long DEFAULT_WARMUP_MILLIS = 1000;

    private RankPingPong() {
    }

    /** Runs one member. */
    public static void main(String[] args) throws Exception {
        boolean latency = args[0].equals("lat");
        boolean direct = args[0].equals("bwd");
        long n = Long.parseLong(args[1]);
        int size = latency ? 1 : Integer.parseInt(args[2]);
        PortType type = new PortType(PortType.COMMUNICATION_RELIABLE, PortType.SERIALIZATION_DATA,
                PortType.RECEIVE_EXPLICIT, PortType.CONNECTION_ONE_TO_ONE);
        Ibis ibis = IbisFactory.createIbis(new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT), null, type);
        try {
            IbisIdentifier first = ibis.registry().elect("first");
            boolean zero = first.equals(ibis.identifier());
            ReceivePort in = ibis.createReceivePort(type, "in");
            in.enableConnections();
            IbisIdentifier other;
            if (zero) {
                other = ibis.registry().getElectionResult("second");
            } else {
                ibis.registry().elect("second"); // tells the first member who its peer is
                other = first;
            }
            SendPort out = ibis.createSendPort(type);
            out.connect(other, "in");
            long warmupNanos = Long.getLong(WARMUP_PROPERTY, DEFAULT_WARMUP_MILLIS) * 1_000_000L;
            byte[] buf = new byte[size];
            ByteBuffer directBuf = direct ? ByteBuffer.allocateDirect(size) : null;
            long start = System.nanoTime();
            JitActivity jit = new JitActivity();
            boolean again = true;
            while (again) {
                if (latency) {
                    roundTrips(zero, n, in, out);
                } else if (direct) {
                    stream(zero, n, directBuf, in, out);
                } else {
                    stream(zero, n, buf, in, out);
                }
                long spent = System.nanoTime() - start;
                again = goOn(zero, spent < warmupNanos, spent < 5 * warmupNanos, jit.busy(), in, out);
            }
            double result = latency ? roundTrips(zero, n, in, out)
                    : direct ? stream(zero, n, directBuf, in, out) : stream(zero, n, buf, in, out);
            if (zero) {
                System.out.println(String.format(Locale.ROOT, latency ? "RESULT lat %.4f"
                        : direct ? "RESULT bwd %.1f" : "RESULT bw %.1f", result));
                System.out.flush();
            }
            out.close();
            in.close();
        } finally {
            ibis.end();
        }
    }

    /**
     * Whether another warm-up round follows: rank 1 tells rank 0 whether its JIT was busy in the last
     * round, rank 0 decides (another round while {@code again}, or while {@code mayExtend} and either
     * JIT was busy) and tells rank 1; both return the decision.
     */
    private static boolean goOn(boolean zero, boolean again, boolean mayExtend, boolean jitBusy, ReceivePort in,
            SendPort out) throws IOException {
        if (zero) {
            ReadMessage r = in.receive();
            boolean peerBusy = r.readBoolean();
            r.finish();
            boolean decision = again || mayExtend && (jitBusy || peerBusy);
            WriteMessage w = out.newMessage();
            w.writeBoolean(decision);
            w.finish();
            return decision;
        }
        WriteMessage w = out.newMessage();
        w.writeBoolean(jitBusy);
        w.finish();
        ReadMessage r = in.receive();
        boolean answer = r.readBoolean();
        r.finish();
        return answer;
    }

    private static double roundTrips(boolean zero, long n, ReceivePort in, SendPort out) throws IOException {
        long start = System.nanoTime();
        for (long i = 0; i < n; i++) {
            if (zero) {
                WriteMessage w = out.newMessage();
                w.writeByte((byte) i);
                w.finish();
                ReadMessage r = in.receive();
                byte b = r.readByte();
                r.finish();
                if (b != (byte) i) {
                    throw new IOException("round trip " + i + " returned another byte");
                }
            } else {
                ReadMessage r = in.receive();
                byte b = r.readByte();
                r.finish();
                WriteMessage w = out.newMessage();
                w.writeByte(b);
                w.finish();
            }
        }
        return (System.nanoTime() - start) / 1e3 / n / 2;
    }

    private static double stream(boolean zero, long n, byte[] buf, ReceivePort in, SendPort out) throws IOException {
        int size = buf.length;
        long start = System.nanoTime();
        for (long i = 0; i < n; i++) {
            if (zero) {
                buf[0] = (byte) i;
                buf[size - 1] = (byte) (i * 7);
                WriteMessage w = out.newMessage();
                w.writeArray(buf);
                w.finish();
            } else {
                ReadMessage r = in.receive();
                r.readArray(buf);
                r.finish();
                if (buf[0] != (byte) i || buf[size - 1] != (byte) (i * 7)) {
                    throw new IOException("message " + i + " is not the one sent");
                }
            }
            if (i == n - 1) {
                endOfRound(zero, in, out);
            }
        }
        return n * (double) size / ((System.nanoTime() - start) / 1e9) / 1e6;
    }

    /**
     * The stream with direct buffers: {@code writeByteBuffer}/{@code readByteBuffer} of one reused
     * direct buffer per side, as the MPI peers stream from and into direct buffers.
     */
    private static double stream(boolean zero, long n, ByteBuffer buf, ReceivePort in, SendPort out)
            throws IOException {
        int size = buf.capacity();
        long start = System.nanoTime();
        for (long i = 0; i < n; i++) {
            buf.clear();
            if (zero) {
                buf.put(0, (byte) i);
                buf.put(size - 1, (byte) (i * 7));
                WriteMessage w = out.newMessage();
                w.writeByteBuffer(buf);
                w.finish();
            } else {
                ReadMessage r = in.receive();
                r.readByteBuffer(buf);
                r.finish();
                if (buf.get(0) != (byte) i || buf.get(size - 1) != (byte) (i * 7)) {
                    throw new IOException("message " + i + " is not the one sent");
                }
            }
            if (i == n - 1) {
                endOfRound(zero, in, out);
            }
        }
        return n * (double) size / ((System.nanoTime() - start) / 1e9) / 1e6;
    }

    /** The end of a stream round: the receiver (rank 1) acknowledges that it has everything. */
    private static void endOfRound(boolean zero, ReceivePort in, SendPort out) throws IOException {
        if (zero) {
            ReadMessage r = in.receive();
            r.readByte();
            r.finish();
        } else {
            WriteMessage w = out.newMessage();
            w.writeByte((byte) 1);
            w.finish();
        }
    }
}
