package ibis.impl.ucx.system;

import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.IbisProperties;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.ReceivePortConnectUpcall;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortIdentifier;
import ibis.ipl.WriteMessage;
import ibis.registry.RegistryProperties;
import ibis.registry.server.CentralRegistryServer;
import ibis.testsupport.PeerMain;

import java.io.IOException;
import java.util.Arrays;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32;

/**
 * The pool members of the system tests, each in a child JVM of its own (a {@link PeerMain} role),
 * and the data they exchange, which the tests compute as well to check the members' results.
 *
 * <p>Arguments: the role, then for {@code registry} the address to bind to; for every other role the
 * registry server address, the pool name, the implementation, and the role's own arguments. Every
 * {@code ibis.*} system property of the JVM is passed on to the Ibis (for example
 * {@code ibis.ucx.window}). A member reports on standard output, one line per event:
 * {@code STARTED}, {@code READY}, {@code RESULT ...}, {@code LOST ...}, and so on.
 *
 * <p>Roles:
 * <ul>
 * <li>{@code registry ADDRESS}: a registry server bound to ADDRESS on a free port; prints
 *     {@code SERVER host:port} and serves until its parent goes away;
 * <li>{@code requester N SEED} / {@code replier}: the requester sends N messages with payloads of
 *     {@link #SIZES} bytes (from SEED), the replier answers each with its sequence number and the
 *     CRC-32 of the payload, which the requester checks; both print {@link #exchangeResult};
 * <li>{@code stream-sender small|large N} / {@code stream-receiver small|large}: a one-way stream of
 *     N messages ({@link #smallMessage} or {@link #largeMessage}; N = -1: until killed), both print
 *     {@code RESULT messages=.. bytes=.. crc=..} over the payloads in order; the receiver prints
 *     {@code RECEIVED 1000} after the first thousand messages, and when its connection is lost
 *     {@code LOST receive <exception>} (receive() failed) and {@code UPCALL lost <cause>} (the
 *     port's lostConnection upcall), then ends with status 0;
 * <li>{@code flood-sender BYTES BOUND} / {@code stall-receiver K}: the receiver reads K messages,
 *     prints {@code STALLED consumed=..} and reads no more (and says so to the sender through an
 *     election); the sender writes messages of BYTES bytes until a write fails, then prints
 *     {@code WRITE FAILED completed=.. <exception>} (completed: the payload bytes of its finished
 *     messages) and ends with status 0. Once the receiver stalled, the sender prints
 *     {@code BLOCKED completed=..} when its writing thread is blocked in the implementation's
 *     sink ({@link #blockedInWrite}); it fails when more than BOUND bytes of messages complete
 *     (then there is no flow control).
 * </ul>
 */
public final class SystemPeer implements PeerMain.Role {

