package ibis.impl.mpi;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;

/**
 * One rank of a 2-rank job of Ibis over {@code mpi} (started by {@code mpirun}; the registry is the
 * central server of the test, named by {@code ibis.server.address}). The elected root receives a
 * checksummed stream (1 B to 3 MiB messages) from the other rank and returns its checksum; a
 * many-to-one port at the root takes messages from two threads of the other rank and one of its own,
 * each in order; a one-to-many port of the root delivers to its own and the other rank's receive
 * ports. Prints the {@link PingPong} result line (checksum of the stream) and exits with 0 when all of
 * it held.
 */
public final class MpiIbisJobMain {

    private static final int[] SIZES = {1, 100, 10_000, 1 << 20, 3 << 20};
    /** Lengths of the double[] and char[] each stream message carries too (600,007 doubles: beyond the window). */
    private static final int[] ARRAY_SIZES = {0, 1, 3, 1001, 300_001, 600_007};
    private static final int STREAM_MESSAGES = 60;
    private static final int MANY_MESSAGES = 500;
    private static final int MULTICAST_MESSAGES = 300;
    private static final long TIMEOUT = 60_000;

    private static final PortType ONE_TO_ONE = new PortType(PortType.COMMUNICATION_RELIABLE,
            PortType.COMMUNICATION_FIFO, PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT,
            PortType.RECEIVE_TIMEOUT, PortType.CONNECTION_ONE_TO_ONE);
    private static final PortType MANY_TO_ONE = new PortType(PortType.COMMUNICATION_RELIABLE,
            PortType.COMMUNICATION_FIFO, PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT,
            PortType.RECEIVE_TIMEOUT, PortType.CONNECTION_MANY_TO_ONE);
    private static final PortType ONE_TO_MANY = new PortType(PortType.COMMUNICATION_RELIABLE,
            PortType.COMMUNICATION_FIFO, PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT,
            PortType.RECEIVE_TIMEOUT, PortType.CONNECTION_ONE_TO_MANY);
    private static final IbisCapabilities CAPABILITIES = new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT);

    private MpiIbisJobMain() {
    }

    /** Runs one rank; exits with 0 when everything arrived intact. */
    public static void main(String[] args) {
        runRankAndExit(MpiIbisJobMain::run);
    }

    /** One rank's job: returns the {@link PingPong} result line's checksum part. */
    interface RankJob {
        String run(int rank) throws Exception;
    }

    /**
     * Runs a job on this rank and exits: prints {@code pingpong rank=R of 2 ibis <backend>: <result>
     * OK} and exits with 0, or prints the failure and exits with 1.
     */
    /**
     * Connects a send port of {@code type} from this rank (0 or 1) to the other rank's receive port
     * {@code name}, which the caller created and enabled: the ranks find each other by electing
     * "root" (rank 0) and "other" (rank 1).
     */
    static SendPort connectToOtherRank(Ibis ibis, PortType type, int rank, String name, long timeout)
            throws IOException {
        IbisIdentifier root = ibis.registry().elect(rank == 0 ? "root" : "other", timeout);
        IbisIdentifier peer = ibis.registry().getElectionResult(rank == 0 ? "other" : "root", timeout);
        if (root == null || peer == null) {
            throw new IOException("elections did not finish");
        }
        SendPort out = ibis.createSendPort(type);
        out.connect(peer, name, timeout, true);
        return out;
    }

    static void runRankAndExit(RankJob job) {
        int rank = -1;
        try {
            MpiProcess process = MpiProcess.get(null);
            rank = process.rank();
            String backend = process.backend().name();
            process.release();
            String result = job.run(rank);
            System.out.println("pingpong rank=" + rank + " of 2 ibis " + backend + ": " + result + " OK");
            System.out.flush();
            System.exit(0);
        } catch (Throwable t) {
            System.out.println("pingpong rank=" + rank + " FAILED: " + t);
            t.printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
        }
    }

    private static byte[] payload(int index) {
        byte[] bytes = new byte[SIZES[index % SIZES.length]];
        new Random(index * 7919L).nextBytes(bytes);
        return bytes;
    }

    /** The doubles of stream message {@code i}: bit patterns of every kind, NaNs and negative zero among them. */
    private static double[] doubles(int i) {
        Random r = new Random(i * 104_729L);
        double[] d = new double[ARRAY_SIZES[i % ARRAY_SIZES.length]];
        for (int k = 0; k < d.length; k++) {
            d[k] = Double.longBitsToDouble(r.nextLong());
        }
        return d;
    }

    private static char[] chars(int i) {
        Random r = new Random(i * 7_907L);
        char[] c = new char[ARRAY_SIZES[(i + 1) % ARRAY_SIZES.length]];
        for (int k = 0; k < c.length; k++) {
            c[k] = (char) r.nextInt(1 << 16);
        }
        return c;
    }

    /** Adds the bits of the arrays (raw, so every NaN counts as sent) to the checksum. */
    private static void update(CRC32 crc, double[] doubles, char[] chars) {
        ByteBuffer b = ByteBuffer.allocate(8 * doubles.length + 2 * chars.length);
        for (double d : doubles) {
            b.putLong(Double.doubleToRawLongBits(d));
        }
        for (char c : chars) {
            b.putChar(c);
        }
        b.flip();
        crc.update(b);
    }

    private static String run(int rank) throws Exception {
        Ibis ibis = IbisFactory.createIbis(CAPABILITIES, null, ONE_TO_ONE, MANY_TO_ONE, ONE_TO_MANY);
        ReceivePort stream = ibis.createReceivePort(ONE_TO_ONE, "stream");
        ReceivePort many = ibis.createReceivePort(MANY_TO_ONE, "many");
        ReceivePort multicast = ibis.createReceivePort(ONE_TO_MANY, "multicast");
        stream.enableConnections();
        many.enableConnections();
        multicast.enableConnections();
        // The rank decides who is root, so that the election cannot mix up the two roles.
        IbisIdentifier root = ibis.registry().elect(rank == 0 ? "root" : "other", TIMEOUT);
        IbisIdentifier peer = ibis.registry().getElectionResult(rank == 0 ? "other" : "root", TIMEOUT);
        if (root == null || peer == null) {
            throw new IOException("elections did not finish");
        }
        long bytes = 0;
        CRC32 crc = new CRC32();
        SendPort toPeer = ibis.createSendPort(ONE_TO_ONE);
        toPeer.connect(peer, "stream", TIMEOUT, true);
        if (rank == 0) {
            // 1. The stream from the other rank, and its checksum back.
            for (int i = 0; i < STREAM_MESSAGES; i++) {
                ReadMessage m = stream.receive(TIMEOUT);
                int length = m.readInt();
                if (length != SIZES[i % SIZES.length]) {
                    throw new IOException("stream message " + i + " has " + length + " bytes");
                }
                byte[] bytesIn = new byte[length];
                m.readArray(bytesIn);
                double[] doublesIn = new double[ARRAY_SIZES[i % ARRAY_SIZES.length]];
                m.readArray(doublesIn);
                char[] charsIn = new char[ARRAY_SIZES[(i + 1) % ARRAY_SIZES.length]];
                m.readArray(charsIn);
                m.finish();
                crc.update(bytesIn);
                update(crc, doublesIn, charsIn);
                bytes += length + 8L * doublesIn.length + 2L * charsIn.length;
            }
            WriteMessage w = toPeer.newMessage();
            w.writeLong(crc.getValue());
            w.finish();
            // 2. Many-to-one: two senders of the other rank and one of our own, each in order.
            Thread own = sender(ibis, ibis.identifier(), 2);
            int[] next = new int[3];
            for (int i = 0; i < 3 * MANY_MESSAGES; i++) {
                ReadMessage m = many.receive(TIMEOUT);
                int sender = m.readInt();
                int seq = m.readInt();
                long check = m.readLong();
                m.finish();
                if (sender < 0 || sender > 2 || seq != next[sender] || check != seq * 31L + sender) {
                    throw new IOException("many-to-one: message " + seq + " of sender " + sender + ", expected "
                            + (sender >= 0 && sender <= 2 ? next[sender] : -1));
                }
                next[sender]++;
            }
            own.join(TIMEOUT);
            // 3. Multicast to both ranks' ports, then our own copy.
            SendPort out = ibis.createSendPort(ONE_TO_MANY);
            out.connect(ibis.identifier(), "multicast", TIMEOUT, true);
            out.connect(peer, "multicast", TIMEOUT, true);
            Thread reader = new Thread(() -> { }, "none");
            AtomicReference<Throwable> failed = new AtomicReference<>();
            reader = new Thread(() -> {
                try {
                    readMulticast(multicast);
                } catch (Throwable e) {
                    failed.set(e);
                }
            }, "multicast-reader");
            reader.start();
            for (int i = 0; i < MULTICAST_MESSAGES; i++) {
                WriteMessage m = out.newMessage();
                m.writeInt(i);
                m.writeArray(multicastPayload(i));
                m.finish();
            }
            reader.join(TIMEOUT);
            if (failed.get() != null || reader.isAlive()) {
                throw new IOException("own multicast copy", failed.get());
            }
            out.close();
            // The other rank's "done": it read everything, both may end.
            ReadMessage done = stream.receive(TIMEOUT);
            int doneValue = done.readInt();
            done.finish();
            if (doneValue != 42) {
                throw new IOException("done message " + doneValue);
            }
        } else {
            for (int i = 0; i < STREAM_MESSAGES; i++) {
                byte[] out = payload(i);
                double[] doubles = doubles(i);
                char[] chars = chars(i);
                WriteMessage m = toPeer.newMessage();
                m.writeInt(out.length);
                m.writeArray(out);
                m.writeArray(doubles);
                m.writeArray(chars);
                m.finish();
                crc.update(out);
                update(crc, doubles, chars);
                bytes += out.length + 8L * doubles.length + 2L * chars.length;
            }
            ReadMessage reply = stream.receive(TIMEOUT);
            long theirs = reply.readLong();
            reply.finish();
            if (theirs != crc.getValue()) {
                throw new IOException("the root's checksum " + Long.toHexString(theirs) + " differs from ours "
                        + Long.toHexString(crc.getValue()));
            }
            Thread a = sender(ibis, peer, 0);
            Thread b = sender(ibis, peer, 1);
            a.join(TIMEOUT);
            b.join(TIMEOUT);
            readMulticast(multicast);
            WriteMessage done = toPeer.newMessage();
            done.writeInt(42);
            done.finish();
        }
        toPeer.close();
        stream.close();
        many.close();
        multicast.close();
        ibis.end();
        return "messages=" + STREAM_MESSAGES + " bytes=" + bytes + " crc=" + String.format("%08x", crc.getValue());
    }

    private static byte[] multicastPayload(int i) {
        byte[] bytes = new byte[1000 + i];
        new Random(i).nextBytes(bytes);
        return bytes;
    }

    private static void readMulticast(ReceivePort multicast) throws IOException {
        for (int i = 0; i < MULTICAST_MESSAGES; i++) {
            ReadMessage m = multicast.receive(TIMEOUT);
            int seq = m.readInt();
            byte[] in = new byte[1000 + i];
            m.readArray(in);
            m.finish();
            if (seq != i || !java.util.Arrays.equals(in, multicastPayload(i))) {
                throw new IOException("multicast message " + i + " arrived as " + seq + " or damaged");
            }
        }
    }

    private static Thread sender(Ibis ibis, IbisIdentifier target, int id) {
        List<Throwable> errors = new ArrayList<>();
        Thread t = new Thread(() -> {
            try {
                SendPort port = ibis.createSendPort(MANY_TO_ONE);
                port.connect(target, "many", TIMEOUT, true);
                for (int seq = 0; seq < MANY_MESSAGES; seq++) {
                    WriteMessage m = port.newMessage();
                    m.writeInt(id);
                    m.writeInt(seq);
                    m.writeLong(seq * 31L + id);
                    m.finish();
                }
                port.close();
            } catch (Throwable e) {
                errors.add(e);
                System.out.println("many-to-one sender " + id + " failed: " + e);
                e.printStackTrace(System.out);
            }
        }, "sender-" + id);
        t.start();
        return t;
    }
}
