package ibis.benchmarks.ipl;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
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
 * <p>Blocking-socket connections start with one byte: {@code 'P'} for ping-pong (echo one byte at
 * a time) or {@code 'S'} for streaming, followed by the array kind (byte) and the number of
 * messages per acknowledgement (int); the server then reads 100 KB messages, converts each into
 * its array, and answers one byte after every that many messages. NIO connections only ping-pong.
 */
final class RawSockets {

    static final int PING = 'P';
    static final int STREAM = 'S';

    private RawSockets() {
    }

    /** The peer JVM's side: a blocking server and an NIO server on loopback. */
    static final class Servers implements AutoCloseable {
        private final ServerSocket blocking;
        private final ServerSocketChannel nio;

        Servers() throws IOException {
            InetAddress loopback = InetAddress.getLoopbackAddress();
            blocking = new ServerSocket(0, 50, loopback);
            nio = ServerSocketChannel.open();
            nio.bind(new InetSocketAddress(loopback, 0));
            daemon("raw-accept", this::acceptBlocking);
            daemon("nio-accept", this::acceptNio);
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
                    DataInputStream data = new DataInputStream(in);
                    ArrayKind kind = ArrayKind.values()[data.readByte()];
                    int perAck = data.readInt();
                    byte[] bytes = new byte[ArrayKind.MESSAGE_BYTES];
                    ByteBuffer view = ByteBuffer.wrap(bytes);
                    Object array = kind.newArray();
                    for (long count = 1; ; count++) {
                        data.readFully(bytes);
                        kind.decode(view, array);
                        if (count % perAck == 0) {
                            out.write(1);
                        }
                    }
                }
            } catch (EOFException e) {
                // the driver closed the connection
            } catch (IOException e) {
                // the driver went away
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
                if (in.read() < 0) {
                    throw new EOFException("peer closed the ping-pong connection");
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
            }
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    /**
     * Streams 100 KB arrays over a blocking socket the way a plain Java program would: each array is
     * converted into a byte buffer (ByteBuffer views, big-endian) and written; the receiver reads
     * and converts it back.
     */
    static final class BlockingStream implements Workload {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final ArrayKind kind;
        private final int perAck;
        private final Object array;
        private final byte[] bytes = new byte[ArrayKind.MESSAGE_BYTES];
        private final ByteBuffer view = ByteBuffer.wrap(bytes);

        BlockingStream(int port, ArrayKind kind, int perAck) throws IOException {
            this.kind = kind;
            this.perAck = perAck;
            this.array = kind.newArray();
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setTcpNoDelay(true);
            in = socket.getInputStream();
            out = socket.getOutputStream();
            DataOutputStream header = new DataOutputStream(out);
            header.writeByte(STREAM);
            header.writeByte(kind.ordinal());
            header.writeInt(perAck);
            header.flush();
        }

        @Override
        public void run(int messages) throws IOException {
            if (messages % perAck != 0) {
                throw new IllegalArgumentException(messages + " is not a multiple of " + perAck);
            }
            for (int i = 1; i <= messages; i++) {
                kind.encode(array, view);
                out.write(bytes);
                if (i % perAck == 0 && in.read() < 0) {
                    throw new EOFException("peer closed the stream connection");
                }
            }
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