    /** One-to-one, explicit receipt, FIFO and reliable, with connection upcalls. */
    static final PortType TYPE = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA,
            PortType.RECEIVE_EXPLICIT, PortType.COMMUNICATION_FIFO, PortType.CONNECTION_UPCALLS,
            PortType.COMMUNICATION_RELIABLE);

    /** The payload sizes of the request/reply exchange, in turn: around buffer and message limits. */
    static final int[] SIZES = {0, 1, 7, 8, 63, 64, 65, 1000, 4095, 4096, 4097, 65_536, 100_003, 262_144, 262_145,
        1_048_583};

    /** Bytes of a message of the large stream. */
    static final int LARGE = 1 << 20;

    /** The largest message of the small stream. */
    static final int SMALL_MAX = 64;

    private static final long WAIT_MILLIS = 60_000;

    @Override
    public void run(String[] args) throws Exception {
        if (args[0].equals("registry")) {
            serveRegistry(args[1]);
            return;
        }
        Properties p = new Properties();
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("ibis.")) {
                p.setProperty(name, System.getProperty(name));
            }
        }
        p.setProperty(IbisProperties.SERVER_ADDRESS, args[1]);
        p.setProperty(IbisProperties.POOL_NAME, args[2]);
        p.setProperty(IbisProperties.IMPLEMENTATION, args[3]);
        Ibis ibis = IbisFactory.createIbis(new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT), p, true, null,
                TYPE);
        PeerMain.say("STARTED " + ibis.getClass().getName() + " " + ibis.identifier());
        String[] rest = Arrays.copyOfRange(args, 4, args.length);
        switch (args[0]) {
            case "requester":
                request(ibis, Integer.parseInt(rest[0]), Long.parseLong(rest[1]));
                break;
            case "replier":
                reply(ibis);
                break;
            case "stream-sender":
                streamSend(ibis, rest[0].equals("large"), Long.parseLong(rest[1]));
                break;
            case "stream-receiver":
                streamReceive(ibis, rest[0].equals("large"));
                break;
            case "flood-sender":
                flood(ibis, args[3], Integer.parseInt(rest[0]), Long.parseLong(rest[1]));
                break;
            case "stall-receiver":
                stall(ibis, Integer.parseInt(rest[0]));
                break;
            default:
                throw new IllegalArgumentException("unknown role " + args[0]);
        }
    }

    private static void serveRegistry(String address) throws Exception {
        Properties p = new Properties();
        p.setProperty(RegistryProperties.SERVER_BIND, address);
        CentralRegistryServer server = new CentralRegistryServer(0, p);
        server.start();
        PeerMain.say("SERVER " + server.address());
        PeerMain.stayUntilParentGoes();
    }

    // ------------------------------------------------------------------ request / reply

    /** The payload of request {@code i}: {@link #SIZES}{@code [i % SIZES.length]} bytes from {@code seed}. */
    static byte[] payload(long seed, int i) {
        byte[] data = new byte[SIZES[i % SIZES.length]];
        new SplittableRandom(seed * 1_000_003 + i).nextBytes(data);
        return data;
    }

    /** The CRC-32 of {@code data}. */
    static long crc(byte[] data) {
        CRC32 crc = new CRC32();
        crc.update(data);
        return crc.getValue();
    }

    /** The line both members of the exchange print: messages, payload bytes, CRC-32 over the replies. */
    static String exchangeResult(int messages, long bytes, CRC32 replies) {
        return String.format("RESULT messages=%d bytes=%d crc=%08x", messages, bytes, replies.getValue());
    }

    /** Adds one reply (sequence number and payload CRC) to the checksum over all replies. */
    static void addReply(CRC32 replies, int seq, long crc) {
        byte[] b = new byte[12];
        for (int k = 0; k < 4; k++) {
            b[k] = (byte) (seq >>> (24 - 8 * k));
        }
        for (int k = 0; k < 8; k++) {
            b[4 + k] = (byte) (crc >>> (56 - 8 * k));
        }
        replies.update(b);
    }

    /** What {@link #exchangeResult} is after a correct exchange of {@code messages} requests. */
    static String expectedExchange(int messages, long seed) {
        CRC32 replies = new CRC32();
        long bytes = 0;
        for (int i = 0; i < messages; i++) {
            byte[] data = payload(seed, i);
            bytes += data.length;
            addReply(replies, i, crc(data));
        }
        return exchangeResult(messages, bytes, replies);
    }

    private static IbisIdentifier elected(Ibis ibis, String name) throws IOException {
        IbisIdentifier id = ibis.registry().getElectionResult(name, WAIT_MILLIS);
        if (id == null) {
            throw new IOException("nobody was elected " + name + " in " + WAIT_MILLIS + " ms");
        }
        return id;
    }

    private static void request(Ibis ibis, int messages, long seed) throws Exception {
        ReceivePort replies = ibis.createReceivePort(TYPE, "replies");
        replies.enableConnections();
        ibis.registry().elect("requester");
        SendPort requests = ibis.createSendPort(TYPE);
        requests.connect(elected(ibis, "replier"), "requests", WAIT_MILLIS, true);
        PeerMain.say("READY");
        CRC32 checksum = new CRC32();
        long bytes = 0;
        for (int i = 0; i < messages; i++) {
            byte[] data = payload(seed, i);
            WriteMessage w = requests.newMessage();
            w.writeInt(i);
            w.writeInt(data.length);
            w.writeArray(data);
            w.finish();
            ReadMessage r = replies.receive();
            int seq = r.readInt();
            long crc = r.readLong();
            r.finish();
            if (seq != i || crc != crc(data)) {
                throw new IllegalStateException("reply " + seq + " crc " + Long.toHexString(crc) + " to request " + i
                        + " of " + data.length + " bytes with crc " + Long.toHexString(crc(data)));
            }
            bytes += data.length;
            addReply(checksum, seq, crc);
        }
        WriteMessage w = requests.newMessage();
        w.writeInt(-1);
        w.finish();
        ReadMessage r = replies.receive();
        int bye = r.readInt();
        String theirs = r.readString();
        r.finish();
        String mine = exchangeResult(messages, bytes, checksum);
        if (bye != -1 || !theirs.equals(mine)) {
            throw new IllegalStateException("the replier ended with " + bye + " " + theirs + ", expected " + mine);
        }
        requests.close();
        replies.close();
        PeerMain.say(mine);
        ibis.end();
    }

    private static void reply(Ibis ibis) throws Exception {
        ReceivePort requests = ibis.createReceivePort(TYPE, "requests");
        requests.enableConnections();
        ibis.registry().elect("replier");
        SendPort replies = ibis.createSendPort(TYPE);
        replies.connect(elected(ibis, "requester"), "replies", WAIT_MILLIS, true);
        PeerMain.say("READY");
        CRC32 checksum = new CRC32();
        long bytes = 0;
        int messages = 0;
        while (true) {
            ReadMessage r = requests.receive();
            int seq = r.readInt();
            if (seq < 0) {
                r.finish();
                break;
            }
            byte[] data = new byte[r.readInt()];
            r.readArray(data);
            r.finish();
            long crc = crc(data);
            WriteMessage w = replies.newMessage();
            w.writeInt(seq);
            w.writeLong(crc);
            w.finish();
            messages++;
            bytes += data.length;
            addReply(checksum, seq, crc);
        }
        String result = exchangeResult(messages, bytes, checksum);
        WriteMessage w = replies.newMessage();
        w.writeInt(-1);
        w.writeString(result);
        w.finish();
        replies.close();
        requests.close(); // waits until the requester closed its side
        PeerMain.say(result);
        ibis.end();
    }

    // ------------------------------------------------------------------ streams

    /**
     * Fills {@code buffer} with small message {@code i} of the stream ({@code 8..}{@link #SMALL_MAX}
     * bytes) and returns its length.
     */
    static int smallMessage(long i, byte[] buffer) {
        long x = i * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L;
        x ^= x >>> 31;
        int length = 8 + (int) Long.remainderUnsigned(x, SMALL_MAX - 8 + 1);
        for (int k = 0; k < length; k++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            buffer[k] = (byte) x;
        }
        return length;
    }

    /** The bytes all large messages share; {@link #largeMessage} stamps each with its number. */
    static byte[] largeBase() {
        byte[] base = new byte[LARGE];
        new SplittableRandom(42).nextBytes(base);
        return base;
    }

    /** Turns {@code buffer} (a copy of {@link #largeBase}) into large message {@code i}; returns its length. */
    static int largeMessage(long i, byte[] buffer) {
        for (int k = 0; k < 8; k++) {
            buffer[k] = (byte) (i >>> (8 * k));
            buffer[LARGE / 2 + k] = (byte) ~(i >>> (8 * k));
            buffer[LARGE - 8 + k] = (byte) (i * 31 >>> (8 * k));
        }
        return LARGE;
    }

    /** The result line of a stream: messages, payload bytes, CRC-32 of all payloads in order. */
    static String streamResult(long messages, long bytes, CRC32 crc) {
        return String.format("RESULT messages=%d bytes=%d crc=%08x", messages, bytes, crc.getValue());
    }

    /** What both ends of a correct stream of {@code messages} print. */
    static String expectedStream(boolean large, long messages) {
        byte[] buffer = large ? largeBase() : new byte[SMALL_MAX];
        CRC32 crc = new CRC32();
        long bytes = 0;
        for (long i = 0; i < messages; i++) {
            int n = large ? largeMessage(i, buffer) : smallMessage(i, buffer);
            crc.update(buffer, 0, n);
            bytes += n;
        }
        return streamResult(messages, bytes, crc);
    }

    private static void streamSend(Ibis ibis, boolean large, long messages) throws Exception {
        SendPort out = ibis.createSendPort(TYPE);
        out.connect(elected(ibis, "receiver"), "stream", WAIT_MILLIS, true);
        PeerMain.say("CONNECTED");
        byte[] buffer = large ? largeBase() : new byte[SMALL_MAX];
        CRC32 crc = new CRC32();
        long bytes = 0;
        for (long i = 0; messages < 0 || i < messages; i++) {
            int n = large ? largeMessage(i, buffer) : smallMessage(i, buffer);
            WriteMessage w = out.newMessage();
            w.writeInt(n);
            w.writeArray(buffer, 0, n);
            w.finish();
            crc.update(buffer, 0, n);
            bytes += n;
        }
        WriteMessage w = out.newMessage();
        w.writeInt(-1);
        w.finish();
        out.close();
        PeerMain.say(streamResult(messages, bytes, crc));
        ibis.end();
    }

    /** Records the lostConnection upcalls of a port and prints them at once. */
    private static final class LostConnections implements ReceivePortConnectUpcall {
        final CountDownLatch lost = new CountDownLatch(1);

        @Override
        public boolean gotConnection(ReceivePort receiver, SendPortIdentifier applicant) {
            return true;
        }

        @Override
        public void lostConnection(ReceivePort receiver, SendPortIdentifier origin, Throwable cause) {
            PeerMain.say("UPCALL lost " + cause);
            lost.countDown();
        }
    }

    private static void streamReceive(Ibis ibis, boolean large) throws Exception {
        LostConnections upcalls = new LostConnections();
        ReceivePort in = ibis.createReceivePort(TYPE, "stream", upcalls);
        in.enableConnections();
        ibis.registry().elect("receiver");
        PeerMain.say("READY");
        byte[] buffer = new byte[large ? LARGE : SMALL_MAX];
        CRC32 crc = new CRC32();
        long bytes = 0;
        long messages = 0;
        try {
            while (true) {
                ReadMessage r = in.receive();
                int n = r.readInt();
                if (n < 0) {
                    r.finish();
                    break;
                }
                r.readArray(buffer, 0, n);
                r.finish();
                crc.update(buffer, 0, n);
                bytes += n;
                if (++messages == 1000) {
                    PeerMain.say("RECEIVED 1000");
                }
            }
        } catch (IOException e) {
            PeerMain.say("LOST receive " + e);
            // The upcall may come after receive() failed; it is printed when it does.
            upcalls.lost.await(WAIT_MILLIS, TimeUnit.MILLISECONDS);
            ibis.end();
            return;
        }
        in.close(); // waits until the sender closed its side
        PeerMain.say(streamResult(messages, bytes, crc));
        ibis.end();
    }

    private static void stall(Ibis ibis, int messages) throws Exception {
        ReceivePort in = ibis.createReceivePort(TYPE, "stream");
        in.enableConnections();
        ibis.registry().elect("receiver");
        PeerMain.say("READY");
        byte[] buffer = new byte[0];
        long consumed = 0;
        for (int i = 0; i < messages; i++) {
            ReadMessage r = in.receive();
            int n = r.readInt();
            if (buffer.length < n) {
                buffer = new byte[n];
            }
            r.readArray(buffer, 0, n);
            r.finish();
            consumed += n;
        }
        PeerMain.say("STALLED consumed=" + consumed);
        ibis.registry().elect("stalled");
        PeerMain.stayUntilParentGoes();
    }

    private static void flood(Ibis ibis, String implementation, int size, long bound) throws Exception {
        SendPort out = ibis.createSendPort(TYPE);
        out.connect(elected(ibis, "receiver"), "stream", WAIT_MILLIS, true);
        PeerMain.say("CONNECTED");
        byte[] buffer = new byte[size];
        new SplittableRandom(7).nextBytes(buffer);
        AtomicLong completed = new AtomicLong();
        Thread writer = Thread.currentThread();
        Thread watcher = new Thread(() -> watch(ibis, implementation, writer, completed), "blocked-writer-watcher");
        watcher.setDaemon(true);
        watcher.start();
        try {
            while (true) {
                if (completed.get() + size > bound) {
                    throw new IllegalStateException("no flow control: messages of " + completed.get() + " bytes"
                            + " completed though the receiver reads no more (bound " + bound + ")");
                }
                WriteMessage w = out.newMessage();
                w.writeInt(size);
                w.writeArray(buffer);
                w.finish();
                completed.addAndGet(size);
            }
        } catch (IOException e) {
            PeerMain.say("WRITE FAILED completed=" + completed.get() + " " + e);
        }
        ibis.end();
    }

    /**
     * Once the receiver stalled (its election), waits until the writer is blocked in a write and
     * prints {@code BLOCKED completed=..}; or {@code NEVER BLOCKED ..} when that does not happen in
     * {@link #WAIT_MILLIS}.
     */
    private static void watch(Ibis ibis, String implementation, Thread writer, AtomicLong completed) {
        try {
            elected(ibis, "stalled");
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
            while (writer.isAlive()) {
                if (blockedInWrite(implementation, writer.getState(), writer.getStackTrace())) {
                    PeerMain.say("BLOCKED completed=" + completed.get());
                    return;
                }
                if (System.nanoTime() - deadline > 0) {
                    PeerMain.say("NEVER BLOCKED completed=" + completed.get());
                    return;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        } catch (IOException e) {
            PeerMain.say("WATCHER " + e);
        }
    }

    /**
     * Whether a thread in this state with this stack is blocked in a write of the implementation:
     * ucx: the sink waits for credit or send completions, in the kernel for the worker's events (the
     * worker's leader) or parked until the leader wakes it (a follower, see UcxWorker);
     * tcp: a native socket call under its sink; else: parked or waiting under the sink.
     */
    static boolean blockedInWrite(String implementation, Thread.State state, StackTraceElement[] stack) {
        String sink = "ibis.impl." + implementation + "." + Character.toUpperCase(implementation.charAt(0))
                + implementation.substring(1) + "ByteSink";
        boolean underSink = Arrays.stream(stack).anyMatch(f -> f.getClassName().equals(sink));
        if (!underSink) {
            return false;
        }
        if (implementation.equals("ucx")) {
            boolean follower = Arrays.stream(stack).anyMatch(f -> f.getClassName().equals("ibis.impl.ucx.UcxWorker"))
                    && (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING);
            return follower || stack[0].isNativeMethod() && stack[0].getMethodName().equals("waitEvent");
        }
        return stack[0].isNativeMethod() || state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
    }
}
