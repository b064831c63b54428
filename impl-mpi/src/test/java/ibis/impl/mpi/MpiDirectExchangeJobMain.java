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
import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * One rank of a 2-rank job of Ibis over {@code mpi} (started by {@code mpirun}, the registry over
 * MPI) in which both ranks send a large direct byte buffer to each other before either receives, as
 * a collective's exchange step does: round {@code i} writes payload {@code (rank, i)} with
 * {@code writeByteBuffer}, finishes, overwrites its buffer at once (allowed after {@code finish()}),
 * and only then receives the peer's message into a direct buffer and checks it. The sizes go from 4
 * KiB to 2 MiB, across the transport's 256 KiB message limit. The MPI sink sends such a buffer from
 * the application's memory and returns from the write when MPI is done with it, so a receiving
 * process that took DATA only when its reader reads would deadlock here, and a send that returned
 * early would deliver the overwritten bytes. Prints the CRC-32 of everything received ({@link
 * #expected}).
 */
public final class MpiDirectExchangeJobMain {

    /** The sizes of the rounds, in turn. */
    static final int[] SIZES = {4096, 100 * 1024, 256 * 1024 + 1, 600 * 1024, 2 << 20};
    private static final long TIMEOUT = 120_000;
    private static final PortType TYPE = new PortType(PortType.COMMUNICATION_RELIABLE,
            PortType.COMMUNICATION_FIFO, PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT,
            PortType.RECEIVE_TIMEOUT, PortType.CONNECTION_ONE_TO_ONE);

    private MpiDirectExchangeJobMain() {
    }

    /** Runs one rank: arguments are the number of rounds. */
    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        MpiIbisJobMain.runRankAndExit(rank -> run(rank, rounds));
    }

    /** Fills {@code into[0, length)} with the payload that {@code rank} sends in round {@code i}. */
    static void fill(ByteBuffer into, int length, int rank, int i) {
        into.clear();
        long x = (i * 31L + rank + 1) * 0x9E3779B97F4A7C15L;
        for (int k = 0; k < length; k += 8) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            if (k + 8 <= length) {
                into.putLong(k, x);
            } else {
                for (int j = k; j < length; j++) {
                    into.put(j, (byte) (x >>> ((j - k) << 3)));
                }
            }
        }
    }

    /** What rank {@code rank} prints after {@code rounds} rounds: the CRC-32 of what it received. */
    static String expected(int rank, int rounds) {
        ByteBuffer b = ByteBuffer.allocate(SIZES[SIZES.length - 1]);
        CRC32 crc = new CRC32();
        for (int i = 0; i < rounds; i++) {
            int length = SIZES[i % SIZES.length];
            fill(b, length, 1 - rank, i);
            crc.update(b.array(), 0, length);
        }
        return "rounds=" + rounds + " crc=" + String.format("%08x", crc.getValue());
    }

    private static String run(int rank, int rounds) throws Exception {
        Ibis ibis = IbisFactory.createIbis(new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT), null, TYPE);
        try {
            ReceivePort in = ibis.createReceivePort(TYPE, "exchange");
            in.enableConnections();
            SendPort out = MpiIbisJobMain.connectToOtherRank(ibis, TYPE, rank, "exchange", TIMEOUT);
            int max = SIZES[SIZES.length - 1];
            ByteBuffer sent = ByteBuffer.allocateDirect(max);
            ByteBuffer got = ByteBuffer.allocateDirect(max);
            byte[] bytes = new byte[max];
            CRC32 crc = new CRC32();
            for (int i = 0; i < rounds; i++) {
                int length = SIZES[i % SIZES.length];
                fill(sent, length, rank, i);
                sent.limit(length);
                WriteMessage w = out.newMessage();
                w.writeInt(i);
                w.writeByteBuffer(sent);
                w.finish();
                fill(sent, length, rank, i + 1_000_000); // the peer must not see these bytes
                ReadMessage m = in.receive(TIMEOUT);
                int round = m.readInt();
                got.clear().limit(length);
                m.readByteBuffer(got);
                m.finish();
                if (round != i) {
                    throw new IOException("round " + i + " received round " + round);
                }
                got.get(0, bytes, 0, length);
                crc.update(bytes, 0, length);
            }
            out.close();
            in.close();
            return "rounds=" + rounds + " crc=" + String.format("%08x", crc.getValue());
        } finally {
            ibis.end();
        }
    }
}
