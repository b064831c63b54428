package ibis.registry.server;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.impl.HierarchicalLocation;
import ibis.ipl.impl.MemberIdentifier;
import ibis.ipl.impl.RegistryClient;
import ibis.registry.RecordingHandler;
import ibis.registry.RegistryProperties;
import ibis.registry.protocol.MessageBuilder;
import ibis.registry.protocol.RegistryProtocol;
import ibis.testsupport.PoolFixture;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.util.Arrays;
import java.util.Properties;
import java.util.Random;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/**
 * Garbage on the server port: random bytes, truncated or oversized frames, silence, lying counts.
 * Each bad connection is closed; the server keeps serving everybody else.
 */
public class HostileInputTest {

    private static final IbisCapabilities CAPS = new IbisCapabilities(IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED,
            IbisCapabilities.SIGNALS);

    private PoolFixture fixture;

    @BeforeMethod
    public void startServer() throws IOException {
        Properties p = new Properties();
        p.setProperty(RegistryProperties.SERVER_HANDSHAKE_TIMEOUT, "1000");
        fixture = new PoolFixture(null, p);
    }

    @AfterMethod(alwaysRun = true)
    public void stopServer() {
        fixture.close();
    }

    private Socket connect() throws IOException {
        String[] hostPort = fixture.server().address().split(":");
        Socket s = new Socket(hostPort[0], Integer.parseInt(hostPort[1]));
        s.setSoTimeout(30_000); // a server that never closes fails the test instead of hanging it
        return s;
    }

