package ibis.benchmarks.serialization;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;

/**
 * JDK serialization as RMI uses it: one {@link ObjectOutputStream} per connection, and per
 * message {@code writeObject}, {@code reset()} (so every message is self-contained and objects are
 * not remembered across messages) and {@code flush()}. The output stream under it discards the
 * bytes; the {@link ObjectInputStream} reads the steady-state message over and over.
 */
final class JdkCodec extends Codec {

    private final ObjectOutputStream out;
    private ObjectInputStream in;

    JdkCodec() throws IOException {
        out = new ObjectOutputStream(new Discard());
    }

    @Override
    void write(Object value) throws IOException {
        writeMessage(out, value);
    }

    private static void writeMessage(ObjectOutputStream out, Object value) throws IOException {
        out.writeObject(value);
        out.reset();
        out.flush();
    }

    /** {stream header, steady-state message}. */
    private static byte[][] record(Object value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ObjectOutputStream oos = new ObjectOutputStream(bytes);
        oos.flush();
        byte[] header = bytes.toByteArray();
        bytes.reset();
        writeMessage(oos, value);
        bytes.reset();
        writeMessage(oos, value); // as the first: reset() also forgets the class descriptors
        return new byte[][] {header, bytes.toByteArray()};
    }

    @Override
    byte[] message(Object value) throws IOException {
        return record(value)[1];
    }

    @Override
    void prepareRead(Object value) throws IOException {
        byte[][] m = record(value);
        in = new ObjectInputStream(new Replay(m[0], m[1]));
    }

    @Override
    Object read() throws IOException, ClassNotFoundException {
        return in.readObject();
    }

    /** An output stream that discards everything (the transport costs nothing). */
    private static final class Discard extends OutputStream {
        @Override
        public void write(int b) {
        }

        @Override
        public void write(byte[] b, int off, int len) {
        }
    }

    /** An input stream of a prologue followed by one message repeated without end. */
    private static final class Replay extends InputStream {
        private final byte[] message;
        private byte[] current;
        private int position;

        Replay(byte[] prologue, byte[] message) {
            this.message = message;
            this.current = prologue;
        }

        @Override
        public int read() {
            if (position == current.length) {
                current = message;
                position = 0;
            }
            return current[position++] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (position == current.length) {
                current = message;
                position = 0;
            }
            int n = Math.min(len, current.length - position);
            System.arraycopy(current, position, b, off, n);
            position += n;
            return n;
        }

        @Override
        public int available() {
            return current.length - position;
        }
    }
}
