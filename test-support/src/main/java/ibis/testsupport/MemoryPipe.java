package ibis.testsupport;

import ibis.io.ByteSink;
import ibis.io.ByteSource;
import ibis.io.ByteViews;

import java.io.EOFException;
import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.function.ObjIntConsumer;

/**
 * In-memory transport for tests: one direction of a connection, a {@link ByteSink} that appends to a
 * growing byte array and a {@link ByteSource} that reads it back, optionally in tiny random-size
 * chunks (to exercise every block and buffer boundary). Thread-safe, so a writer and a reader thread
 * may share it; a reader waits (wait/notify) for data and gets an EOFException once the writer
 * closed and all is read, an IOException once its own end was closed. Steady state allocates
 * nothing: when everything written has been read, the array is reused.
 */
public final class MemoryPipe {

    private byte[] data;
    private int written;
    private int readPosition;
    private long totalWritten;
    private boolean writerClosed;
    private boolean readerClosed;
    private final int chunkMax;
    private final Random random;

    /** The writing end. */
    public final ByteSink sink = new Sink();
    /** The same pipe through a sink that takes primitive arrays as they are (as a transport does). */
    public final ByteSink arraySink = new ArraySink();
    private int arrayParts;
    /** The same pipe through a source that reads into arrays (with the interface's default copy). */
    public final ByteSource arraySource = new ArraySource();
    private int arrayReads;
    private long arrayBytes;
    private ByteViews views;       // of data (remade when data grows)
    private byte[] viewed;
    /** The reading end. */
    public final ByteSource source = new Source();

    /**
     * The reading end, telling {@code afterRead} each destination a block stream read into and how
     * many bytes went there (to see which reads went straight into an application's array or buffer).
     */
    public ByteSource observedSource(ObjIntConsumer<ByteBuffer> afterRead) {
        return new ByteSource() {
            @Override
            public int read(ByteBuffer destination, int minimum) throws IOException {
                int n = source.read(destination, minimum);
                afterRead.accept(destination, n);
                return n;
            }

            @Override
            public int available() throws IOException {
                return source.available();
            }

            @Override
            public boolean awaitData(long timeoutMillis) throws IOException {
                return source.awaitData(timeoutMillis);
            }

            @Override
            public void close() throws IOException {
                source.close();
            }
        };
    }

    /** A pipe that delivers as much as the reader has room for. */
    public MemoryPipe() {
        this(0, 0);
    }

    /**
     * @param chunkMax when positive, every delivery to the reader is 1..chunkMax bytes (still at
     *        least the reader's minimum in total)
     */
    public MemoryPipe(int chunkMax, long seed) {
        this(chunkMax, seed, 4096);
    }

    /** Like {@link #MemoryPipe(int, long)}, with the first size of the array. */
    public MemoryPipe(int chunkMax, long seed, int initialCapacity) {
        this.chunkMax = chunkMax;
        this.random = new Random(seed);
        this.data = new byte[initialCapacity];
    }

    /** A closed pipe holding exactly {@code bytes}: reading past them gives EOFException. */
    public static MemoryPipe of(byte[] bytes, int chunkMax, long seed) {
        MemoryPipe pipe = new MemoryPipe(chunkMax, seed, Math.max(bytes.length, 16));
        pipe.append(bytes, 0, bytes.length);
        pipe.writerClosed = true;
        return pipe;
    }

    /** Appends bytes as if the sink had written them. */
    public synchronized void append(byte[] bytes, int offset, int length) {
        ensureRoom(length);
        System.arraycopy(bytes, offset, data, written, length);
        written += length;
        totalWritten += length;
        notifyAll();
    }

    private void ensureRoom(int length) {
        if (written + length > data.length) {
            data = Arrays.copyOf(data, Math.max(2 * data.length, written + length));
        }
    }

    /** Writes raw bytes through the sink (for malformed-input tests). */
    public void writeRaw(byte[] bytes) throws IOException {
        sink.write(new ByteBuffer[] {ByteBuffer.wrap(bytes)}, 0, 1);
    }

    /** Everything written so far and not yet read. */
    public synchronized byte[] unread() {
        return Arrays.copyOfRange(data, readPosition, written);
    }

    /** Every byte written so far, read or not. */
    public synchronized long totalWritten() {
        return totalWritten;
    }

