package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.Ibis;
import ibis.ipl.MessageUpcall;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.ReceiveTimedOutException;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortIdentifier;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PoolFixture;
import ibis.testsupport.Waits;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/** The message rules of the IPL: one live message per port, upcall threading, order, numbering, interrupts. */
public class MessageSemanticsTest {

    private PoolFixture pool;
    private Ibis a;
    private Ibis b;
    private int names;

    @BeforeClass
    public void start() throws Exception {
        pool = new PoolFixture("tcp");
        a = pool.create(PortTypes.ONE_TO_ONE, PortTypes.MANY_TO_ONE_UPCALLS, PortTypes.MANY_TO_ONE_EXPLICIT,
                PortTypes.NUMBERED, PortTypes.ONE_TO_MANY);
        b = pool.create(PortTypes.ONE_TO_ONE, PortTypes.MANY_TO_ONE_UPCALLS, PortTypes.MANY_TO_ONE_EXPLICIT,
                PortTypes.NUMBERED, PortTypes.ONE_TO_MANY);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (pool != null) {
            pool.close();
        }
    }

    private synchronized String fresh(String base) {
        return base + "-" + (++names);
    }

    private static void send(SendPort sp, int value) throws IOException {
        WriteMessage w = sp.newMessage();
        w.writeInt(value);
        w.finish();
    }

