package ibis.ipl.impl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.impl.ConnectionHandshake.Reply;
import ibis.ipl.impl.ConnectionHandshake.Request;
import ibis.ipl.impl.ConnectionHandshake.Status;
import ibis.testsupport.MemoryPipe;

import java.io.IOException;
import java.io.StreamCorruptedException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;

import org.testng.annotations.Test;

/** The connection handshake codec: round trips, and bounded reading of malformed input. */
public class ConnectionHandshakeTest {

    private static MemberIdentifier member(String name) {
        return new MemberIdentifier(name, "pool", new HierarchicalLocation("node", "site"), new byte[] {7}, "tcp",
                new byte[] {1, 2, 3, 4});
    }

    @Test(timeOut = 10_000)
    public void requestRoundTripKeepsEveryField() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        byte[] type = {9, 8, 7};
        ConnectionHandshake.writeRequest(pipe.sink,
                new Request(member("3"), "out", "in", type, ByteOrder.LITTLE_ENDIAN));
        Request r = ConnectionHandshake.readRequest(pipe.source, 1000);
        assertEquals(r.sender(), member("3"));
        assertEquals(r.sender().implementationData(), new byte[] {1, 2, 3, 4});
        assertEquals(r.sendPortName(), "out");
        assertEquals(r.receivePortName(), "in");
        assertEquals(r.portType(), type);
        assertEquals(r.byteOrder(), ByteOrder.LITTLE_ENDIAN);
        assertEquals(pipe.source.available(), 0, "the reader must not consume beyond the frame");
    }

    @Test(timeOut = 10_000)
    public void replyRoundTripKeepsStatusOrderAndText() throws IOException {
        for (Status s : Status.values()) {
            MemoryPipe pipe = new MemoryPipe();
            ConnectionHandshake.writeReply(pipe.sink, new Reply(s, ByteOrder.BIG_ENDIAN, "because " + s));
            Reply r = ConnectionHandshake.readReply(pipe.source, 1000);
            assertEquals(r.status(), s);
            assertEquals(r.byteOrder(), ByteOrder.BIG_ENDIAN);
            assertEquals(r.text(), "because " + s);
        }
    }

    @Test(timeOut = 10_000)
    public void badMagicIsRejected() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        pipe.writeRaw("GET / HTTP/1.1\r\n\r\n".getBytes());
        StreamCorruptedException e = expectThrows(StreamCorruptedException.class,
                () -> ConnectionHandshake.readRequest(pipe.source, 1000));
        assertTrue(e.getMessage().contains("magic"), e.getMessage());
    }

    @Test(timeOut = 10_000)
    public void hugeBodyLengthIsRejectedBeforeAllocation() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        ByteBuffer b = ByteBuffer.allocate(9).putInt(ConnectionHandshake.REQUEST_MAGIC).put(ConnectionHandshake.VERSION)
                .putInt(Integer.MAX_VALUE);
        pipe.writeRaw(b.array());
        StreamCorruptedException e = expectThrows(StreamCorruptedException.class,
                () -> ConnectionHandshake.readRequest(pipe.source, 1000));
        assertTrue(e.getMessage().contains("length"), e.getMessage());
    }

    @Test(timeOut = 10_000)
    public void unknownVersionIsRejected() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        pipe.writeRaw(
                ByteBuffer.allocate(9).putInt(ConnectionHandshake.REQUEST_MAGIC).put((byte) 99).putInt(0).array());
        StreamCorruptedException e = expectThrows(StreamCorruptedException.class,
                () -> ConnectionHandshake.readRequest(pipe.source, 1000));
        assertTrue(e.getMessage().contains("version"), e.getMessage());
    }

    @Test(timeOut = 10_000)
    public void garbageBodyIsRejected() throws IOException {
        Random random = new Random(42);
        for (int i = 0; i < 200; i++) {
            byte[] body = new byte[random.nextInt(300)];
            random.nextBytes(body);
            MemoryPipe pipe = new MemoryPipe();
            pipe.writeRaw(ByteBuffer.allocate(9 + body.length).putInt(ConnectionHandshake.REQUEST_MAGIC)
                    .put(ConnectionHandshake.VERSION).putInt(body.length).put(body).array());
            expectThrows(IOException.class, () -> ConnectionHandshake.readRequest(pipe.source, 1000));
        }
    }

    @Test(timeOut = 10_000)
    public void truncatedRequestEndsWithEof() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        pipe.writeRaw(ByteBuffer.allocate(9).putInt(ConnectionHandshake.REQUEST_MAGIC).put(ConnectionHandshake.VERSION)
                .putInt(100).array());
        pipe.writeRaw(new byte[10]);
        pipe.sink.close();
        expectThrows(java.io.EOFException.class, () -> ConnectionHandshake.readRequest(pipe.source, 1000));
    }

    @Test(timeOut = 10_000)
    public void stalledPeerTimesOut() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        pipe.writeRaw(new byte[] {0x49, 0x42}); // half a magic number, then silence
        expectThrows(SocketTimeoutException.class, () -> ConnectionHandshake.readRequest(pipe.source, 200));
    }
}
