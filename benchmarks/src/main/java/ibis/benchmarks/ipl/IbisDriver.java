package ibis.benchmarks.ipl;

import ibis.benchmarks.ipl.BenchPorts.Stream;
import ibis.ipl.Ibis;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The driver's Ibis: its ports towards {@link IplBenchPeer} and the Ibis {@link Workload}s over them.
 */
final class IbisDriver implements AutoCloseable {

    private final Ibis ibis;
    private final ReceivePort replyExplicit;
    private final ReceivePort replyUpcall;
    private final ReceivePort replySized;
    private final SendPort pingSized;
    private final SendPort pingExplicit;
    private final SendPort pingUpcall;
    private final Map<Stream, SendPort> streams = new EnumMap<>(Stream.class);
    private final Map<Stream, ReceivePort> acks = new EnumMap<>(Stream.class);
    private final ReceivePort groupAck;
    /** Multicast send port per group size (index in GROUP_SIZES). */
    private final SendPort[] multicast = new SendPort[BenchPorts.GROUP_SIZES.length];
    /** Many-to-one send ports, by sender number. */
    private final SendPort[] manyToOne;
    /** Runs the many-to-one senders (one thread each, made once). */
    private final ExecutorService senders;

    // State of the upcall-driven ping-pong; only the reply port's upcall thread changes it mid-run.
    private volatile int upcallRoundsLeft;
    private volatile byte upcallExpected;
    private volatile CountDownLatch upcallDone;
    private volatile IOException upcallFailure;

