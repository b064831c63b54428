package ibis.impl.tcp;

import ibis.io.config.InvalidPropertyException;
import ibis.ipl.impl.ConnectionEnds;
import ibis.ipl.impl.ImplPropertyTable;
import ibis.ipl.impl.ImplSettings;
import ibis.ipl.impl.IncomingConnectionHandler;
import ibis.ipl.impl.ListenAddress;
import ibis.ipl.impl.MemberIdentifier;
import ibis.ipl.impl.SourceWaitSet;
import ibis.ipl.impl.Transport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Properties;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TCP transport of one Ibis: a listening {@link ServerSocketChannel} with an accept thread,
 * and one socket per connection (one per send port / receive port pair). Every socket gets
 * {@code TCP_NODELAY} (a connection carries data in one direction only, so there are no replies
 * to piggyback acknowledgements on; without it small messages would wait for the delayed-ACK timer,
 * the lesson of the Ibis paper, section 3.2.1) and {@code SO_KEEPALIVE}.
 */
public final class TcpTransport implements Transport {

    private static final Logger LOG = LoggerFactory.getLogger(TcpTransport.class);

    private final ServerSocketChannel server;
    private final InetSocketAddress listenAddress;
    private final byte[] contactData;
    private final IncomingConnectionHandler handler;
    private final int socketBufferSize;
    private final int readAhead;
    /** How long a receiving connection polls for the rest of a message before it blocks. */
    private final long spinMicros;
    private final Thread acceptThread;
    private volatile boolean closed;

    /**
     * Binds the listening socket and starts accepting.
     *
     * @param properties the Ibis's properties (see {@link TcpPropertyTable})
     * @param handler where accepted connections go
     * @throws IOException when the socket cannot be bound
     */
    public TcpTransport(Properties properties, IncomingConnectionHandler handler) throws IOException {
        this.handler = handler;
        int port;
        InetAddress address;
        try {
            this.socketBufferSize = TcpPropertyTable.SOCKET_BUFFER_SIZE_PROPERTY.get(properties);
            this.readAhead = TcpPropertyTable.READ_AHEAD_PROPERTY.get(properties);
            this.spinMicros = ImplPropertyTable.RECEIVE_SPIN_MICROS_PROPERTY.get(properties);
            port = TcpPropertyTable.PORT_PROPERTY.get(properties);
            address = ListenAddress.choose(TcpPropertyTable.ADDRESS_PROPERTY.get(properties), properties);
        } catch (InvalidPropertyException e) {
            throw ImplSettings.configurationError(e);
        }
        this.server = ServerSocketChannel.open();
        try {
            server.bind(new InetSocketAddress(address, port), 256);
        } catch (IOException e) {
            server.close();
            throw new IOException(
                    "cannot listen on " + address.getHostAddress() + ":" + port + ": " + e.getMessage(), e);
        }
        int bound = ((InetSocketAddress) server.getLocalAddress()).getPort();
        this.listenAddress = new InetSocketAddress(address, bound);
        this.contactData = new TcpContactData(listenAddress).toBytes();
        this.acceptThread = new Thread(this::acceptLoop, "ibis-tcp-accept-" + bound);
        acceptThread.setDaemon(true);
        acceptThread.start();
        LOG.debug("listening on {}", listenAddress);
    }

    /** The address of the listening socket. */
    public InetSocketAddress listenAddress() {
        return listenAddress;
    }

    private void configure(SocketChannel channel) throws IOException {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        if (socketBufferSize > 0) {
            channel.setOption(StandardSocketOptions.SO_SNDBUF, socketBufferSize);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, socketBufferSize);
        }
    }

    private void acceptLoop() {
        while (!closed) {
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                LOG.warn("accepting a connection on {} failed: {}", listenAddress, e.toString());
                pauseAfterFailure();
                continue;
            }
            String peer = "?";
            try {
                configure(channel);
                SocketAddress remote = channel.getRemoteAddress();
                peer = String.valueOf(remote);
                // The accepting side receives the messages: its source polls (non-blocking channel).
                TcpByteSource source = TcpByteSource.polling(channel, readAhead, spinMicros);
                handler.accept(new TcpByteSink(channel, source), source, "tcp " + peer);
            } catch (IOException | RuntimeException e) {
                LOG.info("dropping the connection from {}: {}", peer, e.toString());
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // dropping it anyway
                }
            }
        }
    }

    /** Keeps a persistent accept failure (for example too many open files) from spinning. */
    private static void pauseAfterFailure() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public byte[] contactData() {
        return contactData.clone();
    }

    @Override
    public ConnectionEnds connect(MemberIdentifier target, long timeoutMillis) throws IOException {
        if (!TcpIbisStarter.NICKNAME.equals(target.implementationName())) {
            throw new IOException(target + " runs the '" + target.implementationName()
                    + "' implementation, not tcp");
        }
        InetSocketAddress address = TcpContactData.parse(target.implementationData()).address();
        SocketChannel channel = SocketChannel.open();
        try {
            configure(channel);
            channel.socket().connect(address, (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeoutMillis)));
            if (channel.socket().getLocalSocketAddress().equals(channel.socket().getRemoteSocketAddress())) {
                // TCP simultaneous open with itself: nobody listens on that (ephemeral) port and the
                // kernel picked the same port as our source port. Nobody is there.
                throw new java.net.ConnectException("connection refused by " + address + " (nothing listens there)");
            }
            // The connecting side sends the messages; its source only reads the handshake reply.
            // It polls too (non-blocking channel), so that a send waiting for room in the socket
            // buffer waits in a selector, where an interrupt cannot close the channel.
            TcpByteSource source = TcpByteSource.polling(channel, readAhead, spinMicros);
            return new ConnectionEnds(new TcpByteSink(channel, source), source,
                    "tcp " + address.getAddress().getHostAddress() + ":" + address.getPort());
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** A selector over receiving sources: a many-to-one port's receive() waits on all its connections. */
    @Override
    public SourceWaitSet newSourceWaitSet() throws IOException {
        return new TcpSourceWaitSet();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
    }

    @Override
    public String toString() {
        return "tcp transport on " + listenAddress;
    }
}
