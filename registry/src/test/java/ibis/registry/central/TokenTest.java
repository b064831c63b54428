package ibis.registry.central;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
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
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/**
 * {@code getToken} waits until a token is available: waiting calls are served first come, first
 * served; a waiter that leaves, dies, is interrupted or loses its server does not hang and does not
 * swallow a token.
 *
 * <p>No sleeping: a test knows a {@code getToken} call is waiting at the server because its request
 * was written ({@link CentralRegistryClient#awaitRequestsSent}) and a later round trip on the same
 * connection came back (the server handles one connection's requests in order), and it checks that
 * with {@link ibis.registry.server.CentralRegistryServer#waitingTokenRequests}.
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

    /**
     * Calls {@code member.getToken(name)} in another thread and returns once the server has queued
     * that call. When {@code supplied} is given, the call checks that it returned only after the
     * latch was counted down (that is, after addTokens was called).
     */
    private Future<String> waitingGetToken(RegistryClient member, String name, CountDownLatch supplied)
            throws Exception {
        CentralRegistryClient client = (CentralRegistryClient) member;
        long sent = Long.parseLong(client.getManagementProperty("requests.sent"));
        Future<String> token = threads.submit(() -> {
            String t = client.getToken(name);
            if (supplied != null) {
                assertEquals(supplied.getCount(), 0L, "getToken returned " + t + " before addTokens was called");
            }
            return t;
        });
        client.awaitRequestsSent(sent + 1); // the GET_TOKEN frame is written ...
        client.getSequenceNumber("sync"); // ... and the server handled it before answering this
        return token;
    }

    @Test(timeOut = 60_000)
    public void getTokenWaitsUntilAnotherMemberAddsTokens() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("wait", CAPS, null);
            RegistryClient b = f.join("wait", CAPS, null);
            CountDownLatch supplied = new CountDownLatch(1);
            Future<String> token = waitingGetToken(b, "work", supplied);
            assertEquals(f.server().waitingTokenRequests("wait"), 1, "the server holds b's getToken");
            assertFalse(token.isDone(), "getToken returned while no token exists");

            supplied.countDown();
            a.addTokens("work", 1);
            assertEquals(result(token), "work#0");
            assertEquals(f.server().waitingTokenRequests("wait"), 0);

            a.addTokens("work", 1);
            assertEquals(b.getToken("work"), "work#1", "with a token available getToken does not wait");
        }
    }

    @Test(timeOut = 60_000)
    public void waitingCallsAreServedFirstComeFirstServed() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("fifo", CAPS, null);
            RegistryClient b = f.join("fifo", CAPS, null);
            RegistryClient c = f.join("fifo", CAPS, null);
            CountDownLatch firstSupplied = new CountDownLatch(1);
            CountDownLatch restSupplied = new CountDownLatch(1);
            Future<String> first = waitingGetToken(b, "t", firstSupplied);
            Future<String> second = waitingGetToken(c, "t", restSupplied);
            Future<String> third = waitingGetToken(b, "t", restSupplied); // a second thread of b
            Future<String> otherName = waitingGetToken(c, "other", null);
            assertEquals(f.server().waitingTokenRequests("fifo"), 4);

            firstSupplied.countDown();
            a.addTokens("t", 1);
            assertEquals(result(first), "t#0", "the oldest waiter gets the first token");
            assertEquals(f.server().waitingTokenRequests("fifo"), 3, "the others still wait");
            assertFalse(second.isDone() || third.isDone());

            restSupplied.countDown();
            a.addTokens("t", 3);
            assertEquals(result(second), "t#1");
            assertEquals(result(third), "t#2");
            assertEquals(f.server().waitingTokenRequests("fifo"), 1, "tokens of one name do not serve another");
            assertEquals(a.getToken("t"), "t#3", "the spare token is there at once");

            a.addTokens("other", 1);
            assertEquals(result(otherName), "other#0");
            assertEquals(f.server().waitingTokenRequests("fifo"), 0);
        }
    }

    @Test(timeOut = 60_000)
    public void waiterGetsAnIOExceptionWhenTheServerGoesAway() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            f.join("gone", CAPS, null);
            RegistryClient b = f.join("gone", CAPS, null);
            Future<String> token = waitingGetToken(b, "t", null);
            f.server().close();
            ExecutionException e = expectThrows(ExecutionException.class, () -> result(token));
            assertTrue(e.getCause() instanceof IOException, e.getCause().toString());
            assertTrue(e.getCause().getMessage().contains("registry server"), e.getCause().getMessage());
            IOException later = expectThrows(IOException.class, () -> b.getToken("t"));
            assertTrue(later.getMessage().contains("registry server"), later.getMessage());
        }
    }

    @Test(timeOut = 60_000)
    public void waitersThatDieOrLeaveAreDroppedAndTakeNoToken() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("drop", CAPS, null);
            RegistryClient victim = f.join("drop", CAPS, null);
            RegistryClient leaver = f.join("drop", CAPS, null);
            RegistryClient patient = f.join("drop", CAPS, null);
            Future<String> dies = waitingGetToken(victim, "t", null);
            Future<String> leaves = waitingGetToken(leaver, "t", null);
            CountDownLatch supplied = new CountDownLatch(1);
            Future<String> served = waitingGetToken(patient, "t", supplied);
            assertEquals(f.server().waitingTokenRequests("drop"), 3);

            a.assumeDead(victim.identifier());
            ExecutionException died = expectThrows(ExecutionException.class, () -> result(dies));
            assertTrue(died.getCause() instanceof IOException && died.getCause().getMessage().contains("dead"),
                    died.getCause().toString());
            assertEquals(f.server().waitingTokenRequests("drop"), 2, "the dead member's call was dropped");

            leaver.leave();
            ExecutionException left = expectThrows(ExecutionException.class, () -> result(leaves));
            assertTrue(left.getCause() instanceof IOException && left.getCause().getMessage().contains("left"),
                    left.getCause().toString());
            assertEquals(f.server().waitingTokenRequests("drop"), 1, "the leaver's call was dropped");

            supplied.countDown();
            a.addTokens("t", 1);
            assertEquals(result(served), "t#0", "the first token goes to the remaining waiter, not to a gone one");
        }
    }

    @Test(timeOut = 60_000)
    public void interruptedGetTokenIsWithdrawnAndTheConnectionStaysUsable() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            RegistryClient a = f.join("interrupt", CAPS, null);
            CentralRegistryClient b = (CentralRegistryClient) f.join("interrupt", CAPS, null);
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            long sent = Long.parseLong(b.getManagementProperty("requests.sent"));
            Thread taker = new Thread(() -> {
                try {
                    outcome.set(new AssertionError("getToken returned " + b.getToken("t")));
                } catch (IOException e) {
                    outcome.set(e);
                }
            }, "token-taker");
            taker.setDaemon(true);
            taker.start();
            b.awaitRequestsSent(sent + 1);
            b.getSequenceNumber("sync");
            assertEquals(f.server().waitingTokenRequests("interrupt"), 1);

            taker.interrupt();
            taker.join();
            assertTrue(outcome.get() instanceof InterruptedIOException, String.valueOf(outcome.get()));
            b.getSequenceNumber("sync"); // the withdrawal, sent before, has been handled; b is still connected
            assertEquals(f.server().waitingTokenRequests("interrupt"), 0, "the interrupted call was withdrawn");
            a.addTokens("t", 1);
            assertEquals(a.getToken("t"), "t#0", "the withdrawn call took no token");
            assertEquals(b.getManagementProperty("connected"), "true");
        }
    }

    @Test(timeOut = 60_000)
    public void tokenHandedToAnInterruptedCallIsGivenBack() throws Exception {
        // A fake server lets the token answer cross the withdrawal deterministically.
        try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Properties p = new Properties();
            p.setProperty(IbisProperties.SERVER_ADDRESS, "127.0.0.1:" + fake.getLocalPort());
            p.setProperty(IbisProperties.POOL_NAME, "crossed");
            p.setProperty(RegistryProperties.HEARTBEAT_INTERVAL, "600000"); // no heartbeats during the test
            p.setProperty(RegistryProperties.HEARTBEAT_TIMEOUT, "1200000");
            Future<RegistryClient> joining = threads.submit(
                    () -> new CentralRegistryProvider().join(CAPS, null, p, "test", new byte[0], null));
            RegistryClient client = null;
            try (Socket s = fake.accept()) {
                s.setSoTimeout(30_000);
                DataInputStream in = new DataInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream();
                assertEquals(in.readInt(), RegistryProtocol.MAGIC);
                assertEquals(in.readByte(), RegistryProtocol.VERSION);
                assertEquals(next(in).type(), RegistryProtocol.JOIN);
                MemberIdentifier me = new MemberIdentifier("0", "crossed", new HierarchicalLocation("x"), null, "test",
                        new byte[0]);
                out.write(new byte[] {0x49, 0x42, 0x52, 0x47, RegistryProtocol.VERSION});
                out.write(new MessageBuilder(RegistryProtocol.WELCOME).writeMember(me).writeLong(0).writeByte(0)
                        .writeInt(1).writeMember(me).writeInt(0).frame());
                out.flush();
                client = joining.get();
                RegistryClient member = client;

                // 1. The token is handed out after the caller gave up: the client adds it back.
                int crossed = interruptWaitingGetToken(client, in, "t");
                out.write(new MessageBuilder(RegistryProtocol.REPLY).writeInt(crossed).writeString("t#0").frame());
                out.flush();
                MessageReader giveBack = next(in);
                assertEquals(giveBack.type(), RegistryProtocol.ADD_TOKENS);
                int giveBackId = giveBack.readInt();
                assertEquals(giveBack.readString(), "t");
                assertEquals(giveBack.readInt(), 1, "the one token goes back");
                giveBack.expectEnd();
                out.write(new MessageBuilder(RegistryProtocol.REPLY).writeInt(giveBackId).frame());

                // 2. The server withdrew the call in time and says so: the client ignores that answer.
                int withdrawn = interruptWaitingGetToken(client, in, "t");
                out.write(new MessageBuilder(RegistryProtocol.ERROR).writeInt(withdrawn).writeString("cancelled")
                        .frame());
                out.flush();

                // Neither answer to an abandoned request broke the connection.
                Future<Long> number = threads.submit(() -> member.getSequenceNumber("n"));
                MessageReader request = next(in);
                assertEquals(request.type(), RegistryProtocol.SEQUENCE_NUMBER);
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

    /** Starts a getToken on {@code client}, interrupts it once the fake server got it; returns its request id. */
    private int interruptWaitingGetToken(RegistryClient client, DataInputStream in, String name) throws Exception {
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread taker = new Thread(() -> {
            try {
                outcome.set(new AssertionError("getToken returned " + client.getToken(name)));
            } catch (IOException e) {
                outcome.set(e);
            }
        }, "token-taker");
        taker.setDaemon(true);
        taker.start();
        MessageReader get = next(in);
        assertEquals(get.type(), RegistryProtocol.GET_TOKEN);
        int id = get.readInt();
        assertEquals(get.readString(), name);
        taker.interrupt();
        taker.join();
        assertTrue(outcome.get() instanceof InterruptedIOException, String.valueOf(outcome.get()));
        MessageReader cancel = next(in);
        assertEquals(cancel.type(), RegistryProtocol.CANCEL_TOKEN);
        assertEquals(cancel.readInt(), id, "the withdrawal names the interrupted request");
        assertEquals(cancel.readString(), name);
        cancel.expectEnd();
        return id;
    }

    /**
     * The value of a background call. The bound only turns a call that would never return (a token
     * given to the wrong waiter) into a clear failure; a correct run needs a tiny fraction of it.
     */
    private static <T> T result(Future<T> call) throws Exception {
        return call.get(30, TimeUnit.SECONDS);
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
