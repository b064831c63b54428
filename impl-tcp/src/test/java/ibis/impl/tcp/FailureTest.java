package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.ConnectionClosedException;
import ibis.ipl.Ibis;
import ibis.ipl.IbisProperties;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.ReceivePortConnectUpcall;
import ibis.ipl.ReceivePortIdentifier;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortDisconnectUpcall;
import ibis.ipl.SendPortIdentifier;
import ibis.ipl.WriteMessage;
import ibis.ipl.impl.ImplPropertyTable;
import ibis.ipl.impl.MemberIdentifier;
import ibis.testsupport.PoolFixture;
import ibis.testsupport.Waits;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.annotations.Test;

/** Broken connections, dead peers and hostile bytes. */
public class FailureTest {

    /** Records lost connections of a receive port. */
    private static final class LostRecorder implements ReceivePortConnectUpcall {
        final List<SendPortIdentifier> origins = new ArrayList<>();
        final List<Throwable> causes = new ArrayList<>();
        final CountDownLatch lost = new CountDownLatch(1);

        @Override
        public boolean gotConnection(ReceivePort receiver, SendPortIdentifier applicant) {
            return true;
        }

        @Override
        public synchronized void lostConnection(ReceivePort receiver, SendPortIdentifier origin, Throwable cause) {
            origins.add(origin);
            causes.add(cause);
            lost.countDown();
        }
    }

    private static void send(SendPort sp, int value) throws IOException {
        WriteMessage w = sp.newMessage();
        w.writeInt(value);
        w.finish();
    }

