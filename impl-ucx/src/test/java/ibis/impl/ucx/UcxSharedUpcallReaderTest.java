package ibis.impl.ucx;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import ibis.ipl.Ibis;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PoolFixture;
import ibis.testsupport.Waits;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.annotations.Test;

/**
 * A receive port with automatic upcalls over UCX reads all its connections with one thread
 * (the base's shared upcall reader, {@code UcxTransport.sharedUpcallReading()}): the upcalls of
 * several senders run on one thread, in order per sender; an upcall that calls {@code finish()}
 * and blocks hands the reading to another thread; the reading starts again for a connection that
 * comes after all others left; disabled upcalls hold the message until they are enabled.
 */
public class UcxSharedUpcallReaderTest {

    private static final PortType MANY_TO_ONE_UPCALLS = new PortType(PortType.CONNECTION_MANY_TO_ONE,
            PortType.SERIALIZATION_DATA, PortType.RECEIVE_AUTO_UPCALLS, PortType.COMMUNICATION_FIFO,
            PortType.COMMUNICATION_RELIABLE, PortType.CONNECTION_UPCALLS);

    /** Sends {@code count} messages (sender id, sequence number) from {@code port}. */
    private static void send(SendPort port, int sender, int first, int count) throws IOException {
        for (int i = first; i < first + count; i++) {
            WriteMessage w = port.newMessage();
            w.writeInt(sender);
            w.writeInt(i);
            w.finish();
        }
    }

    /** A receive port whose upcall reads a message of {@link #send} and counts it. */
    private static ReceivePort countingPort(Ibis ibis, String name, AtomicInteger delivered) throws IOException {
        return ibis.createReceivePort(MANY_TO_ONE_UPCALLS, name, m -> {
            m.readInt();
            m.readInt();
            delivered.incrementAndGet();
        });
    }

    @Test(timeOut = 60_000)
    public void upcallsOfManySendersRunOnOneThreadInOrderPerSender() throws Exception {
        int senders = 4;
        int perSender = 300;
        try (PoolFixture pool = new PoolFixture(UcxIbisStarter.NICKNAME)) {
            Ibis receiver = pool.create(MANY_TO_ONE_UPCALLS);
            int[] next = new int[senders];
            Set<Thread> upcallThreads = ConcurrentHashMap.newKeySet();
            AtomicReference<String> disorder = new AtomicReference<>();
            AtomicInteger delivered = new AtomicInteger();
            ReceivePort rp = receiver.createReceivePort(MANY_TO_ONE_UPCALLS, "shared", m -> {
                int sender = m.readInt();
                int i = m.readInt();
                upcallThreads.add(Thread.currentThread());
                if (next[sender] != i && disorder.get() == null) {
                    disorder.set("sender " + sender + ": message " + i + " where " + next[sender] + " was due");
                }
                next[sender] = i + 1;
                delivered.incrementAndGet();
            });
            rp.enableConnections();
            rp.enableMessageUpcalls();
            SendPort[] ports = new SendPort[senders];
            Thread[] threads = new Thread[senders];
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int s = 0; s < senders; s++) {
                ports[s] = pool.create(MANY_TO_ONE_UPCALLS).createSendPort(MANY_TO_ONE_UPCALLS);
                ports[s].connect(rp.identifier());
                int sender = s;
                threads[s] = new Thread(() -> {
                    try {
                        send(ports[sender], sender, 0, perSender);
                    } catch (Throwable t) {
                        failure.set(t);
                    }
                }, "sender-" + s);
            }
            for (Thread t : threads) {
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            assertNull(failure.get());
            Waits.until("every message delivered", () -> delivered.get() == senders * perSender);
            assertNull(disorder.get(), "messages of one sender arrive in order");
            for (int s = 0; s < senders; s++) {
                assertEquals(next[s], perSender, "every message of sender " + s);
            }
            assertEquals(upcallThreads.size(), 1, "one thread reads all connections: " + upcallThreads);
            for (SendPort p : ports) {
                p.close();
            }
            rp.close();
        }
    }

