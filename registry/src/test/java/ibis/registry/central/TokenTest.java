package ibis.registry.central;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisProperties;
import ibis.ipl.impl.HierarchicalLocation;
import ibis.ipl.impl.MemberIdentifier;
import ibis.ipl.impl.RegistryClient;
import ibis.registry.RegistryProperties;
import ibis.registry.protocol.MessageBuilder;
import ibis.registry.protocol.MessageReader;
import ibis.registry.protocol.RegistryProtocol;
import ibis.testsupport.PoolFixture;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/**
 * {@code getToken} as in IPL 2.x: it takes one of the tokens added under a name and returns that
 * name, or returns null at once when the name has none left; it never waits. Every test has a
 * {@code timeOut}: a {@code getToken} that waited for a token would hang and fail by it.
 */
public class TokenTest {

    private static final IbisCapabilities CAPS = PoolFixture.allRegistryCapabilities();

    private ExecutorService threads;

    @BeforeMethod
    public void startThreads() {
        threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "token-test");
            t.setDaemon(true);
            return t;
        });
    }

    @AfterMethod(alwaysRun = true)
    public void stopThreads() {
        threads.shutdownNow();
    }

    @Test(timeOut = 30_000)
    public void getTokenWithNoneAvailableReturnsNullAtOnce() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("none", CAPS, null);
            RegistryClient b = f.join("none", CAPS, null);
            assertNull(a.getToken("never-added"), "a name that never had tokens has none");
            a.addTokens("empty", 0);
            assertNull(b.getToken("empty"), "adding 0 tokens adds none");
            a.addTokens("one", 1);
            assertEquals(b.getToken("one"), "one");
            assertNull(a.getToken("one"), "the only token was taken by another member");
            assertNull(b.getToken("one"), "still none: getToken does not wait for more");
            assertEquals(a.getSequenceNumber("still-connected"), 0L, "a null answer leaves the member usable");
        }
    }

    @Test(timeOut = 30_000)
    public void getTokenReturnsTheNameAndTakesExactlyTheAddedCountAcrossMembers() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("count", CAPS, null);
            RegistryClient b = f.join("count", CAPS, null);
            a.addTokens("work", 3);
            b.addTokens("work", 2); // counts add up, whoever adds them
            int taken = 0;
            for (int i = 0; i < 5; i++) {
                RegistryClient taker = i % 2 == 0 ? b : a;
                assertEquals(taker.getToken("work"), "work", "token " + i + " of 5");
                taken++;
            }
            assertEquals(taken, 5);
            assertNull(a.getToken("work"), "5 tokens added, 5 taken: none left for a");
            assertNull(b.getToken("work"), "none left for b either");
            b.addTokens("work", 1);
            assertEquals(a.getToken("work"), "work", "a name whose tokens ran out takes new ones");
            assertNull(b.getToken("work"));
        }
    }

    @Test(timeOut = 30_000)
    public void concurrentTakersGetExactlyTheAddedNumberOfTokens() throws Exception {
        int added = 200;
        try (PoolFixture f = new PoolFixture()) {
            List<RegistryClient> members = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                members.add(f.join("race", CAPS, null));
            }
            members.get(0).addTokens("t", added);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> takers = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                RegistryClient m = members.get(t % members.size());
                takers.add(threads.submit(() -> {
                    start.await();
                    int got = 0;
                    for (String token = m.getToken("t"); token != null; token = m.getToken("t")) {
                        assertEquals(token, "t");
                        got++;
                    }
                    return got;
                }));
            }
            start.countDown();
            int total = 0;
            for (Future<Integer> taker : takers) {
                total += taker.get();
            }
            assertEquals(total, added, "every added token was taken exactly once");
            assertNull(members.get(3).getToken("t"));
        }
    }

    @Test(timeOut = 30_000)
    public void eachNameHasItsOwnTokens() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("names", CAPS, null);
            RegistryClient b = f.join("names", CAPS, null);
            a.addTokens("x", 1);
            assertNull(b.getToken("y"), "tokens of x do not serve y");
            assertNull(b.getToken("x#0"), "tokens have no numbered names");
            a.addTokens("y", 2);
            assertEquals(b.getToken("y"), "y");
            assertEquals(b.getToken("x"), "x");
            assertNull(a.getToken("x"));
            assertEquals(a.getToken("y"), "y");
            assertNull(a.getToken("y"));
            expectThrows(IllegalArgumentException.class, () -> a.addTokens("x", -1));
            expectThrows(NullPointerException.class, () -> a.getToken(null));
            expectThrows(NullPointerException.class, () -> a.addTokens(null, 1));
        }
    }

    @Test(timeOut = 30_000)
    public void callsOfAMemberDeclaredDeadFailAndItsTokensStayWithThePool() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("dead", CAPS, null);
            RegistryClient victim = f.join("dead", CAPS, null);
            victim.addTokens("t", 2);
            assertEquals(victim.getToken("t"), "t");
            a.assumeDead(victim.identifier());
            IOException get = expectThrows(IOException.class, () -> victim.getToken("t"));
            assertTrue(get.getMessage().contains("dead"), get.getMessage());
            IOException add = expectThrows(IOException.class, () -> victim.addTokens("t", 1));
            assertTrue(add.getMessage().contains("dead"), add.getMessage());
            assertEquals(a.getToken("t"), "t", "the token the dead member added and did not take is still there");
            assertNull(a.getToken("t"));
        }
    }

    @Test(timeOut = 30_000)
    public void getTokenFailsWhenTheServerIsGone() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("gone", CAPS, null);
            a.addTokens("t", 1);
            f.server().close();
            IOException e = expectThrows(IOException.class, () -> a.getToken("t"));
            assertTrue(e.getMessage().contains("registry server"), e.getMessage());
        }
    }

    /**
     * The wire, against a fake server: GET_TOKEN is answered by a REPLY with one boolean (true: the
     * name, false: null), and a call whose caller was interrupted is neither withdrawn nor has its
     * token given back: the client's next frame is the next request.
     */
    @Test(timeOut = 30_000)
    public void getTokenReplyIsABooleanAndAnInterruptedCallSendsNothingMore() throws Exception {
        try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Properties p = new Properties();
            p.setProperty(IbisProperties.SERVER_ADDRESS, "127.0.0.1:" + fake.getLocalPort());
            p.setProperty(IbisProperties.POOL_NAME, "wire");
            p.setProperty(RegistryProperties.HEARTBEAT_INTERVAL, "600000"); // no heartbeats during the test
            p.setProperty(RegistryProperties.HEARTBEAT_TIMEOUT, "1200000");
            Future<RegistryClient> joining = threads.submit(
                    () -> new CentralRegistryProvider().join(CAPS, null, p, "test", new byte[0], null));
            RegistryClient client = null;
            try (Socket s = fake.accept()) {
                s.setSoTimeout(20_000);
                DataInputStream in = new DataInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream();
                assertEquals(in.readInt(), RegistryProtocol.MAGIC);
                assertEquals(in.readByte(), RegistryProtocol.VERSION);
                assertEquals(next(in).type(), RegistryProtocol.JOIN);
                MemberIdentifier me = new MemberIdentifier("0", "wire", new HierarchicalLocation("x"), null, "test",
                        new byte[0]);
                out.write(new byte[] {0x49, 0x42, 0x52, 0x47, RegistryProtocol.VERSION});
                out.write(new MessageBuilder(RegistryProtocol.WELCOME).writeMember(me).writeLong(0).writeByte(0)
                        .writeInt(1).writeMember(me).writeInt(0).frame());
                out.flush();
                client = joining.get();
                RegistryClient member = client;

                Future<String> got = threads.submit(() -> member.getToken("t"));
                out.write(new MessageBuilder(RegistryProtocol.REPLY).writeInt(getTokenRequest(in, "t"))
                        .writeBoolean(true).frame());
                out.flush();
                assertEquals(got.get(), "t");

                Future<String> none = threads.submit(() -> member.getToken("t"));
                out.write(new MessageBuilder(RegistryProtocol.REPLY).writeInt(getTokenRequest(in, "t"))
                        .writeBoolean(false).frame());
                out.flush();
                assertNull(none.get());

                // Interrupted before the answer came: the late answer (a token) is dropped, nothing is sent for it.
                AtomicReference<Throwable> outcome = new AtomicReference<>();
                Thread taker = new Thread(() -> {
                    try {
                        outcome.set(new AssertionError("getToken returned " + member.getToken("u")));
                    } catch (IOException e) {
                        outcome.set(e);
                    }
                }, "token-taker");
                taker.setDaemon(true);
                taker.start();
                int interrupted = getTokenRequest(in, "u");
                taker.interrupt();
                taker.join();
                assertTrue(outcome.get() instanceof InterruptedIOException, String.valueOf(outcome.get()));
                out.write(new MessageBuilder(RegistryProtocol.REPLY).writeInt(interrupted).writeBoolean(true).frame());
                out.flush();

                Future<Long> number = threads.submit(() -> member.getSequenceNumber("n"));
                MessageReader request = next(in);
                assertEquals(RegistryProtocol.messageName(request.type()), "SEQUENCE_NUMBER",
                        "no withdrawal and no give-back of the token before the next request");
                out.write(new MessageBuilder(RegistryProtocol.REPLY).writeInt(request.readInt()).writeLong(41).frame());
                out.flush();
                assertEquals(number.get().longValue(), 41L);
                assertEquals(client.getManagementProperty("connected"), "true");
            } finally {
                if (client != null) {
                    client.leave(); // the fake server's socket is closed: this only releases local resources
                }
            }
        }
    }

    /** Reads the client's GET_TOKEN for {@code name}; returns its request id. */
    private static int getTokenRequest(DataInputStream in, String name) throws IOException {
        MessageReader get = next(in);
        assertEquals(RegistryProtocol.messageName(get.type()), "GET_TOKEN");
        int id = get.readInt();
        assertEquals(get.readString(), name);
        get.expectEnd();
        return id;
    }

    /** The next frame the client sent (heartbeats are off in these tests). */
    private static MessageReader next(InputStream in) throws IOException {
        MessageReader frame = MessageReader.readFrame(in, RegistryProtocol.MAX_CLIENT_FRAME);
        if (frame == null) {
            throw new IOException("the client closed the connection");
        }
        return frame;
    }
}