    @Test(timeOut = 120_000)
    public void multicastKeepsDeliveringToTheOthersWhenOneReceiverEnds() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Ibis senderIbis = pool.create(PortTypes.ONE_TO_MANY);
            List<Ibis> receivers = new ArrayList<>();
            List<ReceivePort> ports = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Ibis r = pool.create(PortTypes.ONE_TO_MANY);
                ReceivePort rp = r.createReceivePort(PortTypes.ONE_TO_MANY, "in");
                rp.enableConnections();
                receivers.add(r);
                ports.add(rp);
            }
            List<ReceivePortIdentifier> lostUpcalls = new ArrayList<>();
            List<Throwable> lostCauses = new ArrayList<>();
            SendPortDisconnectUpcall upcall = (origin, receiver, cause) -> {
                synchronized (lostUpcalls) {
                    lostUpcalls.add(receiver);
                    lostCauses.add(cause);
                }
            };
            SendPort sp = senderIbis.createSendPort(PortTypes.ONE_TO_MANY, "multicast", upcall, null);
            for (ReceivePort rp : ports) {
                sp.connect(rp.identifier());
            }
            // Receivers 0 and 1 read everything up to the end marker -1.
            List<List<Integer>> got = new ArrayList<>();
            List<Thread> readers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                List<Integer> values = new ArrayList<>();
                got.add(values);
                ReceivePort rp = ports.get(i);
                Thread t = new Thread(() -> {
                    try {
                        while (true) {
                            ReadMessage r = rp.receive();
                            int v = r.readInt();
                            r.finish();
                            if (v < 0) {
                                return;
                            }
                            values.add(v);
                        }
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                });
                readers.add(t);
                t.start();
            }
            // Receiver 2 reads ten messages, then its Ibis ends.
            CountDownLatch thirdEnded = new CountDownLatch(1);
            Thread third = new Thread(() -> {
                try {
                    for (int i = 0; i < 10; i++) {
                        ReadMessage r = ports.get(2).receive();
                        r.readInt();
                        r.finish();
                    }
                    receivers.get(2).end();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
                thirdEnded.countDown();
            });
            third.start();

            int sent = 0;
            for (; sent < 10; sent++) {
                send(sp, sent);
            }
            assertTrue(thirdEnded.await(30, TimeUnit.SECONDS));
            ConnectionClosedException failure = null;
            while (failure == null && sent < 100_000) {
                WriteMessage w = sp.newMessage();
                w.writeInt(sent++);
                try {
                    w.finish();
                } catch (ConnectionClosedException e) {
                    failure = e; // the message still went to the other two
                }
            }
            assertNotNull(failure, "finish() never reported the lost receiver");
            assertTrue(failure.getMessage().contains(ports.get(2).identifier().toString()), failure.getMessage());
            for (int i = 0; i < 20; i++) {
                send(sp, sent++);
            }
            send(sp, -1);
            for (Thread t : readers) {
                t.join();
            }
            for (List<Integer> values : got) {
                assertEquals(values.size(), sent, "a surviving receiver missed messages");
                for (int i = 0; i < sent; i++) {
                    assertEquals(values.get(i).intValue(), i);
                }
            }
            synchronized (lostUpcalls) {
                assertEquals(lostUpcalls, List.of(ports.get(2).identifier()));
                assertNotNull(lostCauses.get(0));
            }
            assertEquals(sp.lostConnections(), new ReceivePortIdentifier[] {ports.get(2).identifier()});
            assertEquals(sp.connectedTo().length, 2);
        }
    }

    @Test(timeOut = 60_000)
    public void aLostSenderGivesConnectionClosedToABlockedReceiveAndALostConnectionUpcall() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Ibis senderIbis = pool.create(PortTypes.ONE_TO_ONE);
            Ibis receiverIbis = pool.create(PortTypes.ONE_TO_ONE);
            LostRecorder recorder = new LostRecorder();
            ReceivePort rp = receiverIbis.createReceivePort(PortTypes.ONE_TO_ONE, "in", recorder);
            rp.enableConnections();
            SendPort sp = senderIbis.createSendPort(PortTypes.ONE_TO_ONE);
            sp.connect(rp.identifier());
            send(sp, 1);
            ReadMessage first = rp.receive();
            assertEquals(first.readInt(), 1);
            first.finish();
            AtomicReference<Throwable> receiveResult = new AtomicReference<>();
            Thread blocked = new Thread(() -> {
                try {
                    rp.receive();
                    receiveResult.set(new AssertionError("receive() returned a message"));
                } catch (Throwable t) {
                    receiveResult.set(t);
                }
            });
            blocked.start();
            ((TcpIbis) senderIbis).endAbruptly(); // sockets break without a CLOSE message
            blocked.join();
            assertTrue(receiveResult.get() instanceof ConnectionClosedException, String.valueOf(receiveResult.get()));
            assertTrue(recorder.lost.await(30, TimeUnit.SECONDS));
            synchronized (recorder) {
                assertEquals(recorder.origins, List.of(sp.identifier()));
                assertNotNull(recorder.causes.get(0), "a broken connection must have a cause");
            }
            assertEquals(rp.lostConnections(), new SendPortIdentifier[] {sp.identifier()});
            assertEquals(rp.connectedTo().length, 0);
        }
    }

    @Test(timeOut = 60_000)
    public void readingAMessageWhoseSenderDiedGivesConnectionClosed() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Ibis senderIbis = pool.create(PortTypes.ONE_TO_ONE);
            Ibis receiverIbis = pool.create(PortTypes.ONE_TO_ONE);
            LostRecorder recorder = new LostRecorder();
            ReceivePort rp = receiverIbis.createReceivePort(PortTypes.ONE_TO_ONE, "in", recorder);
            rp.enableConnections();
            SendPort sp = senderIbis.createSendPort(PortTypes.ONE_TO_ONE);
            sp.connect(rp.identifier());
            WriteMessage w = sp.newMessage();
            w.writeInt(1234);
            w.flush(); // the first part is on its way; the message is never finished
            ReadMessage r = rp.receive();
            assertEquals(r.readInt(), 1234);
            ((TcpIbis) senderIbis).endAbruptly();
            ConnectionClosedException e = expectThrows(ConnectionClosedException.class, r::readInt);
            assertTrue(e.getMessage().contains(sp.identifier().toString()), e.getMessage());
            r.finish(new IOException("the test gives up on this message"));
            assertTrue(recorder.lost.await(30, TimeUnit.SECONDS));
            synchronized (recorder) {
                assertNotNull(recorder.causes.get(0));
            }
            // A read past the end of an intact message is not mistaken for a lost connection.
            Ibis again = pool.create(PortTypes.ONE_TO_ONE);
            SendPort sp2 = again.createSendPort(PortTypes.ONE_TO_ONE);
            sp2.connect(rp.identifier());
            send(sp2, 1);
            ReadMessage ok = rp.receive();
            assertEquals(ok.readInt(), 1);
            IOException past = expectThrows(IOException.class, ok::readInt);
            assertTrue(!(past instanceof ConnectionClosedException), "reading past the end is not a lost connection");
            ok.finish();
        }
    }

    @Test(timeOut = 60_000)
    public void anIdleExplicitPortNoticesRegularAndBrokenDisconnectsWithoutReceiving() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Properties fast = pool.properties();
            fast.setProperty(ImplPropertyTable.IDLE_CHECK_MILLIS, "50");
            Ibis receiverIbis = pool.create(fast, new ibis.ipl.IbisCapabilities(), null, PortTypes.ONE_TO_ONE);
            Ibis senderIbis = pool.create(PortTypes.ONE_TO_ONE);
            LostRecorder regular = new LostRecorder();
            ReceivePort rp = receiverIbis.createReceivePort(PortTypes.ONE_TO_ONE, "regular", regular);
            rp.enableConnections();
            SendPort sp = senderIbis.createSendPort(PortTypes.ONE_TO_ONE);
            sp.connect(rp.identifier());
            send(sp, 1);
            ReadMessage r = rp.receive();
            assertEquals(r.readInt(), 1);
            r.finish();
            sp.close(); // nobody calls receive() on rp any more
            assertTrue(regular.lost.await(30, TimeUnit.SECONDS), "the regular disconnect was never noticed");
            synchronized (regular) {
                assertNull(regular.causes.get(0));
            }

            LostRecorder broken = new LostRecorder();
            ReceivePort rp2 = receiverIbis.createReceivePort(PortTypes.ONE_TO_ONE, "broken", broken);
            rp2.enableConnections();
            SendPort sp2 = senderIbis.createSendPort(PortTypes.ONE_TO_ONE);
            sp2.connect(rp2.identifier());
            send(sp2, 2); // stays unread while the idle check looks at the connection
            ((TcpIbis) senderIbis).endAbruptly();
            ReadMessage kept = rp2.receive();
            assertEquals(kept.readInt(), 2, "a message read ahead by the idle check must not be lost");
            kept.finish();
            assertTrue(broken.lost.await(30, TimeUnit.SECONDS), "the broken connection was never noticed");
            synchronized (broken) {
                assertNotNull(broken.causes.get(0));
            }
        }
    }

    @Test(timeOut = 60_000)
    public void anUpcallPortReportsALostSender() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Ibis senderIbis = pool.create(PortTypes.MANY_TO_ONE_UPCALLS);
            Ibis receiverIbis = pool.create(PortTypes.MANY_TO_ONE_UPCALLS);
            LostRecorder recorder = new LostRecorder();
            CountDownLatch got = new CountDownLatch(1);
            ReceivePort rp = receiverIbis.createReceivePort(PortTypes.MANY_TO_ONE_UPCALLS, "in", m -> got.countDown(),
                    recorder, null);
            rp.enableConnections();
            rp.enableMessageUpcalls();
            SendPort sp = senderIbis.createSendPort(PortTypes.MANY_TO_ONE_UPCALLS);
            sp.connect(rp.identifier());
            send(sp, 1);
            assertTrue(got.await(30, TimeUnit.SECONDS));
            ((TcpIbis) senderIbis).endAbruptly();
            assertTrue(recorder.lost.await(30, TimeUnit.SECONDS));
            synchronized (recorder) {
                assertEquals(recorder.origins, List.of(sp.identifier()));
                assertNotNull(recorder.causes.get(0));
            }
        }
    }

    @Test(timeOut = 60_000)
    public void aRegularCloseIsReportedWithoutCause() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Ibis senderIbis = pool.create(PortTypes.MANY_TO_ONE_UPCALLS);
            Ibis receiverIbis = pool.create(PortTypes.MANY_TO_ONE_UPCALLS);
            LostRecorder recorder = new LostRecorder();
            CountDownLatch got = new CountDownLatch(3);
            ReceivePort rp = receiverIbis.createReceivePort(PortTypes.MANY_TO_ONE_UPCALLS, "in", m -> got.countDown(),
                    recorder, null);
            rp.enableConnections();
            rp.enableMessageUpcalls();
            SendPort sp = senderIbis.createSendPort(PortTypes.MANY_TO_ONE_UPCALLS);
            sp.connect(rp.identifier());
            for (int i = 0; i < 3; i++) {
                send(sp, i);
            }
            sp.close();
            assertTrue(got.await(30, TimeUnit.SECONDS), "messages sent before close() were lost");
            assertTrue(recorder.lost.await(30, TimeUnit.SECONDS));
            synchronized (recorder) {
                assertEquals(recorder.origins, List.of(sp.identifier()));
                assertNull(recorder.causes.get(0), "a regular close has no cause");
            }
            assertEquals(rp.lostConnections(), new SendPortIdentifier[] {sp.identifier()},
                    "lostConnections() lists senders that closed as well");
        }
    }

    @Test(timeOut = 60_000)
    public void aOneToOneSenderLearnsThatItsReceiverIsGone() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Ibis senderIbis = pool.create(PortTypes.ONE_TO_ONE);
            Ibis receiverIbis = pool.create(PortTypes.ONE_TO_ONE);
            ReceivePort rp = receiverIbis.createReceivePort(PortTypes.ONE_TO_ONE, "in");
            rp.enableConnections();
            SendPort sp = senderIbis.createSendPort(PortTypes.ONE_TO_ONE);
            sp.connect(rp.identifier());
            send(sp, 1);
            rp.close(-1);
            ConnectionClosedException failure = null;
            for (int i = 0; i < 100_000 && failure == null; i++) {
                try {
                    send(sp, i);
                } catch (ConnectionClosedException e) {
                    failure = e;
                }
            }
            assertNotNull(failure);
            assertTrue(failure.getMessage().contains("no connection is left"), failure.getMessage());
            assertEquals(sp.connectedTo().length, 0);
            IOException e = expectThrows(IOException.class, sp::newMessage);
            assertTrue(e.getMessage().contains("not connected"), e.getMessage());
        }
    }

    @Test(timeOut = 60_000)
    public void closingAReceivePortFailsABlockedReceive() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Ibis ibis = pool.create(PortTypes.ONE_TO_ONE, PortTypes.MANY_TO_ONE_EXPLICIT);
            for (ibis.ipl.PortType type : new ibis.ipl.PortType[] {PortTypes.ONE_TO_ONE,
                    PortTypes.MANY_TO_ONE_EXPLICIT}) {
                ReceivePort rp = ibis.createReceivePort(type, "in-" + type.hashCode());
                rp.enableConnections();
                SendPort sp = ibis.createSendPort(type);
                sp.connect(rp.identifier());
                AtomicReference<Throwable> result = new AtomicReference<>();
                Thread blocked = new Thread(() -> {
                    try {
                        rp.receive();
                    } catch (Throwable t) {
                        result.set(t);
                    }
                });
                blocked.start();
                // a socket read, a wait on the port or in its wait set
                Waits.untilStack(blocked, "into a wait", true,
                        stack -> Waits.inMethod(stack, "awaitData", "waitLocked", "await"));
                rp.close(-1);
                blocked.join();
                assertTrue(result.get() instanceof ConnectionClosedException, String.valueOf(result.get()));
            }
        }
    }

    @Test(timeOut = 60_000)
    public void garbageOnTheListeningPortDoesNotStopTheIbis() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Properties p = pool.properties();
            p.setProperty(ImplPropertyTable.HANDSHAKE_TIMEOUT, "500");
            Ibis target = pool.create(p, new ibis.ipl.IbisCapabilities(), null, PortTypes.ONE_TO_ONE);
            Ibis other = pool.create(PortTypes.ONE_TO_ONE);
            ReceivePort rp = target.createReceivePort(PortTypes.ONE_TO_ONE, "in");
            rp.enableConnections();
            InetSocketAddress address = TcpContactData.parse(
                    ((MemberIdentifier) target.identifier()).implementationData()).address();
            assertTrue(address.getAddress().isLoopbackAddress(), "tests listen on the loopback only: " + address);

            Random random = new Random(7);
            List<byte[]> attacks = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                byte[] junk = new byte[1 + random.nextInt(3000)];
                random.nextBytes(junk);
                attacks.add(junk);
            }
            // A correct magic number and version with an absurd body length.
            attacks.add(ByteBuffer.allocate(9).putInt(0x49425351).put((byte) 1).putInt(Integer.MAX_VALUE).array());
            // A plausible header whose body is random.
            byte[] body = new byte[64];
            random.nextBytes(body);
            attacks.add(ByteBuffer.allocate(9 + 64).putInt(0x49425351).put((byte) 1).putInt(64).put(body).array());
            // A truncated request: the header promises more than is sent before the socket closes.
            attacks.add(ByteBuffer.allocate(9 + 10).putInt(0x49425351).put((byte) 1).putInt(100).array());
            attacks.add(new byte[0]);

            for (byte[] attack : attacks) {
                try (Socket s = new Socket()) {
                    s.connect(address, 10_000);
                    s.setSoTimeout(20_000);
                    OutputStream out = s.getOutputStream();
                    out.write(attack);
                    out.flush();
                    s.shutdownOutput();
                    assertClosedByPeer(s.getInputStream());
                }
            }
            // A peer that connects and says nothing is dropped after the handshake time-out.
            try (Socket silent = new Socket()) {
                silent.connect(address, 10_000);
                silent.setSoTimeout(20_000);
                assertClosedByPeer(silent.getInputStream());
            }

            SendPort sp = other.createSendPort(PortTypes.ONE_TO_ONE);
            sp.connect(rp.identifier());
            send(sp, 99);
            ReadMessage r = rp.receive();
            assertEquals(r.readInt(), 99);
            r.finish();
        }
    }

    @Test(timeOut = 60_000)
    public void aFloodOfSilentConnectionsIsCutOffAtTheHandshakeLimit() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Properties p = pool.properties();
            p.setProperty(ImplPropertyTable.HANDSHAKE_MAX, "2");
            p.setProperty(ImplPropertyTable.HANDSHAKE_TIMEOUT, "120000"); // silent peers would be kept long
            Ibis target = pool.create(p, new ibis.ipl.IbisCapabilities(), null, PortTypes.ONE_TO_ONE);
            Ibis other = pool.create(PortTypes.ONE_TO_ONE);
            ReceivePort rp = target.createReceivePort(PortTypes.ONE_TO_ONE, "in");
            rp.enableConnections();
            InetSocketAddress address = TcpContactData.parse(
                    ((MemberIdentifier) target.identifier()).implementationData()).address();
            List<Socket> silent = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    Socket s = new Socket();
                    s.connect(address, 10_000);
                    silent.add(s);
                }
                // Both handshakes must be in progress before the third arrives: a byte each, then silence.
                for (Socket s : silent) {
                    s.getOutputStream().write(0x49);
                    s.getOutputStream().flush();
                }
                try (Socket third = new Socket()) {
                    third.connect(address, 10_000);
                    third.setSoTimeout(20_000); // far below the handshake time-out: only the limit closes it
                    assertEquals(third.getInputStream().read(), -1, "the connection over the limit stays open");
                }
            } finally {
                for (Socket s : silent) {
                    s.close();
                }
            }
            SendPort sp = other.createSendPort(PortTypes.ONE_TO_ONE);
            sp.connect(rp.identifier()); // retried while the dropped handshakes are being cleaned up
            send(sp, 5);
            ReadMessage r = rp.receive();
            assertEquals(r.readInt(), 5);
            r.finish();
        }
    }

    /** The peer closes the connection: end of stream or a reset, possibly after a short reply. */
    private static void assertClosedByPeer(InputStream in) throws IOException {
        byte[] buffer = new byte[4096];
        int total = 0;
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                total += n;
                assertTrue(total < 100_000, "the Ibis keeps talking to a garbage peer");
            }
        } catch (java.net.SocketException e) {
            // connection reset: closed as well
        }
    }

    @Test(timeOut = 60_000)
    public void anIbisListensWhereTheRegistryCanBeReached() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Ibis ibis = pool.create(PortTypes.ONE_TO_ONE);
            InetSocketAddress address = TcpContactData.parse(
                    ((MemberIdentifier) ibis.identifier()).implementationData()).address();
            assertTrue(address.getAddress().isLoopbackAddress());
            assertTrue(address.getPort() > 0);
            assertEquals(ibis.properties().getProperty(IbisProperties.IMPLEMENTATION), "tcp");
            assertTrue(ibis.getVersion().contains("tcp"), ibis.getVersion());
        }
    }
}
