package ibis.benchmarks.ipl;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Raw-socket peers of the group figures (one-to-many and many-to-one): what plain Java does with
 * the same process layout and messages as the Ibis group figures of {@link IbisDriver}. Senders are
 * in the driver JVM (many-to-one: one thread and one blocking socket per sender; multicast: one
 * thread writing every message to each of its sockets in turn), receivers in the peer JVM.
 *
 * <p>A message is {@link #MESSAGE} bytes written in one write: the flags byte
 * ({@link BenchPorts#ACK_REQUESTED}), the sender number, and the 100 KB {@code byte[]} payload. The
 * receiver copies the payload into one reused {@code byte[]} (as the Ibis group sinks do) and answers
 * a flagged message, on the connection it came on, with the checksum ({@code long}) of the payload.
 *
 * <p>Receivers: {@link #GROUP_SINK} connections of the blocking server each have a thread of their
 * own that reads whole messages with {@code readFully}; connections of the {@link SelectorServer}
 * are gathered into groups, each group served by one thread with one {@link Selector} that reads
 * whatever has arrived on a ready connection (non-blocking channels, through one direct buffer).
 */
final class RawGroups {

    /** First byte of a blocking connection whose messages a thread of its own receives. */
    static final int GROUP_SINK = 'G';

    /** Bytes per message: flags, sender, payload. */
    static final int MESSAGE = 2 + ArrayKind.MESSAGE_BYTES;

    private RawGroups() {
    }

    // ---- the peer's side

    /** Receives group messages on a blocking socket until it closes (one thread per connection). */
    static void sinkGroup(InputStream in, OutputStream out) throws IOException {
        DataInputStream data = new DataInputStream(in);
        DataOutputStream ack = new DataOutputStream(out);
        byte[] message = new byte[2];
        byte[] payload = new byte[ArrayKind.MESSAGE_BYTES];
        while (true) {
            data.readFully(message);
            data.readFully(payload);
            if ((message[0] & BenchPorts.ACK_REQUESTED) != 0) {
                ack.writeLong(ArrayKind.BYTE.checksum(payload));
                ack.flush();
            }
        }
    }

    /**
     * The peer's server of many-to-one groups received by one selector thread. A connection starts
     * with one byte: the size of its group; a group's connections arrive one after the other, and
     * once all have, a thread serves them.
     */
    static final class SelectorServer implements AutoCloseable {
        private final ServerSocketChannel server;

        SelectorServer() throws IOException {
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            RawSockets.daemon("raw-group-accept", this::accept);
        }

        int port() {
            return server.socket().getLocalPort();
        }

        private void accept() {
            List<SocketChannel> pending = new ArrayList<>();
            try {
                while (true) {
                    SocketChannel c = server.accept();
                    c.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    ByteBuffer size = ByteBuffer.allocate(1);
                    while (size.hasRemaining()) {
                        if (c.read(size) < 0) {
                            throw new EOFException();
                        }
                    }
                    pending.add(c);
                    int groupSize = size.get(0) & 0x7f;
                    boolean oneMessagePerTurn = (size.get(0) & 0x80) != 0;
                    if (pending.size() == groupSize) {
                        List<SocketChannel> group = new ArrayList<>(pending);
                        pending.clear();
                        RawSockets.daemon("raw-group-selector", () -> serve(group, oneMessagePerTurn));
                    }
                }
            } catch (IOException e) {
                // closed
            }
        }

        /** Where a connection is in its current message. */
        private static final class Progress {
            int offset; // bytes of the current message received
            byte flags;
        }

        private static void serve(List<SocketChannel> group, boolean oneMessagePerTurn) {
            byte[] payload = new byte[ArrayKind.MESSAGE_BYTES];
            ByteBuffer staging = ByteBuffer.allocateDirect(64 * 1024);
            ByteBuffer ack = ByteBuffer.allocateDirect(Long.BYTES);
            try (Selector selector = Selector.open()) {
                Map<SocketChannel, Progress> progress = new HashMap<>();
                for (SocketChannel c : group) {
                    c.configureBlocking(false);
                    c.register(selector, SelectionKey.OP_READ);
                    progress.put(c, new Progress());
                }
                while (true) {
                    selector.select();
                    Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                    while (keys.hasNext()) {
                        SelectionKey key = keys.next();
                        keys.remove();
                        SocketChannel c = (SocketChannel) key.channel();
                        Progress p = progress.get(c);
                        while (true) {
                            // Never read beyond the current message, so its end is seen.
                            staging.clear().limit(Math.min(staging.capacity(), MESSAGE - p.offset));
                            int n = c.read(staging);
                            if (n < 0) {
                                return;
                            }
                            if (p.offset == 0 && n > 0) {
                                p.flags = staging.get(0);
                            }
                            int start = Math.max(0, 2 - p.offset); // skip the header bytes
                            if (n > start) {
                                staging.get(start, payload, p.offset + start - 2, n - start);
                            }
                            p.offset += n;
                            if (p.offset == MESSAGE) {
                                p.offset = 0;
                                if ((p.flags & BenchPorts.ACK_REQUESTED) != 0) {
                                    ack.clear();
                                    ack.putLong(0, ArrayKind.BYTE.checksum(payload));
                                    while (ack.hasRemaining()) {
                                        c.write(ack); // 8 bytes into an idle connection: no wait
                                    }
                                }
                            }
                            if (n < staging.limit() || (oneMessagePerTurn && p.offset == 0)) {
                                break; // drained what had arrived, or one message read
                            }
                        }
                    }
                }
            } catch (IOException e) {
                // the driver went away
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    // ---- the driver's workloads

    /** A message of sender {@code sender}: header and payload, in one array. */
    private static byte[] message(int sender) {
        byte[] m = new byte[MESSAGE];
        m[1] = (byte) sender;
        System.arraycopy((byte[]) ArrayKind.BYTE.newArray(), 0, m, 2, ArrayKind.MESSAGE_BYTES);
        return m;
    }

    private static long checksum() {
        return ArrayKind.BYTE.checksum(ArrayKind.BYTE.newArray());
    }

    private static Socket connect(int port, int first) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.setTcpNoDelay(true);
        s.getOutputStream().write(first);
        return s;
    }

    /**
     * Many-to-one: {@code size} sender threads, each with its own blocking socket, to one receiving
     * thread with a selector ({@code selector}) or to one receiving thread per socket.
     */
    static final class ManyToOne implements Workload {
        private final Socket[] sockets;
        private final byte[][] messages;
        private final ExecutorService senders;
        private final long checksum = checksum();
        private final String what;

        ManyToOne(int blockingPort, int selectorPort, int size, boolean selector) throws IOException {
            this(blockingPort, selectorPort, size, selector, false);
        }

        /** With {@code oneMessagePerTurn}, the selector receiver reads one message of a ready connection at a time. */
        ManyToOne(int blockingPort, int selectorPort, int size, boolean selector, boolean oneMessagePerTurn)
                throws IOException {
            sockets = new Socket[size];
            messages = new byte[size][];
            for (int i = 0; i < size; i++) {
                sockets[i] = selector ? connect(selectorPort, size | (oneMessagePerTurn ? 0x80 : 0))
                        : connect(blockingPort, GROUP_SINK);
                messages[i] = message(i);
            }
            senders = Executors.newFixedThreadPool(size, r -> {
                Thread t = new Thread(r, "raw-many-to-one-sender");
                t.setDaemon(true);
                return t;
            });
            what = "raw many-to-one from " + size + (selector ? " (selector)" : " (threads)");
        }

        @Override
        public void run(int messageCount) throws IOException, InterruptedException {
            int active = Math.min(sockets.length, messageCount);
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < active; i++) {
                int sender = i;
                int count = messageCount / active + (i < messageCount % active ? 1 : 0);
                running.add(senders.submit(() -> {
                    OutputStream out = sockets[sender].getOutputStream();
                    byte[] m = messages[sender];
                    for (int k = 1; k <= count; k++) {
                        m[0] = k == count ? BenchPorts.ACK_REQUESTED : 0;
                        out.write(m);
                    }
                    Workload.checkAck(new DataInputStream(sockets[sender].getInputStream()).readLong(), checksum,
                            what);
                    return null;
                }));
            }
            for (Future<?> f : running) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof IOException io ? io : new IOException(what + ": " + e.getCause(), e);
                }
            }
        }

        @Override
        public void close() throws IOException {
            senders.shutdownNow();
            for (Socket s : sockets) {
                s.close();
            }
        }
    }

    /** Multicast: one thread writes every message to each of {@code size} blocking sockets in turn. */
    static final class Multicast implements Workload {
        private final Socket[] sockets;
        private final OutputStream[] outs;
        private final DataInputStream[] ins;
        private final byte[] message = message(0);
        private final long checksum = checksum();
        private final String what;

        Multicast(int blockingPort, int size) throws IOException {
            sockets = new Socket[size];
            outs = new OutputStream[size];
            ins = new DataInputStream[size];
            for (int i = 0; i < size; i++) {
                sockets[i] = connect(blockingPort, GROUP_SINK);
                outs[i] = sockets[i].getOutputStream();
                ins[i] = new DataInputStream(sockets[i].getInputStream());
            }
            what = "raw multicast to " + size;
        }

        @Override
        public void run(int messageCount) throws IOException {
            for (int k = 1; k <= messageCount; k++) {
                message[0] = k == messageCount ? BenchPorts.ACK_REQUESTED : 0;
                for (OutputStream out : outs) {
                    out.write(message);
                }
            }
            for (DataInputStream in : ins) {
                Workload.checkAck(in.readLong(), checksum, what);
            }
        }

        @Override
        public void close() throws IOException {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
