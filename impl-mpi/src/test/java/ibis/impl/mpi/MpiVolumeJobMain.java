package ibis.impl.mpi;

import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisFactory;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;

import java.io.IOException;
import java.util.zip.CRC32;

/**
 * One rank of a 2-rank volume job of Ibis over {@code mpi} (started by {@code mpirun}, the registry
 * over MPI): rank 1 streams {@code small} messages (1 to 64 bytes after a sequence number) or
 * {@code large} ones (1 MiB) to rank 0 over a one-to-one port with explicit receive; rank 0 checks
 * every sequence number and length, and both compute the CRC-32 over every payload in order
 * ({@link #expected}). Rank 0 then returns its checksum, which rank 1 compares with its own. Each
 * rank prints the {@link PingPong} result line and exits with 0 when all of it held.
 *
 * <p>Arguments: {@code small|large} and the number of messages.
 */
public final class MpiVolumeJobMain {

    /** The size of a large message. */
    static final int LARGE = 1 << 20;
    private static final long TIMEOUT = 120_000;
    private static final PortType TYPE = new PortType(PortType.COMMUNICATION_RELIABLE,
            PortType.COMMUNICATION_FIFO, PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT,
            PortType.RECEIVE_TIMEOUT, PortType.CONNECTION_ONE_TO_ONE);

    private MpiVolumeJobMain() {
    }

    /** Runs one rank; exits with 0 when everything arrived intact and in order. */
    public static void main(String[] args) {
        boolean large = args[0].equals("large");
        long messages = Long.parseLong(args[1]);
        MpiIbisJobMain.runRankAndExit(rank -> run(rank, large, messages));
    }

    /** The length of payload {@code i}. */
    static int length(boolean large, long i) {
        return large ? LARGE : 1 + (int) (i % 64);
    }

    /** Fills {@code into[0, length)} with payload {@code i}: pseudo-random bytes, a cheap generator. */
    static void fill(byte[] into, int length, long i) {
        long x = i * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L;
        for (int k = 0; k < length; k++) {
            if ((k & 7) == 0) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
            into[k] = (byte) (x >>> ((k & 7) << 3));
        }
    }

    /** The result line's part that both ranks and the test compute alike. */
    static String expected(boolean large, long messages) {
        CRC32 crc = new CRC32();
        byte[] payload = new byte[large ? LARGE : 64];
        long bytes = 0;
        for (long i = 0; i < messages; i++) {
            int length = length(large, i);
            fill(payload, length, i);
            crc.update(payload, 0, length);
            bytes += length;
        }
        return line(messages, bytes, crc);
    }

    private static String line(long messages, long bytes, CRC32 crc) {
        return "messages=" + messages + " bytes=" + bytes + " crc=" + String.format("%08x", crc.getValue());
    }

    private static String run(int rank, boolean large, long messages) throws Exception {
        Ibis ibis = IbisFactory.createIbis(new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT), null, TYPE);
        try {
            ReceivePort in = ibis.createReceivePort(TYPE, "volume");
            in.enableConnections();
            SendPort out = MpiIbisJobMain.connectToOtherRank(ibis, TYPE, rank, "volume", TIMEOUT);
            CRC32 crc = new CRC32();
            byte[] payload = new byte[large ? LARGE : 64];
            long bytes = 0;
            if (rank == 0) {
                for (long i = 0; i < messages; i++) {
                    ReadMessage m = in.receive(TIMEOUT);
                    long seq = m.readLong();
                    int length = m.readInt();
                    if (seq != i || length != length(large, i)) {
                        throw new IOException("message " + i + " arrived as " + seq + " with " + length + " bytes");
                    }
                    m.readArray(payload, 0, length);
                    m.finish();
                    crc.update(payload, 0, length);
                    bytes += length;
                }
                WriteMessage w = out.newMessage();
                w.writeLong(crc.getValue());
                w.finish();
            } else {
                for (long i = 0; i < messages; i++) {
                    int length = length(large, i);
                    fill(payload, length, i);
                    WriteMessage m = out.newMessage();
                    m.writeLong(i);
                    m.writeInt(length);
                    m.writeArray(payload, 0, length);
                    m.finish();
                    crc.update(payload, 0, length);
                    bytes += length;
                }
                ReadMessage reply = in.receive(TIMEOUT);
                long theirs = reply.readLong();
                reply.finish();
                if (theirs != crc.getValue()) {
                    throw new IOException("rank 0's checksum " + Long.toHexString(theirs) + " differs from ours "
                            + Long.toHexString(crc.getValue()));
                }
            }
            out.close();
            in.close();
            return line(messages, bytes, crc);
        } finally {
            ibis.end();
        }
    }
}