    IbisDriver(String server, String pool, String implementation) throws Exception {
        ibis = IbisFactory.createIbis(BenchPorts.CAPABILITIES, BenchPorts.poolProperties(server, pool,
                implementation), true,
                null, BenchPorts.all());
        replyExplicit = ibis.createReceivePort(BenchPorts.EXPLICIT_DATA, BenchPorts.REPLY_EXPLICIT);
        replySized = ibis.createReceivePort(BenchPorts.EXPLICIT_DATA, BenchPorts.REPLY_SIZED);
        for (Stream s : Stream.values()) {
            acks.put(s, ibis.createReceivePort(BenchPorts.EXPLICIT_DATA, s.ackPort()));
        }
        pingUpcall = ibis.createSendPort(BenchPorts.UPCALL_DATA);
        replyUpcall = ibis.createReceivePort(BenchPorts.UPCALL_DATA, BenchPorts.REPLY_UPCALL, m -> {
            byte echoed = m.readByte();
            m.finish();
            try {
                if (echoed != upcallExpected) {
                    throw new IOException("upcall ping-pong echoed " + echoed + " for " + upcallExpected);
                }
                if (--upcallRoundsLeft > 0) {
                    sendUpcallPing();
                    return;
                }
            } catch (IOException e) {
                upcallFailure = e;
            }
            upcallDone.countDown();
        });
        groupAck = ibis.createReceivePort(BenchPorts.MANY_TO_ONE_DATA, BenchPorts.GROUP_ACK);
        groupAck.enableConnections();
        replyExplicit.enableConnections();
        replySized.enableConnections();
        replyUpcall.enableConnections();
        for (ReceivePort p : acks.values()) {
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
        pingExplicit.connect(peer, BenchPorts.PING_EXPLICIT, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
        pingUpcall.connect(peer, BenchPorts.PING_UPCALL, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
        pingSized = ibis.createSendPort(BenchPorts.EXPLICIT_DATA);
        pingSized.connect(peer, BenchPorts.PING_SIZED, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
        for (Stream s : Stream.values()) {
            SendPort port = ibis.createSendPort(s.type);
            port.connect(peer, s.streamPort(), BenchPorts.SETUP_TIMEOUT_MILLIS, true);
            streams.put(s, port);
        }
        int largest = BenchPorts.GROUP_SIZES[BenchPorts.GROUP_SIZES.length - 1];
        manyToOne = new SendPort[BenchPorts.manyToOneSender(largest, largest - 1) + 1];
        for (int g = 0; g < BenchPorts.GROUP_SIZES.length; g++) {
            int size = BenchPorts.GROUP_SIZES[g];
            multicast[g] = ibis.createSendPort(BenchPorts.MULTICAST_DATA);
            for (int i = 0; i < size; i++) {
                multicast[g].connect(peer, BenchPorts.multicastPort(size, i), BenchPorts.SETUP_TIMEOUT_MILLIS, true);
                SendPort sender = ibis.createSendPort(BenchPorts.MANY_TO_ONE_DATA);
                sender.connect(peer, BenchPorts.MANY_TO_ONE, BenchPorts.SETUP_TIMEOUT_MILLIS, true);
                manyToOne[BenchPorts.manyToOneSender(size, i)] = sender;
            }
        }
        AtomicInteger threads = new AtomicInteger();
        senders = Executors.newFixedThreadPool(largest, r -> {
            Thread t = new Thread(r, "many-to-one-sender-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** One group message: flags, sender number, the 100 KB byte[]. */
    private static void sendGroupMessage(SendPort port, boolean last, int sender, byte[] bytes) throws IOException {
        WriteMessage w = port.newMessage();
        w.writeByte(last ? BenchPorts.ACK_REQUESTED : 0);
        w.writeByte((byte) sender);
        w.writeArray(bytes);
        w.finish();
    }

    /**
     * Reads {@code count} group acknowledgements; each must come from a distinct expected sender
     * ({@code who - base} in [0, count)) and carry the checksum of {@code bytes}.
     */
    private void awaitGroupAcks(int count, int base, long checksum, String what) throws IOException {
        boolean[] seen = new boolean[count];
        for (int n = 0; n < count; n++) {
            ReadMessage r = groupAck.receive(BenchPorts.ACK_TIMEOUT_MILLIS);
            int who = r.readByte() - base;
            long received = r.readLong();
            r.finish();
            if (who < 0 || who >= count || seen[who]) {
                throw new IOException(what + ": unexpected acknowledgement from " + (who + base));
            }
            seen[who] = true;
            Workload.checkAck(received, checksum, what);
        }
    }

    /**
     * One 100 KB {@code byte[]} per message from one multicast send port to the {@code size}
     * receive ports of its group; the last message of a run is acknowledged by every receiver.
     */
    Workload multicast(int sizeIndex) {
        int size = BenchPorts.GROUP_SIZES[sizeIndex];
        SendPort port = multicast[sizeIndex];
        byte[] bytes = (byte[]) ArrayKind.BYTE.newArray();
        long checksum = ArrayKind.BYTE.checksum(bytes);
        String what = "Ibis multicast to " + size;
        return new Workload() {
            @Override
            public void run(int messages) throws IOException {
                for (int i = 1; i <= messages; i++) {
                    sendGroupMessage(port, i == messages, 0, bytes);
                }
                awaitGroupAcks(size, 0, checksum, what);
            }

            @Override
            public void close() {
            }
        };
    }

    /**
     * One 100 KB {@code byte[]} per message from {@code size} send ports, each written by its own
     * thread, to one receive port; a run's messages are divided among the senders, and each sender's
     * last message is acknowledged.
     */
    Workload manyToOne(int sizeIndex) {
        int size = BenchPorts.GROUP_SIZES[sizeIndex];
        int base = BenchPorts.manyToOneSender(size, 0);
        byte[][] arrays = new byte[size][];
        for (int i = 0; i < size; i++) {
            arrays[i] = (byte[]) ArrayKind.BYTE.newArray(); // one per sender: the ports stream them
        }
        long checksum = ArrayKind.BYTE.checksum(arrays[0]);
        String what = "Ibis many-to-one from " + size;
        return new Workload() {
            @Override
            public void run(int messages) throws IOException, InterruptedException {
                List<Future<?>> running = new ArrayList<>();
                int active = Math.min(size, messages);
                for (int i = 0; i < active; i++) {
                    int sender = i;
                    int count = messages / active + (i < messages % active ? 1 : 0);
                    running.add(senders.submit(() -> {
                        for (int m = 1; m <= count; m++) {
                            sendGroupMessage(manyToOne[base + sender], m == count, base + sender, arrays[sender]);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : running) {
                    try {
                        f.get();
                    } catch (ExecutionException e) {
                        throw e.getCause() instanceof IOException io ? io
                                : new IOException(what + ": " + e.getCause(), e);
                    }
                }
                awaitGroupAcks(active, base, checksum, what);
            }

            @Override
            public void close() {
            }
        };
    }

    private void sendUpcallPing() throws IOException {
        byte b = (byte) (upcallRoundsLeft & 0x7f);
        upcallExpected = b;
        WriteMessage w = pingUpcall.newMessage();
        w.writeByte(b);
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
                    byte echoed = r.readByte();
                    r.finish();
                    if (echoed != (byte) i) {
                        throw new IOException("explicit ping-pong echoed " + echoed + " for " + (byte) i);
                    }
                }
            }

            @Override
            public void close() {
            }
        };
    }

    /** Round trips of {@code n}-byte messages ({@link SizedMessages}), explicit receive on both sides. */
    Workload sizedPingPong(int n) {
        byte[] message = SizedMessages.pattern(n);
        byte[] reply = new byte[n];
        return new Workload() {
            @Override
            public void run(int iterations) throws IOException {
                for (int i = 0; i < iterations; i++) {
                    SizedMessages.mark(message, 0, n, i);
                    WriteMessage w = pingSized.newMessage();
                    w.writeInt(n);
                    w.writeArray(message);
                    w.finish();
                    ReadMessage r = replySized.receive();
                    int echoed = r.readInt();
                    if (echoed != n) {
                        throw new IOException("Ibis echo: " + echoed + " bytes for " + n);
                    }
                    r.readArray(reply);
                    r.finish();
                    SizedMessages.checkEcho(reply, 0, n, echoed, i, "Ibis echo");
                }
            }

            @Override
            public void close() {
            }
        };
    }

    /** One-way stream of {@code n}-byte messages on the data stream port; the last one of a run is acknowledged. */
    Workload sizedStream(int n) {
        byte[] bytes = SizedMessages.pattern(n);
        return flaggedStream(Stream.DATA, SizedMessages.checksum(bytes, n), "Ibis " + n + "-byte stream", w -> {
            w.writeByte(BenchPorts.SIZED);
            w.writeInt(n);
            w.writeArray(bytes);
        });
    }

    /** What a message of {@link #flaggedStream} carries after its flags byte. */
    private interface StreamBody {
        void write(WriteMessage w) throws IOException;
    }

    /**
     * One-way stream on {@code stream}'s port: each message its flags byte (the last one of a run
     * asks for the acknowledgement) and then {@code body}; the run ends when the acknowledgement
     * with {@code checksum} came.
     */
    private Workload flaggedStream(Stream stream, long checksum, String what, StreamBody body) {
        SendPort port = streams.get(stream);
        ReceivePort ack = acks.get(stream);
        return new Workload() {
            @Override
            public void run(int messages) throws IOException {
                for (int i = 1; i <= messages; i++) {
                    WriteMessage w = port.newMessage();
                    w.writeByte(i == messages ? BenchPorts.ACK_REQUESTED : 0);
                    body.write(w);
                    w.finish();
                }
                awaitAck(ack, checksum, what);
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

    /**
     * One-way stream of a payload, one value per message; the last message of a run asks for an
     * acknowledgement, which carries the checksum of what the peer received.
     */
    Workload stream(Payload payload, Stream stream) {
        if (payload == Payload.TREE && !stream.objects()) {
            throw new IllegalArgumentException("the tree needs an object serialization, not " + stream);
        }
        Object value = payload.newValue();
        String what = "Ibis " + stream.serialization + " " + payload.displayName() + " stream";
        return flaggedStream(stream, payload.checksum(value), what, w -> {
            w.writeByte(payload.code());
            if (stream.objects()) {
                w.writeObject(value);
            } else {
                switch (payload) {
                    case BYTES -> w.writeArray((byte[]) value);
                    case INTS -> w.writeArray((int[]) value);
                    default -> w.writeArray((double[]) value);
                }
            }
        });
    }

    /**
     * The 100 KB byte stream through direct buffers: {@code writeByteBuffer} of one reused direct
     * buffer per message, read by the peer with {@code readByteBuffer} into one (as the MPI and UCX
     * peers send from and receive into direct memory).
     */
    Workload directStream(Stream stream) {
        if (stream.objects()) {
            throw new IllegalArgumentException("direct buffers go through a data or byte stream, not " + stream);
        }
        byte[] bytes = (byte[]) Payload.BYTES.newValue();
        java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(bytes.length);
        direct.put(0, bytes);
        return flaggedStream(stream, Payload.BYTES.checksum(bytes), "Ibis " + stream.serialization
                + " direct-buffer stream", w -> {
                    w.writeByte(BenchPorts.DIRECT);
                    direct.clear();
                    w.writeByteBuffer(direct);
                });
    }

    /** Receives a stream's acknowledgement and checks its checksum. */
    private static void awaitAck(ReceivePort ack, long checksum, String what) throws IOException {
        ReadMessage r = ack.receive(BenchPorts.ACK_TIMEOUT_MILLIS);
        long received = r.readLong();
        r.finish();
        Workload.checkAck(received, checksum, what);
    }

    /** The implementation that was selected, for the report. */
    String implementationDescription() {
        return ibis.getVersion();
    }

    @Override
    public void close() throws IOException {
        pingExplicit.close();
        pingUpcall.close();
        pingSized.close();
        for (SendPort p : streams.values()) {
            p.close();
        }
        for (SendPort p : multicast) {
            p.close();
        }
        for (SendPort p : manyToOne) {
            if (p != null) {
                p.close();
            }
        }
        senders.shutdownNow();
        ibis.end();
    }
}