    /** Reads until the server closes the connection; returns what it sent. */
    private static byte[] readUntilClosed(Socket s) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        InputStream in = s.getInputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                received.write(buffer, 0, n);
            }
        } catch (SocketException e) {
            // "connection reset": the server closed with our unread bytes pending; closed all the same
            assertTrue(e.getMessage() == null || e.getMessage().toLowerCase().contains("reset"), e.toString());
        }
        return received.toByteArray();
    }

    private static byte[] preamble() {
        return new byte[] {0x49, 0x42, 0x52, 0x47, RegistryProtocol.VERSION};
    }

    private static byte[] joinFrame(String pool) {
        MemberIdentifier prototype = new MemberIdentifier("", pool, new HierarchicalLocation("here"), null, "raw",
                new byte[0]);
        return new MessageBuilder(RegistryProtocol.JOIN).writeMember(prototype).writeByte(0).writeInt(0)
                .writeInt(1000).writeInt(10000).frame();
    }

    private void assertServerStillServes() throws IOException {
        RegistryClient c = fixture.join("after", CAPS, null);
        assertEquals(c.getSequenceNumber("alive"), 0L);
        c.leave();
    }

    private void sendAndExpectClose(byte[]... parts) throws IOException {
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            try {
                for (byte[] part : parts) {
                    out.write(part);
                }
                out.flush();
            } catch (SocketException e) {
                return; // the server closed before we finished writing: what we expect, only sooner
            }
            readUntilClosed(s);
        }
    }

    @Test(timeOut = 60_000)
    public void randomBytesCloseOnlyThatConnection() throws IOException {
        Random random = new Random(42);
        for (int round = 0; round < 20; round++) {
            byte[] junk = new byte[1 + random.nextInt(8192)];
            random.nextBytes(junk);
            sendAndExpectClose(junk);
        }
        assertServerStillServes();
    }

    @Test(timeOut = 60_000)
    public void randomFramesAfterAValidPreambleCloseTheConnection() throws IOException {
        Random random = new Random(7);
        for (int round = 0; round < 20; round++) {
            byte[] junk = new byte[1 + random.nextInt(300)];
            random.nextBytes(junk);
            sendAndExpectClose(preamble(), junk);
        }
        assertServerStillServes();
    }

    @Test(timeOut = 60_000)
    public void truncatedJoinIsClosedAtTheHandshakeTimeout() throws IOException {
        byte[] join = joinFrame("p");
        for (int cut : new int[] {1, 4, 7, join.length - 1}) {
            sendAndExpectClose(preamble(), Arrays.copyOf(join, cut));
        }
        sendAndExpectClose(Arrays.copyOf(preamble(), 3));
        assertServerStillServes();
    }

    @Test(timeOut = 60_000)
    public void silentConnectionIsClosedAfterTheHandshakeTimeout() throws IOException {
        try (Socket s = connect()) {
            assertEquals(readUntilClosed(s).length, 0, "nothing is sent to a connection that did not identify itself");
        }
        assertServerStillServes();
    }

    @Test(timeOut = 60_000)
    public void hugeFrameLengthIsRejectedWithoutAllocating() throws IOException {
        sendAndExpectClose(preamble(), new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, RegistryProtocol.JOIN});
        sendAndExpectClose(preamble(), new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xf0});
        sendAndExpectClose(preamble(), new byte[] {0, 0, 0, 0});
        assertServerStillServes();
    }

    @Test(timeOut = 60_000)
    public void wrongVersionIsRefusedWithAReason() throws IOException {
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            out.write(new byte[] {0x49, 0x42, 0x52, 0x47, 99});
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            assertEquals(in.readInt(), RegistryProtocol.MAGIC);
            assertEquals(in.readByte(), RegistryProtocol.VERSION);
            int length = in.readInt();
            assertEquals(in.readByte(), RegistryProtocol.REFUSED);
            byte[] rest = new byte[length - 1];
            in.readFully(rest);
            assertTrue(new String(rest, java.nio.charset.StandardCharsets.UTF_8).contains("version"));
            readUntilClosed(s);
        }
        assertServerStillServes();
    }

    @Test(timeOut = 60_000)
    public void memberSendingGarbageIsDisconnectedAndReportedDead() throws Exception {
        RecordingHandler h = new RecordingHandler();
        RegistryClient observer = fixture.join("members", CAPS, h);
        observer.enableEvents();
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            out.write(preamble());
            out.write(joinFrame("members"));
            out.flush();
            h.await("joined 1");
            // A SIGNAL request whose target count claims a billion names in a tiny frame.
            out.write(new MessageBuilder(RegistryProtocol.SIGNAL).writeInt(1).writeString("hi")
                    .writeInt(1_000_000_000).frame());
            out.flush();
            readUntilClosed(s);
        }
        h.await("died 1");
        assertEquals(observer.getSequenceNumber("still fine"), 0L);
        assertServerStillServes();
    }

    @Test(timeOut = 60_000)
    public void unknownMessageTypeFromAMemberClosesIt() throws Exception {
        RecordingHandler h = new RecordingHandler();
        RegistryClient observer = fixture.join("unknown", CAPS, h);
        observer.enableEvents();
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            out.write(preamble());
            out.write(joinFrame("unknown"));
            out.write(new byte[] {0, 0, 0, 5, 0x7e, 0, 0, 0, 1});
            out.flush();
            readUntilClosed(s);
        }
        h.await("died 1");
        assertServerStillServes();
    }

    @Test(timeOut = 60_000)
    public void floodOfWaitingGetTokenCallsIsBoundedAndDroppedWithTheMember() throws Exception {
        RecordingHandler h = new RecordingHandler();
        RegistryClient observer = fixture.join("flood", CAPS, h);
        observer.enableEvents();
        int limit = Pool.MAX_WAITING_TOKEN_REQUESTS;
        try (Socket s = connect()) {
            OutputStream out = new java.io.BufferedOutputStream(s.getOutputStream());
            out.write(preamble());
            out.write(joinFrame("flood"));
            for (int id = 1; id <= limit + 1; id++) {
                out.write(new MessageBuilder(RegistryProtocol.GET_TOKEN).writeInt(id).writeString("t").frame());
            }
            int sync = limit + 2;
            out.write(new MessageBuilder(RegistryProtocol.SEQUENCE_NUMBER).writeInt(sync).writeString("s").frame());
            out.flush();
            DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(s.getInputStream()));
            assertEquals(in.readInt(), RegistryProtocol.MAGIC);
            assertEquals(in.readByte(), RegistryProtocol.VERSION);
            int errors = 0;
            while (true) {
                ibis.registry.protocol.MessageReader frame = ibis.registry.protocol.MessageReader.readFrame(in,
                        RegistryProtocol.MAX_SERVER_FRAME);
                assertTrue(frame != null, "the server closed the flooding member's connection");
                if (frame.type() == RegistryProtocol.ERROR) {
                    assertEquals(frame.readInt(), limit + 1, "only the request beyond the limit is refused");
                    String reason = frame.readString();
                    assertTrue(reason.contains("too many getToken"), reason);
                    errors++;
                } else if (frame.type() == RegistryProtocol.REPLY && frame.readInt() == sync) {
                    break;
                } else {
                    assertTrue(frame.type() == RegistryProtocol.WELCOME || frame.type() == RegistryProtocol.EVENT,
                            "unexpected " + RegistryProtocol.messageName(frame.type()));
                }
            }
            assertEquals(errors, 1);
            assertEquals(fixture.server().waitingTokenRequests("flood"), limit);
            // The honest member's own call is refused too while the pool is full, but it does not hang.
            IOException full = org.testng.Assert.expectThrows(IOException.class, () -> observer.getToken("u"));
            assertTrue(full.getMessage().contains("too many getToken"), full.getMessage());
        }
        h.await("died 1"); // the flooding connection closed without a leave
        assertEquals(fixture.server().waitingTokenRequests("flood"), 0, "a dead member's calls are dropped");
        observer.addTokens("t", 1);
        assertEquals(observer.getToken("t"), "t#0", "no token went to the dead member's calls");
        assertServerStillServes();
    }

    @Test(timeOut = 60_000)
    public void tooManyConnectionsAreRefusedButTheServerRecovers() throws Exception {
        Properties p = new Properties();
        p.setProperty(RegistryProperties.SERVER_MAX_CONNECTIONS, "1");
        p.setProperty(RegistryProperties.SERVER_BIND, "127.0.0.1");
        try (CentralRegistryServer small = new CentralRegistryServer(0, p)) {
            small.start();
            String[] hostPort = small.address().split(":");
            try (Socket first = new Socket(hostPort[0], Integer.parseInt(hostPort[1]));
                    Socket second = new Socket(hostPort[0], Integer.parseInt(hostPort[1]))) {
                second.setSoTimeout(30_000);
                first.setSoTimeout(30_000);
                assertEquals(readUntilClosed(second).length, 0, "the second connection is closed at once");
            }
        }
    }
}