    /** Whether the writing end was closed. */
    public synchronized boolean writerClosed() {
        return writerClosed;
    }

    /** Closes the writing end: the reader gets EOFException after what was written. */
    public synchronized void closeWriter() {
        writerClosed = true;
        notifyAll();
    }

    private class Sink implements ByteSink {
        @Override
        public void write(ByteBuffer[] buffers, int offset, int count) throws IOException {
            synchronized (MemoryPipe.this) {
                if (writerClosed || readerClosed) {
                    throw new IOException("pipe closed for " + (writerClosed ? "writing" : "reading"));
                }
                for (int i = offset; i < offset + count; i++) {
                    ByteBuffer b = buffers[i];
                    int n = b.remaining();
                    ensureRoom(n);
                    b.get(data, written, n);
                    written += n;
                    totalWritten += n;
                }
                MemoryPipe.this.notifyAll();
            }
        }

        @Override
        public void close() {
            closeWriter();
        }
    }

    /** The array parts {@link #arraySink} was given. */
    public synchronized int arrayParts() {
        return arrayParts;
    }

    private final class ArraySink extends Sink {
        @Override
        public boolean takesArrays() {
            return true;
        }

        @Override
        public void write(ByteBuffer[] buffers, int offset, int count, Buffer array) throws IOException {
            synchronized (MemoryPipe.this) {
                write(buffers, offset, count);
                ensureRoom(ByteViews.byteLength(array));
                if (viewed != data) {
                    views = new ByteViews(ByteBuffer.wrap(data));
                    viewed = data;
                }
                int n = views.put(written, array);
                written += n;
                totalWritten += n;
                arrayParts++;
            }
        }
    }

    /** The reads into arrays {@link #arraySource} made. */
    public synchronized int arrayReads() {
        return arrayReads;
    }

    /** The bytes {@link #arraySource} stored straight into arrays. */
    public synchronized long arrayBytes() {
        return arrayBytes;
    }

    private final class ArraySource extends Source {
        @Override
        public boolean takesArrays() {
            return true;
        }

        @Override
        public void read(Buffer destination) throws IOException {
            int n = ByteViews.byteLength(destination);
            super.read(destination); // the interface default: into a new buffer, then converted
            synchronized (MemoryPipe.this) {
                arrayReads++;
                arrayBytes += n;
            }
        }
    }

    private class Source implements ByteSource {
        @Override
        public int read(ByteBuffer destination, int minimum) throws IOException {
            synchronized (MemoryPipe.this) {
                if (minimum > destination.remaining()) {
                    throw new IllegalArgumentException("minimum " + minimum + " > room " + destination.remaining());
                }
                int done = 0;
                while (done < minimum || (done == 0 && destination.hasRemaining() && written > readPosition)) {
                    while (written == readPosition) {
                        if (readerClosed) {
                            throw new IOException("pipe closed for reading");
                        }
                        if (writerClosed) {
                            throw new EOFException("end of stream after " + (totalWritten - (written - readPosition))
                                    + " bytes");
                        }
                        try {
                            MemoryPipe.this.wait();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new java.io.InterruptedIOException("interrupted");
                        }
                    }
                    int n = Math.min(written - readPosition, destination.remaining());
                    if (chunkMax > 0) {
                        n = Math.min(n, 1 + random.nextInt(chunkMax));
                    }
                    destination.put(data, readPosition, n);
                    readPosition += n;
                    done += n;
                }
                if (readPosition == written) {
                    readPosition = 0;
                    written = 0;
                }
                return done;
            }
        }

        @Override
        public int available() {
            synchronized (MemoryPipe.this) {
                return written - readPosition;
            }
        }

        @Override
        public boolean awaitData(long timeoutMillis) throws IOException {
            synchronized (MemoryPipe.this) {
                long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
                while (written == readPosition && !writerClosed && !readerClosed) {
                    try {
                        if (timeoutMillis == 0) {
                            MemoryPipe.this.wait();
                        } else {
                            long left = (deadline - System.nanoTime()) / 1_000_000L;
                            if (left <= 0) {
                                return false;
                            }
                            MemoryPipe.this.wait(left);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.io.InterruptedIOException("interrupted");
                    }
                }
                return true;
            }
        }

        @Override
        public void close() {
            synchronized (MemoryPipe.this) {
                readerClosed = true;
                MemoryPipe.this.notifyAll();
            }
        }
    }
}
