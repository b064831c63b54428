package ibis.ipl.impl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.impl.tcp.TcpContactData;
import ibis.io.ByteSink;
import ibis.io.ByteSource;
import ibis.ipl.Ibis;
import ibis.ipl.PortType;
import ibis.ipl.ReceivePort;
import ibis.ipl.impl.ConnectionHandshake.Reply;
import ibis.ipl.impl.ConnectionHandshake.Request;
import ibis.ipl.impl.ConnectionHandshake.Status;
import ibis.testsupport.PoolFixture;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;

import org.testng.annotations.Test;

/**
 * The shared base checks the implementation name of every incoming connection: a send port of a
 * member that runs another implementation (here a handshake that claims one) is refused before any
 * message is accepted, with a reply that names both implementations.
 */
public class ForeignImplementationTest {

    private static final PortType TYPE = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA,
            PortType.RECEIVE_EXPLICIT, PortType.COMMUNICATION_RELIABLE);

    /** A blocking socket as the sink the handshake request is written to. */
    private record SocketSink(SocketChannel channel) implements ByteSink {
        @Override
        public void write(ByteBuffer[] buffers, int offset, int count) throws IOException {
            for (int i = offset; i < offset + count; i++) {
                while (buffers[i].hasRemaining()) {
                    channel.write(buffers[i]);
                }
            }
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    /** A blocking socket as the source the handshake reply is read from. */
    private record SocketSource(SocketChannel channel) implements ByteSource {
        @Override
        public int read(ByteBuffer destination, int minimum) throws IOException {
            int n = 0;
            while (n < minimum) {
                int r = channel.read(destination);
                if (r < 0) {
                    throw new EOFException("closed by the peer");
                }
                n += r;
            }
            return n;
        }

        @Override
        public int available() {
            return 0;
        }

        @Override
        public boolean awaitData(long timeoutMillis) {
            return true; // the blocking read waits
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    @Test(timeOut = 60_000)
    public void aConnectionFromAnotherImplementationIsRefusedNamingBoth() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Ibis ibis = pool.create(TYPE);
            ReceivePort port = ibis.createReceivePort(TYPE, "in");
            port.enableConnections();
            MemberIdentifier real = (MemberIdentifier) ibis.identifier();
            MemberIdentifier foreign = new MemberIdentifier("foreign-member", real.poolName(),
                    (HierarchicalLocation) real.location(), real.tag(), "other", real.implementationData());
            try (SocketChannel channel = SocketChannel.open(
                    TcpContactData.parse(real.implementationData()).address())) {
                ConnectionHandshake.writeRequest(new SocketSink(channel),
                        new Request(foreign, "out", "in", TYPE.toBytes(), ByteOrder.nativeOrder()));
                Reply reply = ConnectionHandshake.readReply(new SocketSource(channel), 30_000);
                assertEquals(reply.status(), Status.BAD_REQUEST, reply.text());
                assertTrue(reply.text().contains("runs the 'tcp' implementation, not 'other'"), reply.text());
                assertTrue(reply.text().contains("ibis.implementation"), reply.text());
            }
            assertEquals(port.connectedTo().length, 0, "no connection was admitted");
        }
    }
}
