package ibis.benchmarks.ipl;

import ibis.ipl.Ibis;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The driver's Ibis: its ports towards {@link IplBenchPeer} and the Ibis {@link Workload}s over them.
 */
final class IbisDriver implements AutoCloseable {

    private final Ibis ibis;
    private final ReceivePort replyExplicit;
    private final ReceivePort ackData;
    private final ReceivePort ackByte;
    private final ReceivePort replyUpcall;
    private final SendPort pingExplicit;
    private final SendPort pingUpcall;
    private final SendPort streamData;
    private final SendPort streamByte;

    // State of the upcall-driven ping-pong; only the reply port's upcall thread changes it mid-run.
    private volatile int upcallRoundsLeft;
    private volatile CountDownLatch upcallDone;
    private volatile IOException upcallFailure;

    IbisDriver(String server, String pool) throws Exception {
        ibis = IbisFactory.createIbis(BenchPorts.CAPABILITIES, BenchPorts.poolProperties(server, pool), true,
                null, BenchPorts.all());
        replyExplicit = ibis.createReceivePort(BenchPorts.EXPLICIT_DATA, BenchPorts.REPLY_EXPLICIT);
        ackData = ibis.createReceivePort(BenchPorts.EXPLICIT_DATA, BenchPorts.ACK_DATA);
        ackByte = ibis.createReceivePort(BenchPorts.EXPLICIT_DATA, BenchPorts.ACK_BYTE);
        pingUpcall = ibis.createSendPort(BenchPorts.UPCALL_DATA);
        replyUpcall = ibis.createReceivePort(BenchPorts.UPCALL_DATA, BenchPorts.REPLY_UPCALL, m -> {
            m.readByte();
            m.finish();
            try {
                if (--upcallRoundsLeft > 0) {
                    sendUpcallPing();
                    return;
                }
            } catch (IOException e) {
                upcallFailure = e;
            }
            upcallDone.countDown();
        });
        for (ReceivePort p : new ReceivePort[] {replyExplicit, ackData, ackByte, replyUpcall}) {
            p.enableConnections();
        }
        replyUpcall.enableMessageUpcalls();
        ibis.registry().elect(BenchPorts.DRIVER_READY);
        IbisIdentifier peer = ibis.registry().getElectionResult(BenchPorts.PEER_READY,
                BenchPorts.SETUP_TIMEOUT_MILLIS);
        if (peer == null) {
            throw new IOException("the peer JVM did not get ready within "
                    + BenchPorts.SETUP_TIMEOUT_MILLIS + " ms");
        }
        pingExplicit = ibis.createSendPort(BenchPorts.EXPLICIT_DATA);
        streamData = ibis.createSendPort(BenchPorts.EXPLICIT_DATA);
        streamByte = ibis.createSendPort(BenchPorts.EXPLICIT_BYTE);
        pingExplicit.connect(peer, BenchPorts.PING_EXPLICIT, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
        pingUpcall.connect(peer, BenchPorts.PING_UPCALL, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
        streamData.connect(peer, BenchPorts.STREAM_DATA, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
        streamByte.connect(peer, BenchPorts.STREAM_BYTE, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
    }

    private void sendUpcallPing() throws IOException {
        WriteMessage w = pingUpcall.newMessage();
        w.writeByte((byte) 1);
        w.finish();
    }

    /** 1-byte round trips, explicit receive on both sides. */
    Workload explicitPingPong() {
        return new Workload() {
            @Override
            public void run(int iterations) throws IOException {
                for (int i = 0; i < iterations; i++) {
                    WriteMessage w = pingExplicit.newMessage();
                    w.writeByte((byte) i);
                    w.finish();
                    ReadMessage r = replyExplicit.receive();
                    r.readByte();
                    r.finish();
                }
            }

            @Override
            public void close() {
            }
        };
    }

    /** 1-byte round trips driven by upcalls on both sides: each reply's upcall sends the next ping. */
    Workload upcallPingPong() {
        return new Workload() {
            @Override
            public void run(int iterations) throws IOException, InterruptedException {
                upcallFailure = null;
                upcallRoundsLeft = iterations;
                upcallDone = new CountDownLatch(1);
                sendUpcallPing();
                if (!upcallDone.await(10, TimeUnit.MINUTES)) {
                    throw new IOException("upcall ping-pong stalled with " + upcallRoundsLeft + " rounds left");
                }
                if (upcallFailure != null) {
                    throw upcallFailure;
                }
            }

            @Override
            public void close() {
            }
        };
    }

    /** One-way stream of 100 KB arrays, one array per message, an ack every {@code perAck} messages. */
    Workload stream(ArrayKind kind, boolean byteSerialization, int perAck) {
        SendPort port = byteSerialization ? streamByte : streamData;
        ReceivePort ack = byteSerialization ? ackByte : ackData;
        Object array = kind.newArray();
        return new Workload() {
            @Override
            public void run(int messages) throws IOException {
                if (messages % perAck != 0) {
                    throw new IllegalArgumentException(messages + " is not a multiple of " + perAck);
                }
                for (int i = 1; i <= messages; i++) {
                    WriteMessage w = port.newMessage();
                    w.writeByte((byte) kind.ordinal());
                    switch (kind) {
                        case BYTE -> w.writeArray((byte[]) array);
                        case INT -> w.writeArray((int[]) array);
                        default -> w.writeArray((double[]) array);
                    }
                    w.finish();
                    if (i % perAck == 0) {
                        ReadMessage r = ack.receive();
                        r.readByte();
                        r.finish();
                    }
                }
            }

            @Override
            public void close() {
            }
        };
    }

    /** The implementation that was selected, for the report. */
    String implementationDescription() {
        return ibis.getVersion();
    }

    @Override
    public void close() throws IOException {
        for (SendPort p : new SendPort[] {pingExplicit, pingUpcall, streamData, streamByte}) {
            if (p != null) {
                p.close();
            }
        }
        ibis.end();
    }
}
