package ibis.impl.tcp;

import ibis.io.ByteSource;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The input of a TCP connection, over a {@link SocketChannel} in blocking mode.
 *
 * <p>Waiting with a time limit: a blocking channel's own {@code read} cannot time out, but the
 * socket adaptor's input stream honours {@code SO_TIMEOUT} on the same channel (JDK 13 and later),
 * so {@link #awaitData(long)} reads into a small heap read-ahead buffer through that stream. Plain
 * reads ({@link #read}) first drain the read-ahead, then read from the channel straight into the
 * caller's buffer, so large messages are not copied twice.
 *
 * <p>Costs on the hot path: {@code awaitData(0)} is one blocking {@code read} system call that
 * fetches (part of) the next message into the read-ahead; when bytes are already read ahead it
 * returns at once. {@link #available()} is one {@code FIONREAD} ioctl when the read-ahead is empty.
 * Nothing allocates. Closing the source closes the whole socket; a blocked reader gets an
 * {@link java.nio.channels.AsynchronousCloseException}.
 */
final class TcpByteSource implements ByteSource {

    private final SocketChannel channel;
    private final InputStream timedInput;
    /** Bytes read ahead, between position and limit (read mode). */
    private final ByteBuffer readAhead;
    private boolean endOfStream;
    private int currentTimeout = -1;

    TcpByteSource(SocketChannel channel, int readAheadSize) throws IOException {
        this.channel = channel;
        this.timedInput = channel.socket().getInputStream();
        this.readAhead = ByteBuffer.allocate(readAheadSize);
        this.readAhead.limit(0);
    }

    @Override
    public int read(ByteBuffer destination, int minimum) throws IOException {
        int total = 0;
        if (readAhead.hasRemaining()) {
            int n = Math.min(readAhead.remaining(), destination.remaining());
            int oldLimit = readAhead.limit();
            readAhead.limit(readAhead.position() + n);
            destination.put(readAhead);
            readAhead.limit(oldLimit);
            total = n;
        }
        while (total < minimum) {
            if (endOfStream) {
                throw new EOFException("connection closed by the peer (" + total + " of " + minimum + " bytes read)");
            }
            int n = channel.read(destination);
            if (n < 0) {
                endOfStream = true;
            } else {
                total += n;
            }
        }
        return total;
    }

    @Override
    public int available() throws IOException {
        if (readAhead.hasRemaining()) {
            return readAhead.remaining();
        }
        if (endOfStream) {
            return 0;
        }
        return timedInput.available();
    }

    @Override
    public boolean awaitData(long timeoutMillis) throws IOException {
        if (readAhead.hasRemaining() || endOfStream) {
            return true;
        }
        if (timeoutMillis < 0) {
            return available() > 0;
        }
        readAhead.clear();
        try {
            int n;
            if (timeoutMillis == 0) {
                n = channel.read(readAhead);
            } else {
                int timeout = (int) Math.min(Integer.MAX_VALUE, timeoutMillis);
                if (timeout != currentTimeout) {
                    channel.socket().setSoTimeout(timeout);
                    currentTimeout = timeout;
                }
                try {
                    n = timedInput.read(readAhead.array(), readAhead.arrayOffset(), readAhead.capacity());
                } catch (SocketTimeoutException e) {
                    return false;
                }
                if (n > 0) {
                    readAhead.position(n);
                }
            }
            if (n < 0) {
                endOfStream = true;
            }
            return true;
        } finally {
            readAhead.flip();
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
