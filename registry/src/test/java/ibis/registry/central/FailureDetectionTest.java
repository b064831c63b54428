package ibis.registry.central;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisProperties;
import ibis.ipl.IbisRuntimeException;
import ibis.ipl.impl.HierarchicalLocation;
import ibis.ipl.impl.MemberIdentifier;
import ibis.ipl.impl.RegistryClient;
import ibis.registry.RecordingHandler;
import ibis.registry.RegistryProperties;
import ibis.registry.protocol.MessageBuilder;
import ibis.registry.protocol.MessageReader;
import ibis.registry.protocol.RegistryProtocol;
import ibis.testsupport.ChildJvm;
import ibis.testsupport.PoolFixture;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import org.testng.annotations.Test;

/** Crashed, hung and suspected members are reported dead; a lost server fails calls without hanging. */
public class FailureDetectionTest {

    private static final IbisCapabilities CAPS = new IbisCapabilities(IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED,
            IbisCapabilities.ELECTIONS_STRICT, IbisCapabilities.TERMINATION);

    @Test(timeOut = 120_000)
    public void memberKilledWithSigkillIsReportedDead() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RecordingHandler h = new RecordingHandler();
            RegistryClient observer = f.join("crash", CAPS, h);
            observer.enableEvents();
            try (ChildJvm child = ChildJvm.startPeer(List.of(), MemberProcess.class, f.server().address(), "crash")) {
                String name = child.awaitLine("joined ", 60_000).substring("joined ".length());
                assertNotNull(name, "the child never joined; its output:\n" + child.output());
                h.await("joined " + name);
                child.kill(); // SIGKILL: no leave, the socket just closes
                h.await("died " + name);
                assertFalse(h.events().contains("left " + name));
                observer.getSequenceNumber("sync");
                assertEquals(observer.managementProperties().get("members"), "1", "the dead child is gone");
            }
        }
    }

    @Test(timeOut = 60_000)
    public void memberThatStopsHeartbeatingIsReportedDead() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RecordingHandler h = new RecordingHandler();
            RegistryClient observer = f.join("hang", CAPS, h);
            observer.enableEvents();
            Properties p = f.memberProperties("hang");
            p.setProperty(RegistryProperties.HEARTBEAT_INTERVAL, "100");
            p.setProperty(RegistryProperties.HEARTBEAT_TIMEOUT, "1500");
            CentralRegistryClient hung = (CentralRegistryClient) f.join(p, CAPS, null);
            assertEquals(hung.elect("leader"), hung.identifier());
            hung.simulateHang(); // connection stays open, but nothing more is sent
            h.await("died " + hung.identifier().name());
            assertEquals(observer.getElectionResult("leader", 10), null, "a dead winner's election is cleared");
            assertEquals(observer.elect("leader"), observer.identifier(), "the next candidate wins");
            IOException e = expectThrows(IOException.class, () -> hung.getSequenceNumber("x"));
            assertTrue(e.getMessage().contains("dead") || e.getMessage().contains("lost"), e.getMessage());
        }
    }

    @Test(timeOut = 60_000)
    public void maybeDeadDeclaresOnlyASilentMemberDead() throws Exception {
        Properties server = new Properties();
        server.setProperty(RegistryProperties.SERVER_PING_TIMEOUT, "3000");
        try (PoolFixture f = new PoolFixture(null, server)) {
            RecordingHandler h = new RecordingHandler();
            RegistryClient observer = f.join("suspect", CAPS, h);
            observer.enableEvents();
            RegistryClient healthy = f.join("suspect", CAPS, null);
            CentralRegistryClient hung = (CentralRegistryClient) f.join("suspect", CAPS, null);
            hung.simulateHang(); // default heartbeat timeout (10 s) is far away; only the ping can find it
            observer.maybeDead(healthy.identifier());
            observer.maybeDead(hung.identifier());
            h.await("died " + hung.identifier().name());
            observer.getSequenceNumber("sync");
            assertFalse(h.events().contains("died " + healthy.identifier().name()), "healthy answered the ping: "
                    + h.events());
            assertEquals(healthy.getSequenceNumber("x"), 0L);
        }
    }

    @Test(timeOut = 60_000)
    public void assumeDeadDeclaresTheMemberDeadAtOnce() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RecordingHandler h = new RecordingHandler();
            RegistryClient observer = f.join("assume", CAPS, h);
            observer.enableEvents();
            RecordingHandler hv = new RecordingHandler();
            RegistryClient victim = f.join("assume", CAPS, hv);
            victim.enableEvents();
            observer.assumeDead(victim.identifier());
            h.await("died 1");
            hv.await("died 1"); // the victim is told too
            IOException e = expectThrows(IOException.class, () -> victim.getSequenceNumber("x"));
            assertTrue(e.getMessage().contains("dead"), e.getMessage());
        }
    }

    @Test(timeOut = 60_000)
    public void closedServerMakesCallsFailInsteadOfHanging() throws Exception {
        PoolFixture f = new PoolFixture();
        RegistryClient a;
        RegistryClient b;
        try {
            a = f.join("gone", CAPS, null);
            b = f.join("gone", CAPS, null);
        } finally {
            f.server().close();
        }
        f.server().close(); // idempotent
        IOException e = expectThrows(IOException.class, () -> a.getSequenceNumber("x"));
        assertTrue(e.getMessage().contains("registry server"), e.getMessage());
        expectThrows(IOException.class, () -> b.elect("x"));
        expectThrows(IOException.class, () -> b.getElectionResult("x"));
        expectThrows(IbisRuntimeException.class, b::waitUntilTerminated);
        assertEquals(a.getManagementProperty("connected"), "false");
        a.leave(); // releases local resources without complaint
        b.leave();
        f.close();
    }

    @Test(timeOut = 60_000)
    public void joinFailsClearlyWhenNoServerListens() throws Exception {
        // A port that is bound but not listening: connecting to it is refused, and no other socket
        // (another test's server, or this connect's own source port) can take it meanwhile.
        try (Socket reserved = new Socket()) {
            reserved.setReuseAddress(false);
            reserved.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Properties p = new Properties();
            p.setProperty(IbisProperties.SERVER_ADDRESS, "127.0.0.1:" + reserved.getLocalPort());
            p.setProperty(IbisProperties.POOL_NAME, "nobody");
            p.setProperty(RegistryProperties.CONNECT_TIMEOUT, "300");
            IOException e = expectThrows(IOException.class, () -> new CentralRegistryProvider().join(CAPS, null, p,
                    "test", new byte[0], null));
            assertTrue(e.getMessage().contains("cannot reach"),
                    e.getMessage() + " " + Arrays.toString(e.getStackTrace()));
        }
    }

    @Test(timeOut = 60_000)
    public void serverThatGoesSilentIsDetectedAndCallsFail() throws Exception {
        // A fake server: accepts the join, then never sends anything again (a hung or cut-off server).
        try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Properties p = new Properties();
            p.setProperty(IbisProperties.SERVER_ADDRESS, "127.0.0.1:" + fake.getLocalPort());
            p.setProperty(IbisProperties.POOL_NAME, "silent");
            p.setProperty(RegistryProperties.HEARTBEAT_INTERVAL, "100");
            p.setProperty(RegistryProperties.HEARTBEAT_TIMEOUT, "1000");
            Thread serverSide = new Thread(() -> {
                try {
                    Socket s = fake.accept();
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    in.readInt();
                    in.readByte();
                    MessageReader.readFrame(in, RegistryProtocol.MAX_CLIENT_FRAME);
                    MemberIdentifier me = new MemberIdentifier("0", "silent", new HierarchicalLocation("x"), null,
                            "test", new byte[0]);
                    OutputStream out = s.getOutputStream();
                    out.write(new byte[] {0x49, 0x42, 0x52, 0x47, RegistryProtocol.VERSION});
                    out.write(new MessageBuilder(RegistryProtocol.WELCOME).writeMember(me).writeLong(0).writeByte(0)
                            .writeInt(1).writeMember(me).writeInt(0).frame());
                    out.flush();
                    // keep the socket open and say nothing; it is closed with the test's server socket
                } catch (IOException e) {
                    // the test fails on the client side if this goes wrong
                }
            });
            serverSide.setDaemon(true);
            serverSide.start();
            RegistryClient client = new CentralRegistryProvider().join(CAPS, null, p, "test", new byte[0], null);
            assertEquals(client.identifier().name(), "0");
            IOException e = expectThrows(IOException.class, () -> client.getSequenceNumber("never answered"));
            assertTrue(e.getMessage().contains("no message from the registry server"), e.getMessage());
            expectThrows(IOException.class, () -> client.elect("x"));
            client.leave();
        }
    }
}
