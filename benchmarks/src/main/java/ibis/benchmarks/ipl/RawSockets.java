package ibis.benchmarks.ipl;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * The peers Ibis is compared with: what a plain Java program does with blocking sockets and with
 * NIO channels. The peer JVM runs the servers ({@link Servers}); the driver JVM runs the
 * {@link Workload}s that talk to them. TCP_NODELAY is set everywhere, as Ibis does.
 *
 * <p>Blocking-socket connections start with one byte saying what follows:
 * <ul>
 * <li>{@code 'P'}: ping-pong, the server echoes one byte at a time;</li>
 * <li>{@code 'S'} and an {@link ArrayKind} ordinal: 100 KB arrays, each message one flags byte
 * ({@link BenchPorts#ACK_REQUESTED}) and the array's elements in big-endian order; the server
 * converts every message back into its array and answers a flagged one with the array's checksum
 * ({@code long});</li>
 * <li>{@code 'T'}: the 1023-node tree through JDK object streams, reset after every message (as
 * RMI does): per message {@code writeBoolean(ack)}, {@code writeObject(tree)}; the server reads the
 * tree and answers a flagged message with the tree's checksum.</li>
 * <li>{@link SizedMessages#ECHO} and {@link SizedMessages#SIZED_STREAM}: messages of a given size
 * ({@link SizedMessages}).</li>
 * </ul>
 * NIO connections only ping-pong.
 */
final class RawSockets {

    static final int PING = 'P';
    static final int STREAM = 'S';
    static final int TREE = 'T';

    private RawSockets() {
    }

    /** The peer JVM's side: a blocking server and an NIO server on loopback. */
    static final class Servers implements AutoCloseable {
        private final ServerSocket blocking;
        private final ServerSocketChannel nio;
        private final RawGroups.SelectorServer groups;

        Servers() throws IOException {
            InetAddress loopback = InetAddress.getLoopbackAddress();
            blocking = new ServerSocket(0, 50, loopback);
            nio = ServerSocketChannel.open();
            nio.bind(new InetSocketAddress(loopback, 0));
            daemon("raw-accept", this::acceptBlocking);
            daemon("nio-accept", this::acceptNio);
            groups = new RawGroups.SelectorServer();
        }

        int groupSelectorPort() {
            return groups.port();
        }

        int blockingPort() {
            return blocking.getLocalPort();
        }

        int nioPort() {
            return nio.socket().getLocalPort();
        }

        private void acceptBlocking() {
            try {
                while (true) {
                    Socket s = blocking.accept();
                    s.setTcpNoDelay(true);
                    daemon("raw-conn", () -> serveBlocking(s));
                }
            } catch (IOException e) {
                // closed
            }
        }

        private static void serveBlocking(Socket s) {
            try (s) {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                int op = in.read();
                if (op == PING) {
                    int b;
                    while ((b = in.read()) >= 0) {
                        out.write(b);
                    }
                } else if (op == STREAM) {
                    sinkArrays(in, out);
                } else if (op == TREE) {
                    sinkTrees(in, out);
                } else if (op == SizedMessages.ECHO) {
                    SizedMessages.serveEcho(in, out);
                } else if (op == SizedMessages.SIZED_STREAM) {
                    SizedMessages.sinkSized(in, out);
                } else if (op == RawGroups.GROUP_SINK) {
                    RawGroups.sinkGroup(in, out);
                }
            } catch (EOFException e) {
                // the driver closed the connection
            } catch (IOException | ClassNotFoundException | RuntimeException e) {
                System.err.println("raw peer: " + e);
            }
        }

        private static void sinkArrays(InputStream in, OutputStream out) throws IOException {
            DataInputStream data = new DataInputStream(in);
            DataOutputStream ack = new DataOutputStream(out);
            ArrayKind kind = ArrayKind.values()[data.readByte()];
            byte[] bytes = new byte[1 + ArrayKind.MESSAGE_BYTES];
            ByteBuffer elements = ByteBuffer.wrap(bytes, 1, ArrayKind.MESSAGE_BYTES).slice();
            Object array = kind.newArray();
            while (true) {
                data.readFully(bytes);
                kind.decode(elements, array);
                if ((bytes[0] & BenchPorts.ACK_REQUESTED) != 0) {
                    ack.writeLong(kind.checksum(array));
                    ack.flush();
                }
            }
        }

        private static void sinkTrees(InputStream in, OutputStream out) throws IOException, ClassNotFoundException {
            ObjectInputStream objects = new ObjectInputStream(new BufferedInputStream(in, 1 << 16));
            DataOutputStream ack = new DataOutputStream(out);
            while (true) {
                boolean ackRequested = objects.readBoolean();
                Object tree = objects.readObject();
                if (ackRequested) {
                    ack.writeLong(Payload.TREE.checksum(tree));
                    ack.flush();
                }
            }
        }

        private void acceptNio() {
            try {
                while (true) {
                    SocketChannel c = nio.accept();
                    c.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    daemon("nio-conn", () -> serveNio(c));
                }
            } catch (IOException e) {
                // closed
            }
        }

        private static void serveNio(SocketChannel c) {
            try (c) {
                ByteBuffer one = ByteBuffer.allocateDirect(1);
                while (true) {
                    one.clear();
                    if (c.read(one) < 0) {
                        return;
                    }
                    one.flip();
                    while (one.hasRemaining()) {
                        c.write(one);
                    }
                }
            } catch (IOException e) {
                // the driver went away
            }
        }

        @Override
        public void close() throws IOException {
            blocking.close();
            nio.close();
            groups.close();
        }
    }

    /** 1-byte ping-pong over a blocking socket. */
    static final class BlockingPingPong implements Workload {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;

        BlockingPingPong(int port) throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setTcpNoDelay(true);
            in = socket.getInputStream();
            out = socket.getOutputStream();
            out.write(PING);
        }

        @Override
        public void run(int iterations) throws IOException {
            for (int i = 0; i < iterations; i++) {
                out.write(i & 0x7f);
                int b = in.read();
                if (b != (i & 0x7f)) {
                    throw new IOException(b < 0 ? "peer closed the ping-pong connection"
                            : "ping-pong echoed " + b + " for " + (i & 0x7f));
                }
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** 1-byte ping-pong over a blocking NIO {@link SocketChannel}. */
    static final class NioPingPong implements Workload {
        private final SocketChannel channel;
        private final ByteBuffer one = ByteBuffer.allocateDirect(1);

        NioPingPong(int port) throws IOException {
            channel = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        }

        @Override
        public void run(int iterations) throws IOException {
            for (int i = 0; i < iterations; i++) {
                one.clear();
                one.put((byte) i).flip();
                while (one.hasRemaining()) {
                    channel.write(one);
                }
                one.clear();
                while (one.hasRemaining()) {
                    if (channel.read(one) < 0) {
                        throw new EOFException("peer closed the NIO ping-pong connection");
                    }
                }
                if (one.get(0) != (byte) i) {
                    throw new IOException("NIO ping-pong echoed " + one.get(0) + " for " + (byte) i);
                }
            }
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    /**
     * Streams 100 KB arrays over a blocking socket the way a plain Java program would: each array is
     * converted into a byte array (ByteBuffer views, big-endian) and written with its flags byte in
     * one write; the receiver reads and converts it back.
     */
    static final class BlockingStream implements Workload {
        private final Socket socket;
        private final DataInputStream in;
        private final OutputStream out;
        private final ArrayKind kind;
        private final Object array;
        private final long checksum;
        private final byte[] bytes = new byte[1 + ArrayKind.MESSAGE_BYTES];
        private final ByteBuffer elements = ByteBuffer.wrap(bytes, 1, ArrayKind.MESSAGE_BYTES).slice();

        BlockingStream(int port, ArrayKind kind) throws IOException {
            this.kind = kind;
            this.array = kind.newArray();
            this.checksum = kind.checksum(array);
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setTcpNoDelay(true);
            in = new DataInputStream(socket.getInputStream());
            out = socket.getOutputStream();
            out.write(new byte[] {STREAM, (byte) kind.ordinal()});
        }

        @Override
        public void run(int messages) throws IOException {
            for (int i = 1; i <= messages; i++) {
                kind.encode(array, elements);
                bytes[0] = i == messages ? BenchPorts.ACK_REQUESTED : 0;
                out.write(bytes);
            }
            Workload.checkAck(in.readLong(), checksum, "raw " + kind.javaName() + " stream");
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /**
     * Streams the 1023-node tree through JDK object streams over a blocking socket, reset after
     * every message (so every message carries its class descriptors again, as RMI's do).
     */
    static final class ObjectStream implements Workload {
        private final Socket socket;
        private final DataInputStream in;
        private final ObjectOutputStream out;
        private final TreeNode tree = TreeNode.benchmarkTree();
        private final long checksum = TreeNode.checksum(tree);

        ObjectStream(int port) throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setTcpNoDelay(true);
            in = new DataInputStream(socket.getInputStream());
            OutputStream raw = socket.getOutputStream();
            raw.write(TREE);
            out = new ObjectOutputStream(new BufferedOutputStream(raw, 1 << 16));
            out.flush();
        }

        @Override
        public void run(int messages) throws IOException {
            for (int i = 1; i <= messages; i++) {
                out.writeBoolean(i == messages);
                out.writeObject(tree);
                out.reset();
                out.flush();
            }
            Workload.checkAck(in.readLong(), checksum, "raw ObjectOutputStream tree stream");
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }
}