    @Test(timeOut = 60_000)
    public void anUpcallThatFinishesAndBlocksHandsTheReadingToAnotherThread() throws Exception {
        try (PoolFixture pool = new PoolFixture(UcxIbisStarter.NICKNAME)) {
            Ibis receiver = pool.create(MANY_TO_ONE_UPCALLS);
            CountDownLatch secondDelivered = new CountDownLatch(1);
            CountDownLatch firstReturned = new CountDownLatch(1);
            AtomicReference<Thread> firstThread = new AtomicReference<>();
            AtomicReference<Thread> secondThread = new AtomicReference<>();
            AtomicReference<Throwable> inUpcall = new AtomicReference<>();
            ReceivePort rp = receiver.createReceivePort(MANY_TO_ONE_UPCALLS, "blocking", (ReadMessage m) -> {
                int sender = m.readInt();
                m.readInt();
                m.finish();
                if (sender == 0) {
                    firstThread.set(Thread.currentThread());
                    try {
                        // Blocks until the other sender's message was delivered: only a hand-off
                        // of the reading to another thread gets it there.
                        if (!secondDelivered.await(30, TimeUnit.SECONDS)) {
                            inUpcall.set(new AssertionError("the second message was not delivered meanwhile"));
                        }
                    } catch (InterruptedException e) {
                        inUpcall.set(e);
                    }
                    firstReturned.countDown();
                } else {
                    secondThread.set(Thread.currentThread());
                    secondDelivered.countDown();
                }
            });
            rp.enableConnections();
            rp.enableMessageUpcalls();
            SendPort first = pool.create(MANY_TO_ONE_UPCALLS).createSendPort(MANY_TO_ONE_UPCALLS);
            first.connect(rp.identifier());
            SendPort second = pool.create(MANY_TO_ONE_UPCALLS).createSendPort(MANY_TO_ONE_UPCALLS);
            second.connect(rp.identifier());
            send(first, 0, 0, 1);
            Waits.until("the first upcall runs", () -> firstThread.get() != null);
            send(second, 1, 0, 1);
            assertTrue(secondDelivered.await(30, TimeUnit.SECONDS), "the second message is delivered");
            assertTrue(firstReturned.await(30, TimeUnit.SECONDS), "the first upcall returns");
            assertNull(inUpcall.get());
            assertNotEquals(secondThread.get(), firstThread.get(), "another thread read on");
            first.close();
            second.close();
            rp.close();
        }
    }

    @Test(timeOut = 60_000)
    public void aConnectionAfterAllOthersLeftIsReadAgain() throws Exception {
        try (PoolFixture pool = new PoolFixture(UcxIbisStarter.NICKNAME)) {
            Ibis receiver = pool.create(MANY_TO_ONE_UPCALLS);
            AtomicInteger delivered = new AtomicInteger();
            ReceivePort rp = countingPort(receiver, "again", delivered);
            rp.enableConnections();
            rp.enableMessageUpcalls();
            Ibis senderIbis = pool.create(MANY_TO_ONE_UPCALLS);
            for (int round = 1; round <= 3; round++) {
                SendPort port = senderIbis.createSendPort(MANY_TO_ONE_UPCALLS);
                port.connect(rp.identifier());
                send(port, 0, 0, 10);
                port.close();
                int expected = 10 * round;
                Waits.until("round " + round + " delivered", () -> delivered.get() == expected);
                Waits.until("the sender of round " + round + " left", () -> rp.connectedTo().length == 0);
            }
            assertEquals(delivered.get(), 30);
            rp.close();
        }
    }

    @Test(timeOut = 60_000)
    public void disabledUpcallsHoldTheMessageUntilEnabled() throws Exception {
        try (PoolFixture pool = new PoolFixture(UcxIbisStarter.NICKNAME)) {
            Ibis receiver = pool.create(MANY_TO_ONE_UPCALLS);
            AtomicInteger delivered = new AtomicInteger();
            ReceivePort rp = countingPort(receiver, "held", delivered);
            rp.enableConnections();
            SendPort port = pool.create(MANY_TO_ONE_UPCALLS).createSendPort(MANY_TO_ONE_UPCALLS);
            port.connect(rp.identifier());
            send(port, 0, 0, 3);
            assertEquals(delivered.get(), 0, "no upcall before they are enabled");
            rp.enableMessageUpcalls();
            Waits.until("the held messages delivered", () -> delivered.get() == 3);
            port.close();
            rp.close();
        }
    }
}
