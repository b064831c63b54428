package ibis.benchmarks.ipl;

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
import java.util.concurrent.TimeUnit;

/**
 * The passive JVM of the ipl suite: echoes round trips and sinks streams, for Ibis and for the raw
 * socket peers alike. Started by {@link IplSuite} with arguments
 * {@code SERVER POOL MESSAGES_PER_ACK}; prints {@code READY <blocking port> <nio port>} once its raw
 * servers listen and exits when its standard input closes.
 */
public final class IplBenchPeer {

    private IplBenchPeer() {
    }

    /** Runs the peer until the driver closes our standard input. */
    public static void main(String[] args) throws Exception {
        String server = args[0];
        String pool = args[1];
        int perAck = Integer.parseInt(args[2]);

        RawSockets.Servers raw = new RawSockets.Servers();
        System.out.println("READY " + raw.blockingPort() + " " + raw.nioPort());
        System.out.flush();

        Ibis ibis = IbisFactory.createIbis(BenchPorts.CAPABILITIES, BenchPorts.poolProperties(server, pool),
                true, null, BenchPorts.all());
        ReceivePort pingExplicit = ibis.createReceivePort(BenchPorts.EXPLICIT_DATA, BenchPorts.PING_EXPLICIT);
        ReceivePort streamData = ibis.createReceivePort(BenchPorts.EXPLICIT_DATA, BenchPorts.STREAM_DATA);
        ReceivePort streamByte = ibis.createReceivePort(BenchPorts.EXPLICIT_BYTE, BenchPorts.STREAM_BYTE);
        SendPort upcallReply = ibis.createSendPort(BenchPorts.UPCALL_DATA);
        MessageUpcall echo = m -> {
            byte b = m.readByte();
            m.finish();
            WriteMessage w = upcallReply.newMessage();
            w.writeByte(b);
            w.finish();
        };
        ReceivePort pingUpcall = ibis.createReceivePort(BenchPorts.UPCALL_DATA, BenchPorts.PING_UPCALL, echo);
        for (ReceivePort p : new ReceivePort[] {pingExplicit, streamData, streamByte, pingUpcall}) {
            p.enableConnections();
        }

        IbisIdentifier driver = ibis.registry().getElectionResult(BenchPorts.DRIVER_READY,
                BenchPorts.SETUP_TIMEOUT_MILLIS);
        if (driver == null) {
            throw new IOException("the driver did not show up");
        }
        SendPort explicitReply = ibis.createSendPort(BenchPorts.EXPLICIT_DATA);
        SendPort ackData = ibis.createSendPort(BenchPorts.EXPLICIT_DATA);
        SendPort ackByte = ibis.createSendPort(BenchPorts.EXPLICIT_DATA);
        explicitReply.connect(driver, BenchPorts.REPLY_EXPLICIT, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
        upcallReply.connect(driver, BenchPorts.REPLY_UPCALL, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
        ackData.connect(driver, BenchPorts.ACK_DATA, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
        ackByte.connect(driver, BenchPorts.ACK_BYTE, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
        pingUpcall.enableMessageUpcalls();

        RawSockets.daemon("echo-explicit", () -> echoLoop(pingExplicit, explicitReply));
        RawSockets.daemon("sink-data", () -> sinkLoop(streamData, ackData, perAck));
        RawSockets.daemon("sink-byte", () -> sinkLoop(streamByte, ackByte, perAck));
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

    private static void sinkLoop(ReceivePort port, SendPort ack, int perAck) {
        ArrayKind[] kinds = ArrayKind.values();
        Object[] arrays = new Object[kinds.length];
        for (ArrayKind k : kinds) {
            arrays[k.ordinal()] = k.newArray();
        }
        try {
            for (long count = 1; ; count++) {
                ReadMessage m = port.receive();
                ArrayKind kind = kinds[m.readByte()];
                switch (kind) {
                    case BYTE -> m.readArray((byte[]) arrays[kind.ordinal()]);
                    case INT -> m.readArray((int[]) arrays[kind.ordinal()]);
                    default -> m.readArray((double[]) arrays[kind.ordinal()]);
                }
                m.finish();
                if (count % perAck == 0) {
                    WriteMessage w = ack.newMessage();
                    w.writeByte((byte) 1);
                    w.finish();
                }
            }
        } catch (IOException e) {
            // the port or the connection closed: the benchmark is over
        }
    }
}
