package ibis.rewriter;

import ibis.io.ByteSink;
import ibis.io.ByteSource;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The smallest transport for tests, single-threaded: a {@link ByteSink} that collects everything
 * written, and a {@link ByteSource} over a finished byte array (end of data = EOFException).
 */
final class BytesPipe {

    private BytesPipe() {
    }

    /** A sink collecting into a byte array. */
    static final class Sink implements ByteSink {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public void write(ByteBuffer[] buffers, int offset, int count) {
            for (int i = offset; i < offset + count; i++) {
                ByteBuffer b = buffers[i];
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
        }

        @Override
        public void close() {
            // nothing to release
        }

        byte[] toByteArray() {
            return bytes.toByteArray();
        }
    }

    /** A source reading a finished byte array. */
    static final class Source implements ByteSource {
        private final byte[] data;
        private int position;

        Source(byte[] data) {
            this.data = data;
        }

        @Override
        public int read(ByteBuffer destination, int minimum) throws IOException {
            int n = Math.min(destination.remaining(), data.length - position);
            if (n < minimum) {
                throw new EOFException("end of data after " + data.length + " bytes");
            }
            destination.put(data, position, n);
            position += n;
            return n;
        }

        @Override
        public int available() {
            return data.length - position;
        }

        @Override
        public boolean awaitData(long timeoutMillis) {
            return true;
        }

        @Override
        public void close() {
            // nothing to release
        }
    }
}
