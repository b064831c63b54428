package ibis.benchmarks.ipl;

import ibis.benchmarks.ipl.BenchPorts.Stream;
import ibis.ipl.Ibis;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.MessageUpcall;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The passive JVM of the ipl suite: echoes round trips and sinks streams, for Ibis and for the raw
 * socket peers alike. Started by {@link IplSuite} with arguments {@code SERVER POOL IMPLEMENTATION};
 * prints {@code READY <blocking port> <nio port> <group selector port>} once its raw servers listen
 * and exits when its standard input closes.
 *
 * <p>Receiving threads: one per Ibis receive port, each in an explicit {@code receive()} loop
 * (the echo answers on its own send port), plus the upcall echo. Every stream message is read
 * completely, into a preallocated array for {@code readArray} ports and into a new object for
 * {@code readObject} ports, as a real receiver would; the message flagged for acknowledgement is
 * answered with its payload's checksum. The group ports (multicast receivers, the many-to-one
 * receiver) each have a thread that reads 100 KB {@code byte[]} messages into one array.
 */
public final class IplBenchPeer {

    private IplBenchPeer() {
    }

    /** Runs the peer until the driver closes our standard input. */
    public static void main(String[] args) throws Exception {
        String server = args[0];
        String pool = args[1];
        String implementation = args[2];

        RawSockets.Servers raw = new RawSockets.Servers();
        System.out.println("READY " + raw.blockingPort() + " " + raw.nioPort() + " " + raw.groupSelectorPort());
        System.out.flush();

        Ibis ibis = IbisFactory.createIbis(BenchPorts.CAPABILITIES,
                BenchPorts.poolProperties(server, pool, implementation), true, null, BenchPorts.all());
        ReceivePort pingExplicit = ibis.createReceivePort(BenchPorts.EXPLICIT_DATA, BenchPorts.PING_EXPLICIT);
        ReceivePort pingSized = ibis.createReceivePort(BenchPorts.EXPLICIT_DATA, BenchPorts.PING_SIZED);
        Map<Stream, ReceivePort> streams = new EnumMap<>(Stream.class);
        for (Stream s : Stream.values()) {
            streams.put(s, ibis.createReceivePort(s.type, s.streamPort()));
        }
        List<ReceivePort> multicast = new ArrayList<>();
        List<Integer> multicastIndex = new ArrayList<>();
        for (int size : BenchPorts.GROUP_SIZES) {
            for (int i = 0; i < size; i++) {
                multicast.add(ibis.createReceivePort(BenchPorts.MULTICAST_DATA, BenchPorts.multicastPort(size, i)));
                multicastIndex.add(i);
            }
        }
        ReceivePort manyToOne = ibis.createReceivePort(BenchPorts.MANY_TO_ONE_DATA, BenchPorts.MANY_TO_ONE);
        SendPort upcallReply = ibis.createSendPort(BenchPorts.UPCALL_DATA);
        MessageUpcall echo = m -> {
            byte b = m.readByte();
            m.finish();
            WriteMessage w = upcallReply.newMessage();
            w.writeByte(b);
            w.finish();
        };
        ReceivePort pingUpcall = ibis.createReceivePort(BenchPorts.UPCALL_DATA, BenchPorts.PING_UPCALL, echo);
        pingExplicit.enableConnections();
        pingSized.enableConnections();
        pingUpcall.enableConnections();
        for (ReceivePort p : streams.values()) {
            p.enableConnections();
        }
        for (ReceivePort p : multicast) {
            p.enableConnections();
        }
        manyToOne.enableConnections();

        IbisIdentifier driver = ibis.registry().getElectionResult(BenchPorts.DRIVER_READY,
                BenchPorts.SETUP_TIMEOUT_MILLIS);
        if (driver == null) {
            throw new IOException("the driver did not show up");
        }
        SendPort explicitReply = ibis.createSendPort(BenchPorts.EXPLICIT_DATA);
        explicitReply.connect(driver, BenchPorts.REPLY_EXPLICIT, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
        upcallReply.connect(driver, BenchPorts.REPLY_UPCALL, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
        SendPort sizedReply = ibis.createSendPort(BenchPorts.EXPLICIT_DATA);
        sizedReply.connect(driver, BenchPorts.REPLY_SIZED, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
        for (Stream s : Stream.values()) {
            SendPort ack = ibis.createSendPort(BenchPorts.EXPLICIT_DATA);
            ack.connect(driver, s.ackPort(), BenchPorts.SETUP_TIMEOUT_MILLIS, true);
            ReceivePort port = streams.get(s);
            RawSockets.daemon("sink-" + s.name().toLowerCase(java.util.Locale.ROOT), () -> sinkLoop(s, port, ack));
        }
        for (int r = 0; r < multicast.size(); r++) {
            ReceivePort port = multicast.get(r);
            int who = multicastIndex.get(r);
            SendPort ack = ibis.createSendPort(BenchPorts.MANY_TO_ONE_DATA);
            ack.connect(driver, BenchPorts.GROUP_ACK, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
            RawSockets.daemon("sink-" + port.name(), () -> groupSink(port, ack, who));
        }
        SendPort manyToOneAck = ibis.createSendPort(BenchPorts.MANY_TO_ONE_DATA);
        manyToOneAck.connect(driver, BenchPorts.GROUP_ACK, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
        RawSockets.daemon("sink-many-to-one", () -> groupSink(manyToOne, manyToOneAck, -1));
        pingUpcall.enableMessageUpcalls();
        RawSockets.daemon("echo-explicit", () -> echoLoop(pingExplicit, explicitReply));
        RawSockets.daemon("echo-sized", () -> echoSizedLoop(pingSized, sizedReply));
        ibis.registry().elect(BenchPorts.PEER_READY);

        // The driver closes our standard input when it is done (or dies).
        InputStream in = System.in;
        while (in.read() >= 0) {
            // ignore anything written
        }
        raw.close();
        Thread ender = new Thread(() -> {
            try {
                ibis.end();
            } catch (IOException e) {
                // leaving anyway
            }
        });
        ender.setDaemon(true);
        ender.start();
        ender.join(TimeUnit.SECONDS.toMillis(10));
        System.exit(0);
    }

    private static void echoLoop(ReceivePort port, SendPort reply) {
        try {
            while (true) {
                ReadMessage m = port.receive();
                byte b = m.readByte();
                m.finish();
                WriteMessage w = reply.newMessage();
                w.writeByte(b);
                w.finish();
            }
        } catch (IOException e) {
            // the port or the connection closed: the benchmark is over
        }
    }

    /** Echoes sized messages ({@link SizedMessages}) into and out of one reused array. */
    private static void echoSizedLoop(ReceivePort port, SendPort reply) {
        byte[] bytes = new byte[SizedMessages.MAX];
        try {
            while (true) {
                ReadMessage m = port.receive();
                int n = SizedMessages.checkLength(m.readInt());
                m.readArray(bytes, 0, n);
                m.finish();
                WriteMessage w = reply.newMessage();
                w.writeInt(n);
                w.writeArray(bytes, 0, n);
                w.finish();
            }
        } catch (IOException e) {
            // the port or the connection closed (or a bad length): the benchmark is over
        }
    }

    /**
     * Receives group messages (100 KB {@code byte[]}) into one reused array; acknowledges a flagged
     * one with {@code who} (or, when negative, the message's sender number) and the checksum.
     */
    private static void groupSink(ReceivePort port, SendPort ack, int who) {
        byte[] bytes = (byte[]) ArrayKind.BYTE.newArray();
        try {
            while (true) {
                ReadMessage m = port.receive();
                byte flags = m.readByte();
                byte sender = m.readByte();
                m.readArray(bytes);
                m.finish();
                if ((flags & BenchPorts.ACK_REQUESTED) != 0) {
                    WriteMessage w = ack.newMessage();
                    w.writeByte(who >= 0 ? (byte) who : sender);
                    w.writeLong(ArrayKind.BYTE.checksum(bytes));
                    w.finish();
                }
            }
        } catch (IOException e) {
            // the port or the connection closed: the benchmark is over
        }
    }

    private static void sinkLoop(Stream stream, ReceivePort port, SendPort ack) {
        Object[] arrays = new Object[ArrayKind.values().length];
        for (ArrayKind k : ArrayKind.values()) {
            arrays[k.ordinal()] = k.newArray();
        }
        byte[] sized = new byte[SizedMessages.MAX];
        java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(ArrayKind.MESSAGE_BYTES);
        byte[] directCopy = new byte[ArrayKind.MESSAGE_BYTES];
        try {
            while (true) {
                ReadMessage m = port.receive();
                byte flags = m.readByte();
                byte what = m.readByte();
                if (what == BenchPorts.SIZED && !stream.objects()) {
                    int n = SizedMessages.checkLength(m.readInt());
                    m.readArray(sized, 0, n);
                    m.finish();
                    if ((flags & BenchPorts.ACK_REQUESTED) != 0) {
                        WriteMessage w = ack.newMessage();
                        w.writeLong(SizedMessages.checksum(sized, n));
                        w.finish();
                    }
                    continue;
                }
                if (what == BenchPorts.DIRECT && !stream.objects()) {
                    direct.clear();
                    m.readByteBuffer(direct);
                    m.finish();
                    if ((flags & BenchPorts.ACK_REQUESTED) != 0) {
                        direct.get(0, directCopy);
                        WriteMessage w = ack.newMessage();
                        w.writeLong(ArrayKind.BYTE.checksum(directCopy));
                        w.finish();
                    }
                    continue;
                }
                Payload payload = Payload.of(what);
                if (payload == null) {
                    throw new IOException(stream + " stream: unknown payload code");
                }
                Object value;
                if (stream.objects()) {
                    value = m.readObject();
                } else {
                    value = payload == Payload.TREE ? null : arrays[payload.kind.ordinal()];
                    switch (payload) {
                        case BYTES -> m.readArray((byte[]) value);
                        case INTS -> m.readArray((int[]) value);
                        case DOUBLES -> m.readArray((double[]) value);
                        default -> throw new IOException("a tree on the " + stream + " stream");
                    }
                }
                m.finish();
                if ((flags & BenchPorts.ACK_REQUESTED) != 0) {
                    WriteMessage w = ack.newMessage();
                    w.writeLong(payload.checksum(value));
                    w.finish();
                }
            }
        } catch (IOException e) {
            // the port or the connection closed: the benchmark is over
        } catch (ClassNotFoundException | RuntimeException e) {
            // The driver waits for an acknowledgement that will not come: leave, so that it sees
            // the connections break instead of waiting.
            System.err.println("peer: the " + stream + " stream failed: " + e);
            System.exit(3);
        }
    }
}
