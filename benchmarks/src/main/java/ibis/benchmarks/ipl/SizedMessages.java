package ibis.benchmarks.ipl;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;

/**
 * Latency and throughput against message size: {@code byte[]} messages of {@link #SIZES} bytes,
 * round trips (the peer echoes the message) and one-way streams (the peer acknowledges the last
 * message of a run with the checksum of its bytes), over Ibis data ports and over raw blocking
 * sockets.
 *
 * <p>Raw protocol (after the connection's first byte, {@link #ECHO} or {@link #SIZED_STREAM}): an
 * echo message is an {@code int} length and that many bytes, answered with the same; a stream
 * message is a flags byte ({@link BenchPorts#ACK_REQUESTED}), an {@code int} length and that many
 * bytes, a flagged one answered with the {@code long} checksum. Each message goes out in one
 * write, as a plain Java program that cares about latency writes it.
 *
 * <p>Ibis: a round trip is {@code writeInt(n)}, {@code writeArray(bytes, 0, n)} on
 * {@link BenchPorts#PING_SIZED}, echoed the same way to {@link BenchPorts#REPLY_SIZED}; a stream
 * message is the data stream's {@code flags}, {@code what} = {@link BenchPorts#SIZED}, then
 * {@code writeInt(n)}, {@code writeArray(bytes, 0, n)}.
 */
final class SizedMessages {

    /** The message sizes, 1 B to 1 MiB, a factor 16 apart. */
    static final int[] SIZES = {1, 16, 256, 4096, 65536, 1 << 20};

    /** The largest size any receiver accepts. */
    static final int MAX = 1 << 20;

    static final int ECHO = 'E';
    static final int SIZED_STREAM = 'Z';

    private SizedMessages() {
    }

    /** Bytes with content that depends on the position. */
    static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return b;
    }

    /** The checksum of the first {@code n} bytes (the same for every kind of receiver). */
    static long checksum(byte[] b, int n) {
        long sum = n;
        for (int i = 0; i < n; i++) {
            sum = sum * 31 + b[i];
        }
        return sum;
    }

    /** Checks a length read from the wire. */
    static int checkLength(int n) throws IOException {
        if (n < 1 || n > MAX) {
            throw new IOException("message length " + n + " not in [1, " + MAX + "]");
        }
        return n;
    }

    /** Marks a message of round trip {@code i} so that its echo can be recognised: first and last byte. */
    static void mark(byte[] b, int off, int n, int i) {
        b[off] = (byte) i;
        b[off + n - 1] = (byte) (i + n);
    }

    /** Checks an echoed message of round trip {@code i}. */
    static void checkEcho(byte[] b, int off, int n, int echoedLength, int i, String what) throws IOException {
        if (echoedLength != n || b[off] != (byte) (n == 1 ? i + n : i) || b[off + n - 1] != (byte) (i + n)) {
            throw new IOException(
                    what + ": round trip " + i + " echoed " + echoedLength + " bytes, or other bytes, for " + n);
        }
    }

    // ---- the raw peer's side

    /** Echoes length-prefixed messages until the driver closes the connection. */
    static void serveEcho(InputStream in, OutputStream out) throws IOException {
        DataInputStream data = new DataInputStream(in);
        byte[] message = new byte[4 + MAX];
        ByteBuffer header = ByteBuffer.wrap(message, 0, 4);
        while (true) {
            data.readFully(message, 0, 4);
            int n = checkLength(header.getInt(0));
            data.readFully(message, 4, n);
            out.write(message, 0, 4 + n);
        }
    }

    /** Receives a sized stream; answers a flagged message with its checksum. */
    static void sinkSized(InputStream in, OutputStream out) throws IOException {
        DataInputStream data = new DataInputStream(in);
        DataOutputStream ack = new DataOutputStream(out);
        byte[] bytes = new byte[MAX];
        while (true) {
            byte flags = data.readByte();
            int n = checkLength(data.readInt());
            data.readFully(bytes, 0, n);
            if ((flags & BenchPorts.ACK_REQUESTED) != 0) {
                ack.writeLong(checksum(bytes, n));
                ack.flush();
            }
        }
    }

    // ---- the driver's raw workloads

    /** Round trips of {@code n}-byte messages over a blocking socket. */
    static final class RawEcho implements Workload {
        private final Socket socket;
        private final DataInputStream in;
        private final OutputStream out;
        private final int n;
        private final byte[] message;
        private final byte[] reply;

        RawEcho(int port, int n) throws IOException {
            this.n = n;
            message = new byte[4 + n];
            reply = new byte[4 + n];
            System.arraycopy(pattern(n), 0, message, 4, n);
            ByteBuffer.wrap(message).putInt(0, n);
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setTcpNoDelay(true);
            in = new DataInputStream(socket.getInputStream());
            out = socket.getOutputStream();
            out.write(ECHO);
        }

        @Override
        public void run(int iterations) throws IOException {
            ByteBuffer header = ByteBuffer.wrap(reply, 0, 4);
            for (int i = 0; i < iterations; i++) {
                mark(message, 4, n, i);
                out.write(message);
                in.readFully(reply);
                checkEcho(reply, 4, n, header.getInt(0), i, "raw echo");
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** One-way stream of {@code n}-byte messages over a blocking socket. */
    static final class RawStream implements Workload {
        private final Socket socket;
        private final DataInputStream in;
        private final OutputStream out;
        private final byte[] message;
        private final long checksum;
        private final int n;

        RawStream(int port, int n) throws IOException {
            this.n = n;
            byte[] bytes = pattern(n);
            checksum = checksum(bytes, n);
            message = new byte[5 + n];
            ByteBuffer.wrap(message).putInt(1, n);
            System.arraycopy(bytes, 0, message, 5, n);
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setTcpNoDelay(true);
            in = new DataInputStream(socket.getInputStream());
            out = socket.getOutputStream();
            out.write(SIZED_STREAM);
        }

        @Override
        public void run(int messages) throws IOException {
            for (int i = 1; i <= messages; i++) {
                message[0] = i == messages ? BenchPorts.ACK_REQUESTED : 0;
                out.write(message);
            }
            Workload.checkAck(in.readLong(), checksum, "raw " + n + "-byte stream");
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
