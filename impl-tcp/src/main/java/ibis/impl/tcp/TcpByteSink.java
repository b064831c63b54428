package ibis.impl.tcp;

import ibis.io.ByteSink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The output of a TCP connection: one gathering write of all buffers over a blocking
 * {@link SocketChannel}, so a block header and its payload leave in one system call (and, with
 * TCP_NODELAY, usually in one segment). Closing it closes the whole socket.
 */
final class TcpByteSink implements ByteSink {

    private final SocketChannel channel;

    TcpByteSink(SocketChannel channel) {
        this.channel = channel;
    }

    @Override
    public void write(ByteBuffer[] buffers, int offset, int count) throws IOException {
        long left = 0;
        for (int i = 0; i < count; i++) {
            left += buffers[offset + i].remaining();
        }
        // A blocking channel normally writes everything at once; loop for partial writes.
        while (left > 0) {
            left -= channel.write(buffers, offset, count);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
