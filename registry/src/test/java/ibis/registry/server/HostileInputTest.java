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
import ibis.registry.protocol.MessageReader;
import ibis.registry.protocol.RegistryProtocol;
import ibis.testsupport.PoolFixture;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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

    /**
     * A member floods the server with token requests: every GET_TOKEN is answered at once ("none"),
     * the token names are bounded, a negative count is refused, and the tokens it added outlive it.
     */
    @Test(timeOut = 60_000)
    public void floodOfTokenRequestsIsAnsweredAtOnceAndTokenNamesAreBounded() throws Exception {
        RecordingHandler h = new RecordingHandler();
        RegistryClient observer = fixture.join("flood", CAPS, h);
        observer.enableEvents();
        int limit = Pool.MAX_NAMES;
        int gets = limit + 1; // request ids 1..gets: GET_TOKEN of names nobody added
        int addsFrom = gets + 1; // then limit + 1 ADD_TOKENS of new names: the last is beyond the bound
        int negative = addsFrom + limit + 1;
        int sync = negative + 1;
        try (Socket s = connect()) {
            OutputStream out = new java.io.BufferedOutputStream(s.getOutputStream());
            out.write(preamble());
            out.write(joinFrame("flood"));
            for (int id = 1; id <= gets; id++) {
                out.write(new MessageBuilder(RegistryProtocol.GET_TOKEN).writeInt(id).writeString("g" + id).frame());
            }
            for (int i = 0; i <= limit; i++) {
                out.write(new MessageBuilder(RegistryProtocol.ADD_TOKENS).writeInt(addsFrom + i).writeString("n" + i)
                        .writeInt(1).frame());
            }
            out.write(new MessageBuilder(RegistryProtocol.ADD_TOKENS).writeInt(negative).writeString("n0")
                    .writeInt(-1).frame());
            out.write(new MessageBuilder(RegistryProtocol.SEQUENCE_NUMBER).writeInt(sync).writeString("s").frame());
            out.flush();
            DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(s.getInputStream()));
            assertEquals(in.readInt(), RegistryProtocol.MAGIC);
            assertEquals(in.readByte(), RegistryProtocol.VERSION);
            int none = 0;
            int added = 0;
            List<Integer> refused = new ArrayList<>();
            while (true) {
                MessageReader frame = MessageReader.readFrame(in, RegistryProtocol.MAX_SERVER_FRAME);
                assertTrue(frame != null, "the server closed the flooding member's connection");
                if (frame.type() == RegistryProtocol.ERROR) {
                    int id = frame.readInt();
                    String reason = frame.readString();
                    assertTrue(id == addsFrom + limit && reason.contains("too many token names")
                            || id == negative && reason.contains("negative"), id + ": " + reason);
                    refused.add(id);
                } else if (frame.type() == RegistryProtocol.REPLY) {
                    int id = frame.readInt();
                    if (id == sync) {
                        break;
                    } else if (id <= gets) {
                        assertEquals(frame.readBoolean(), false, "no token of a name nobody added");
                        frame.expectEnd();
                        none++;
                    } else {
                        frame.expectEnd();
                        added++;
                    }
                } else {
                    assertTrue(frame.type() == RegistryProtocol.WELCOME || frame.type() == RegistryProtocol.EVENT,
                            "unexpected " + RegistryProtocol.messageName(frame.type()));
                }
            }
            assertEquals(none, gets, "every getToken was answered, none waits");
            assertEquals(added, limit, "tokens of " + limit + " names are accepted");
            assertEquals(refused, List.of(addsFrom + limit, negative), "the name beyond the bound, the negative count");
            IOException full = org.testng.Assert.expectThrows(IOException.class, () -> observer.addTokens("new", 1));
            assertTrue(full.getMessage().contains("too many token names"), full.getMessage());
            assertEquals(observer.getToken("n0"), "n0", "a name that has tokens still takes");
            assertEquals(observer.getToken("n0"), null, "the negative count changed nothing");
            observer.addTokens("n1", 1); // a name that has tokens still takes more
        }
        h.await("died 1"); // the flooding connection closed without a leave
        assertEquals(observer.getToken("n1"), "n1", "the tokens a dead member added stay with the pool");
        assertEquals(observer.getToken("n1"), "n1");
        assertEquals(observer.getToken("n1"), null);
        assertEquals(observer.getToken("g1"), null);
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
