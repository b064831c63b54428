package org.example.loop;

import ibis.ipl.impl.ConnectionEnds;
import ibis.ipl.impl.IncomingConnectionHandler;
import ibis.ipl.impl.MemberIdentifier;
import ibis.ipl.impl.Transport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Properties;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A transport over plain blocking sockets; a reader thread per connection drains it into a buffer.
 * It only moves bytes: handshakes, framing, ports and the registry come from {@code ibis.ipl.impl}.
 * The contact data published in the member identifier is the listening address: one byte of
 * address length, the address, two bytes of port.
 */
public final class LoopTransport implements Transport {

    private static final Logger LOG = LoggerFactory.getLogger(LoopTransport.class);

    private final ServerSocket server;
    private final byte[] contact;
    private final int bufferSize;
    private volatile boolean closed;

    public LoopTransport(Properties properties, IncomingConnectionHandler handler) throws IOException {
        InetAddress address = InetAddress.getByName(LoopPropertyTable.ADDRESS.get(properties));
        bufferSize = LoopPropertyTable.BUFFER.get(properties);
        server = new ServerSocket();
        server.bind(new InetSocketAddress(address, 0));
        byte[] ip = address.getAddress();
        contact = ByteBuffer.allocate(1 + ip.length + 2).put((byte) ip.length).put(ip)
                .putShort((short) server.getLocalPort()).array();
        Thread acceptor = new Thread(() -> {
            while (!closed) {
                try {
                    Socket s = server.accept();
                    s.setTcpNoDelay(true);
                    LoopConnection c = new LoopConnection(s, bufferSize);
                    handler.accept(c.sink(), c.source(), "loop " + s.getRemoteSocketAddress());
                } catch (IOException e) {
                    if (closed) {
                        return;
                    }
                    LOG.warn("loop: accepting a connection failed: {}", e.toString());
                }
            }
        }, "loop-acceptor-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @Override
    public byte[] contactData() {
        return contact.clone();
    }

    @Override
    public ConnectionEnds connect(MemberIdentifier target, long timeoutMillis) throws IOException {
        if (!LoopIbisStarter.NICKNAME.equals(target.implementationName())) {
            throw new IOException(target + " runs the '" + target.implementationName() + "' implementation, not loop");
        }
        byte[] d = target.implementationData();
        if (d == null || d.length < 1 || (d[0] != 4 && d[0] != 16) || d.length != 1 + d[0] + 2) {
            throw new IOException("malformed loop contact data");
        }
        byte[] ip = new byte[d[0]];
        System.arraycopy(d, 1, ip, 0, ip.length);
        int port = ((d[1 + ip.length] & 0xff) << 8) | (d[2 + ip.length] & 0xff);
        InetSocketAddress a = new InetSocketAddress(InetAddress.getByAddress(ip), port);
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(a, (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeoutMillis)));
            LoopConnection c = new LoopConnection(s, bufferSize);
            return new ConnectionEnds(c.sink(), c.source(), "loop " + a);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
    }
}
