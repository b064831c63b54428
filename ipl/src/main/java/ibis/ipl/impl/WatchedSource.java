package ibis.ipl.impl;

import ibis.io.BlockInputStream;
import ibis.io.ByteSource;
import ibis.io.ByteViews;

import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * A {@link ByteSource} that remembers whether the transport failed, so that an {@link IOException}
 * met while reading a message can be told apart: a broken connection (becomes a
 * {@link ibis.ipl.ConnectionClosedException}) or a problem with the message itself (reading past
 * its end, malformed data). One more interface call per buffer fill, nothing per primitive.
 */
final class WatchedSource implements ByteSource {

    private final ByteSource source;
    private volatile IOException failure;
    /** Set while {@link #bufferedOnly} looks at the block stream: the transport is not asked. */
    private boolean quiet;
    /** Some byte arrived through this source (read only by the thread reading the connection). */
    private boolean arrived;
    /** Bytes read through this source so far (by the thread reading the connection). */
    private long received;

    WatchedSource(ByteSource source) {
        this.source = source;
    }

    /** The transport's failure, or null while the connection is fine. */
    IOException failure() {
        return failure;
    }

    /** Whether any byte arrived on the connection after the handshake. */
    boolean anyByteArrived() {
        return arrived;
    }

    /** The bytes read through this source so far. */
    long received() {
        return received;
    }

    @Override
    public int read(ByteBuffer destination, int minimum) throws IOException {
        try {
            int n = source.read(destination, minimum);
            if (n > 0) {
                arrived = true;
                received += n;
            }
            return n;
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    @Override
    public boolean takesArrays() {
        return source.takesArrays();
    }

    @Override
    public void read(Buffer destination) throws IOException {
        try {
            int bytes = ByteViews.byteLength(destination);
            source.read(destination);
            arrived = true;
            received += bytes;
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    /**
     * Whether the next message of {@code in} (which reads this source) has started to arrive,
     * counting only what the block stream has buffered; the transport is not polled.
     */
    boolean bufferedOnly(BlockInputStream in) throws IOException {
        quiet = true;
        try {
            return in.awaitMessage(-1);
        } finally {
            quiet = false;
        }
    }

    @Override
    public int available() throws IOException {
        if (quiet) {
            return 0;
        }
        try {
            return source.available();
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    @Override
    public boolean awaitData(long timeoutMillis) throws IOException {
        if (quiet) {
            return false;
        }
        try {
            return source.awaitData(timeoutMillis);
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    @Override
    public boolean awaitDataSpinning() throws IOException {
        if (quiet) {
            return false;
        }
        try {
            return source.awaitDataSpinning();
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        source.close();
    }
}
