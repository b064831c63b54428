package ibis.ipl.impl;

import ibis.io.ByteSink;
import ibis.io.ByteSource;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;

/** A one-directional in-memory byte pipe with a {@link ByteSink} end and a {@link ByteSource} end. */
final class MemoryPipe {

    private final Object lock = new Object();
    private byte[] data = new byte[256];
    private int start;
    private int end;
    private boolean writerClosed;
    private boolean readerClosed;

    final ByteSink sink = new ByteSink() {
        @Override
        public void write(ByteBuffer[] buffers, int offset, int count) throws IOException {
            synchronized (lock) {
                if (writerClosed || readerClosed) {
                    throw new IOException("pipe closed");
                }
                for (int i = 0; i < count; i++) {
                    ByteBuffer b = buffers[offset + i];
                    int n = b.remaining();
                    ensure(n);
                    b.get(data, end, n);
                    end += n;
                }
                lock.notifyAll();
            }
        }

        @Override
        public void close() {
            synchronized (lock) {
                writerClosed = true;
                lock.notifyAll();
            }
        }
    };

    final ByteSource source = new ByteSource() {
        @Override
        public int read(ByteBuffer destination, int minimum) throws IOException {
            int total = 0;
            synchronized (lock) {
                while (true) {
                    if (readerClosed) {
                        throw new IOException("pipe closed");
                    }
                    int n = Math.min(end - start, destination.remaining());
                    destination.put(data, start, n);
                    start += n;
                    total += n;
                    if (total >= minimum) {
                        return total;
                    }
                    if (writerClosed) {
                        throw new EOFException("pipe ended");
                    }
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
            }
        }

        @Override
        public int available() {
            synchronized (lock) {
                return end - start;
            }
        }

        @Override
        public boolean awaitData(long timeoutMillis) throws IOException {
            long deadline = System.currentTimeMillis() + timeoutMillis;
            synchronized (lock) {
                while (end == start && !writerClosed && !readerClosed) {
                    long left = timeoutMillis == 0 ? 0 : deadline - System.currentTimeMillis();
                    if (timeoutMillis != 0 && left <= 0) {
                        return false;
                    }
                    try {
                        lock.wait(left);
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
                return true;
            }
        }

        @Override
        public void close() {
            synchronized (lock) {
                readerClosed = true;
                lock.notifyAll();
            }
        }
    };

    /** Writes raw bytes (for malformed-input tests). */
    void writeRaw(byte[] bytes) throws IOException {
        sink.write(new ByteBuffer[] {ByteBuffer.wrap(bytes)}, 0, 1);
    }

    private void ensure(int n) {
        if (end + n > data.length) {
            byte[] bigger = new byte[Math.max(data.length * 2, end - start + n)];
            System.arraycopy(data, start, bigger, 0, end - start);
            end -= start;
            start = 0;
            data = bigger;
        }
    }
}