    @Test(timeOut = 60_000)
    public void newMessageBlocksWhileAnotherMessageOfThePortIsLive() throws Exception {
        ReceivePort rp = b.createReceivePort(PortTypes.ONE_TO_ONE, fresh("in"));
        rp.enableConnections();
        SendPort sp = a.createSendPort(PortTypes.ONE_TO_ONE);
        sp.connect(rp.identifier());
        WriteMessage first = sp.newMessage();
        first.writeInt(1);
        AtomicBoolean firstFinished = new AtomicBoolean();
        AtomicReference<Boolean> sawFinished = new AtomicReference<>();
        Thread second = new Thread(() -> {
            try {
                WriteMessage w = sp.newMessage();
                sawFinished.set(firstFinished.get());
                w.writeInt(2);
                w.finish();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }, "second-writer");
        second.start();
        Waits.untilBlocked(second);
        firstFinished.set(true);
        first.finish();
        second.join();
        assertEquals(sawFinished.get(), Boolean.TRUE, "the second newMessage returned before the first finish");
        for (int expected = 1; expected <= 2; expected++) {
            ReadMessage r = rp.receive();
            assertEquals(r.readInt(), expected);
            r.finish();
        }
        expectThrows(IOException.class, () -> first.writeInt(3));
    }

    @Test(timeOut = 60_000)
    public void receiveBlocksWhileAnotherMessageOfThePortIsLive() throws Exception {
        ReceivePort rp = b.createReceivePort(PortTypes.MANY_TO_ONE_EXPLICIT, fresh("in"));
        rp.enableConnections();
        SendPort s1 = a.createSendPort(PortTypes.MANY_TO_ONE_EXPLICIT);
        SendPort s2 = b.createSendPort(PortTypes.MANY_TO_ONE_EXPLICIT);
        s1.connect(rp.identifier());
        s2.connect(rp.identifier());
        send(s1, 1);
        send(s2, 2);
        ReadMessage first = rp.receive();
        AtomicBoolean firstFinished = new AtomicBoolean();
        AtomicReference<Boolean> sawFinished = new AtomicReference<>();
        Thread second = new Thread(() -> {
            try {
                ReadMessage r = rp.receive();
                sawFinished.set(firstFinished.get());
                r.finish();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }, "second-reader");
        second.start();
        Waits.untilBlocked(second);
        firstFinished.set(true);
        first.finish();
        second.join();
        assertEquals(sawFinished.get(), Boolean.TRUE, "two read messages of one port were live at once");
    }

    @Test(timeOut = 60_000)
    public void atMostOneUpcallRunsAtATimeAcrossManySenders() throws Exception {
        int senders = 4;
        int perSender = 500;
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        AtomicInteger delivered = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(senders * perSender);
        ReceivePort rp = b.createReceivePort(PortTypes.MANY_TO_ONE_UPCALLS, fresh("up"), m -> {
            int now = running.incrementAndGet();
            maxRunning.accumulateAndGet(now, Math::max);
            m.readInt();
            for (int i = 0; i < 100; i++) {
                Thread.yield(); // give other deliveries a chance to overlap if they could
            }
            running.decrementAndGet();
            delivered.incrementAndGet();
            all.countDown();
        });
        rp.enableConnections();
        rp.enableMessageUpcalls();
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            Ibis from = s % 2 == 0 ? a : b;
            SendPort sp = from.createSendPort(PortTypes.MANY_TO_ONE_UPCALLS);
            sp.connect(rp.identifier());
            Thread t = new Thread(() -> {
                try {
                    for (int i = 0; i < perSender; i++) {
                        send(sp, i);
                    }
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(all.await(60, TimeUnit.SECONDS));
        assertEquals(delivered.get(), senders * perSender);
        assertEquals(maxRunning.get(), 1, "two upcalls of one port ran at the same time");
    }

    @Test(timeOut = 60_000)
    public void finishInAnUpcallLetsTheNextMessageBeDeliveredWhileTheUpcallStillRuns() throws Exception {
        CountDownLatch secondDelivered = new CountDownLatch(1);
        CountDownLatch thirdDelivered = new CountDownLatch(1);
        CountDownLatch firstDone = new CountDownLatch(1);
        AtomicBoolean firstSawSecond = new AtomicBoolean();
        ReceivePort rp = b.createReceivePort(PortTypes.MANY_TO_ONE_UPCALLS, fresh("up"), m -> {
            int value = m.readInt();
            if (value == 1) {
                m.finish();
                try {
                    // Blocks until message 2 was delivered: only possible if finish() released the port.
                    firstSawSecond.set(secondDelivered.await(30, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                firstDone.countDown();
            } else if (value == 2) {
                secondDelivered.countDown();
            } else {
                thirdDelivered.countDown();
            }
        });
        rp.enableConnections();
        rp.enableMessageUpcalls();
        SendPort sp = a.createSendPort(PortTypes.MANY_TO_ONE_UPCALLS);
        sp.connect(rp.identifier());
        send(sp, 1);
        send(sp, 2);
        assertTrue(firstDone.await(30, TimeUnit.SECONDS));
        assertTrue(firstSawSecond.get(), "message 2 was not delivered while the first upcall was blocked");
        send(sp, 3);
        assertTrue(thirdDelivered.await(30, TimeUnit.SECONDS), "the connection stopped after the hand-off");
    }

    @Test(timeOut = 60_000)
    public void anUpcallThatReturnsWithoutFinishIsFinishedForIt() throws Exception {
        int count = 200;
        List<Integer> got = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(count);
        ReceivePort rp = b.createReceivePort(PortTypes.MANY_TO_ONE_UPCALLS, fresh("up"), m -> {
            synchronized (got) {
                got.add(m.readInt()); // the second int is never read, and finish() is not called
            }
            done.countDown();
        });
        rp.enableConnections();
        rp.enableMessageUpcalls();
        SendPort sp = a.createSendPort(PortTypes.MANY_TO_ONE_UPCALLS);
        sp.connect(rp.identifier());
        for (int i = 0; i < count; i++) {
            WriteMessage w = sp.newMessage();
            w.writeInt(i);
            w.writeInt(-1);
            w.writeArray(new byte[1000]);
            w.finish();
        }
        assertTrue(done.await(30, TimeUnit.SECONDS));
        synchronized (got) {
            for (int i = 0; i < count; i++) {
                assertEquals(got.get(i).intValue(), i);
            }
        }
    }

    @Test(timeOut = 60_000)
    public void anUpcallThatThrowsDoesNotStopTheConnection() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        ReceivePort rp = b.createReceivePort(PortTypes.MANY_TO_ONE_UPCALLS, fresh("up"), m -> {
            int v = m.readInt();
            calls.incrementAndGet();
            if (v == 1) {
                throw new IllegalStateException("application bug in the upcall (expected by the test)");
            }
            if (v == 2) {
                throw new IOException("application read failure (expected by the test)");
            }
            done.countDown();
        });
        rp.enableConnections();
        rp.enableMessageUpcalls();
        SendPort sp = a.createSendPort(PortTypes.MANY_TO_ONE_UPCALLS);
        sp.connect(rp.identifier());
        send(sp, 1);
        send(sp, 2);
        send(sp, 3);
        assertTrue(done.await(30, TimeUnit.SECONDS));
        assertEquals(calls.get(), 3);
        assertEquals(rp.connectedTo().length, 1);
    }

    @Test(timeOut = 60_000)
    public void upcallsStartOnlyAfterEnableMessageUpcalls() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(2);
        CountDownLatch third = new CountDownLatch(3);
        ReceivePort rp = b.createReceivePort(PortTypes.MANY_TO_ONE_UPCALLS, fresh("up"), m -> {
            calls.incrementAndGet();
            done.countDown();
            third.countDown();
        });
        rp.enableConnections();
        SendPort sp = a.createSendPort(PortTypes.MANY_TO_ONE_UPCALLS);
        sp.connect(rp.identifier());
        send(sp, 1);
        send(sp, 2);
        assertEquals(calls.get(), 0, "an upcall was made before enableMessageUpcalls()");
        rp.enableMessageUpcalls();
        assertTrue(done.await(30, TimeUnit.SECONDS));
        assertEquals(calls.get(), 2);
        rp.disableMessageUpcalls();
        send(sp, 3);
        assertEquals(calls.get(), 2, "an upcall was made while upcalls were disabled");
        rp.enableMessageUpcalls();
        assertTrue(third.await(30, TimeUnit.SECONDS), "the kept message was not delivered after re-enabling");
    }

    @Test(timeOut = 60_000)
    public void upcallsAndExplicitReceiptDeliverTheSameMessages() throws Exception {
        List<Integer> upcalled = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(100);
        MessageUpcall upcall = m -> {
            synchronized (upcalled) {
                upcalled.add(m.readInt());
            }
            done.countDown();
        };
        ReceivePort viaUpcall = b.createReceivePort(PortTypes.MANY_TO_ONE_UPCALLS, fresh("up"), upcall);
        viaUpcall.enableConnections();
        viaUpcall.enableMessageUpcalls();
        ReceivePort explicit = b.createReceivePort(PortTypes.MANY_TO_ONE_EXPLICIT, fresh("ex"));
        explicit.enableConnections();
        SendPort s1 = a.createSendPort(PortTypes.MANY_TO_ONE_UPCALLS);
        s1.connect(viaUpcall.identifier());
        SendPort s2 = a.createSendPort(PortTypes.MANY_TO_ONE_EXPLICIT);
        s2.connect(explicit.identifier());
        for (int i = 0; i < 100; i++) {
            send(s1, i);
            send(s2, i);
        }
        assertTrue(done.await(30, TimeUnit.SECONDS));
        for (int i = 0; i < 100; i++) {
            ReadMessage r = explicit.receive();
            assertEquals(r.readInt(), i);
            assertEquals(r.origin(), s2.identifier());
            r.finish();
            synchronized (upcalled) {
                assertEquals(upcalled.get(i).intValue(), i);
            }
        }
        expectThrows(ibis.ipl.IbisConfigurationException.class, viaUpcall::receive);
    }

    @Test(timeOut = 60_000)
    public void pollUpcallsRunInTheThreadThatPolls() throws Exception {
        ibis.ipl.PortType pollType = new ibis.ipl.PortType(ibis.ipl.PortType.CONNECTION_MANY_TO_ONE,
                ibis.ipl.PortType.SERIALIZATION_DATA, ibis.ipl.PortType.RECEIVE_POLL_UPCALLS,
                ibis.ipl.PortType.RECEIVE_POLL);
        try (PoolFixture own = new PoolFixture("tcp")) {
            Ibis r = own.create(pollType);
            Ibis s = own.create(pollType);
            List<Thread> threads = new ArrayList<>();
            List<Integer> values = new ArrayList<>();
            ReceivePort rp = r.createReceivePort(pollType, "in", m -> {
                values.add(m.readInt());
                threads.add(Thread.currentThread());
                if (values.size() == 2) {
                    m.finish(); // allowed in a poll upcall too
                }
            });
            rp.enableConnections();
            rp.enableMessageUpcalls();
            SendPort sp = s.createSendPort(pollType);
            sp.connect(rp.identifier());
            for (int i = 1; i <= 3; i++) {
                send(sp, i);
            }
            while (values.size() < 2) {
                r.poll(); // Ibis.poll()
            }
            while (values.size() < 3) {
                assertNull(rp.poll()); // ReceivePort.poll() delivers to the upcall and returns null
            }
            assertEquals(values, List.of(1, 2, 3));
            expectThrows(ibis.ipl.IbisConfigurationException.class, rp::receive);
            // Closing delivers what is still on its way (nobody else reads a poll-upcall port).
            send(sp, 4);
            sp.close();
            rp.close();
            assertEquals(values, List.of(1, 2, 3, 4));
            for (Thread t : threads) {
                assertTrue(t == Thread.currentThread(), "a poll upcall ran in " + t.getName());
            }
        }
    }

    @Test(timeOut = 120_000)
    public void messagesOfOneConnectionArriveInOrder() throws Exception {
        ReceivePort rp = b.createReceivePort(PortTypes.ONE_TO_ONE, fresh("fifo"));
        rp.enableConnections();
        SendPort sp = a.createSendPort(PortTypes.ONE_TO_ONE);
        sp.connect(rp.identifier());
        int count = 10_000;
        Thread writer = new Thread(() -> {
            try {
                for (int i = 0; i < count; i++) {
                    send(sp, i);
                }
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        writer.start();
        for (int i = 0; i < count; i++) {
            ReadMessage r = rp.receive();
            assertEquals(r.readInt(), i);
            r.finish();
        }
        writer.join();
    }

    @Test(timeOut = 60_000)
    public void numberedMessagesStartAtInitialSeqnoAndIncrease() throws Exception {
        ReceivePort rp = b.createReceivePort(PortTypes.NUMBERED, fresh("num"));
        rp.enableConnections();
        SendPort sp = a.createSendPort(PortTypes.NUMBERED);
        sp.connect(rp.identifier());
        for (int i = 0; i < 50; i++) {
            send(sp, i);
        }
        for (int i = 0; i < 50; i++) {
            ReadMessage r = rp.receive();
            assertEquals(r.sequenceNumber(), ReadMessage.INITIAL_SEQNO + i);
            assertEquals(r.readInt(), i);
            r.finish();
        }
        ReceivePort plain = b.createReceivePort(PortTypes.ONE_TO_ONE, fresh("plain"));
        plain.enableConnections();
        SendPort sp2 = a.createSendPort(PortTypes.ONE_TO_ONE);
        sp2.connect(plain.identifier());
        send(sp2, 1);
        ReadMessage r = plain.receive();
        expectThrows(ibis.ipl.IbisConfigurationException.class, r::sequenceNumber);
        r.finish();
    }

    @Test(timeOut = 60_000)
    public void receiveWithATimeoutThrowsReceiveTimedOut() throws Exception {
        ReceivePort rp = b.createReceivePort(PortTypes.ONE_TO_ONE, fresh("quiet"));
        rp.enableConnections();
        expectThrows(ReceiveTimedOutException.class, () -> rp.receive(100)); // no sender at all
        SendPort sp = a.createSendPort(PortTypes.ONE_TO_ONE);
        sp.connect(rp.identifier());
        expectThrows(ReceiveTimedOutException.class, () -> rp.receive(100)); // a silent sender
        send(sp, 7);
        ReadMessage r = rp.receive(30_000);
        assertEquals(r.readInt(), 7);
        r.finish();

        ReceivePort many = b.createReceivePort(PortTypes.MANY_TO_ONE_EXPLICIT, fresh("quiet-many"));
        many.enableConnections();
        expectThrows(ReceiveTimedOutException.class, () -> many.receive(100));
    }

    @Test(timeOut = 60_000)
    public void pollReturnsNullUntilAMessageArrives() throws Exception {
        for (ibis.ipl.PortType type : new ibis.ipl.PortType[] {PortTypes.ONE_TO_ONE, PortTypes.MANY_TO_ONE_EXPLICIT}) {
            ReceivePort rp = b.createReceivePort(type, fresh("poll"));
            rp.enableConnections();
            assertNull(rp.poll());
            SendPort sp = a.createSendPort(type);
            sp.connect(rp.identifier());
            assertNull(rp.poll());
            send(sp, 11);
            ReadMessage r;
            while ((r = rp.poll()) == null) {
                Thread.onSpinWait();
            }
            assertEquals(r.readInt(), 11);
            r.finish();
            assertNull(rp.poll());
        }
    }

    @Test(timeOut = 120_000)
    public void manyToOneWithFourSendersDeliversEveryByteInPerSenderOrder() throws Exception {
        ReceivePort rp = b.createReceivePort(PortTypes.MANY_TO_ONE_EXPLICIT, fresh("m2o"));
        rp.enableConnections();
        int senders = 4;
        int perSender = 300;
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            int id = s;
            SendPort sp = (s % 2 == 0 ? a : b).createSendPort(PortTypes.MANY_TO_ONE_EXPLICIT, "sender-" + fresh("s"));
            sp.connect(rp.identifier());
            Thread t = new Thread(() -> {
                try {
                    for (int i = 0; i < perSender; i++) {
                        WriteMessage w = sp.newMessage();
                        w.writeInt(id);
                        w.writeInt(i);
                        byte[] data = new byte[(i * 37) % 5000];
                        for (int k = 0; k < data.length; k++) {
                            data[k] = (byte) (id * 31 + i + k);
                        }
                        w.writeInt(data.length);
                        w.writeArray(data);
                        w.finish();
                    }
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            threads.add(t);
            t.start();
        }
        Map<Integer, Integer> next = new HashMap<>();
        Map<Integer, SendPortIdentifier> origins = new HashMap<>();
        for (int m = 0; m < senders * perSender; m++) {
            ReadMessage r = rp.receive();
            int id = r.readInt();
            int i = r.readInt();
            assertEquals(i, next.getOrDefault(id, 0).intValue(), "messages of sender " + id + " out of order");
            next.put(id, i + 1);
            SendPortIdentifier before = origins.putIfAbsent(id, r.origin());
            if (before != null) {
                assertEquals(r.origin(), before);
            }
            byte[] data = new byte[r.readInt()];
            r.readArray(data);
            for (int k = 0; k < data.length; k++) {
                if (data[k] != (byte) (id * 31 + i + k)) {
                    throw new AssertionError("byte " + k + " of message " + i + " of sender " + id + " differs");
                }
            }
            r.finish();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertFalse(rp.connectedTo().length != senders);
    }

    @Test(timeOut = 60_000)
    public void managementPropertiesCountMessagesAndBytes() throws Exception {
        ReceivePort rp = b.createReceivePort(PortTypes.ONE_TO_ONE, fresh("count"));
        rp.enableConnections();
        SendPort sp = a.createSendPort(PortTypes.ONE_TO_ONE);
        sp.connect(rp.identifier());
        long written = 0;
        for (int i = 0; i < 10; i++) {
            WriteMessage w = sp.newMessage();
            w.writeLong(i);
            written += w.finish();
        }
        long read = 0;
        for (int i = 0; i < 10; i++) {
            ReadMessage r = rp.receive();
            r.readLong();
            read += r.finish();
        }
        assertEquals(sp.getManagementProperty("messages"), "10");
        assertEquals(rp.getManagementProperty("messages"), "10");
        assertEquals(Long.parseLong(sp.getManagementProperty("bytes")), written);
        assertEquals(Long.parseLong(rp.getManagementProperty("bytes")), read);
        assertTrue(written >= 80, "at least the payload was counted: " + written);
        assertTrue(Long.parseLong(a.getManagementProperty("messages.sent")) >= 10);
        expectThrows(ibis.ipl.NoSuchPropertyException.class, () -> sp.getManagementProperty("nonsense"));
        expectThrows(ibis.ipl.NoSuchPropertyException.class, () -> sp.setManagementProperty("messages", "0"));
    }

    @Test(timeOut = 60_000)
    public void managementPropertiesAnswerToTheirIpl2Names() throws Exception {
        // Names that IPL 2.x's implementation base used, and programs of that time ask for.
        ReceivePort rp = b.createReceivePort(PortTypes.ONE_TO_ONE, fresh("count2x"));
        rp.enableConnections();
        SendPort sp = a.createSendPort(PortTypes.ONE_TO_ONE);
        sp.connect(rp.identifier());
        WriteMessage w = sp.newMessage();
        w.writeLong(7);
        long written = w.finish();
        ReadMessage r = rp.receive();
        r.readLong();
        long read = r.finish();
        assertEquals(sp.getManagementProperty("Messages"), "1");
        assertEquals(rp.getManagementProperty("Messages"), "1");
        assertEquals(Long.parseLong(sp.getManagementProperty("Bytes")), written);
        assertEquals(Long.parseLong(sp.getManagementProperty("MessageBytes")), written);
        assertEquals(Long.parseLong(rp.getManagementProperty("Bytes")), read);
        assertEquals(Long.parseLong(rp.getManagementProperty("MessageBytes")), read);
        assertEquals(sp.getManagementProperty("Connections"), "1");
        assertEquals(rp.getManagementProperty("Connections"), "1");
        for (String name : new String[] { "outgoingMessageCount", "bytesWritten", "bytesSent" }) {
            assertEquals(a.getManagementProperty(name), a.managementProperties().get(name), name);
            assertTrue(Long.parseLong(a.getManagementProperty(name)) >= 1, name);
        }
        for (String name : new String[] { "incomingMessageCount", "bytesReceived", "bytesRead" }) {
            assertTrue(Long.parseLong(b.getManagementProperty(name)) >= 1, name);
        }
        assertTrue(Long.parseLong(a.getManagementProperty("bytesSent")) >= written);
        assertTrue(Long.parseLong(b.getManagementProperty("bytesRead")) >= read);
    }
}
