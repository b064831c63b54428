package ibis.impl.ucx;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import ibis.ipl.Ibis;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortIdentifier;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PoolFixture;
import ibis.testsupport.Waits;

import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.annotations.Test;

/**
 * A many-to-one receive port with explicit receipt over UCX: the {@code receive()} caller waits
 * on all connections itself (through the transport's wait set, {@link UcxSourceWaitSet}) and reads
 * the messages in its own thread; no connection has a reader thread that hands messages over.
 */
public class UcxManyToOneReceiveTest {

    private static final PortType MANY_TO_ONE_EXPLICIT = new PortType(PortType.CONNECTION_MANY_TO_ONE,
            PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT, PortType.RECEIVE_TIMEOUT, PortType.RECEIVE_POLL,
            PortType.COMMUNICATION_FIFO, PortType.CONNECTION_UPCALLS, PortType.CONNECTION_DOWNCALLS,
            PortType.COMMUNICATION_RELIABLE);

    /** Whether some thread of this JVM is in the base's hand-off reader loop. */
    private static boolean handOffReaderRunning() {
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            for (StackTraceElement f : e.getValue()) {
                if (f.getMethodName().equals("handOffReader")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A send port of a new Ibis of the pool, connected to {@code rp}. */
    private static SendPort connectedSender(PoolFixture pool, ReceivePort rp) throws Exception {
        SendPort port = pool.create(MANY_TO_ONE_EXPLICIT).createSendPort(MANY_TO_ONE_EXPLICIT);
        port.connect(rp.identifier());
        return port;
    }

    /** What a test reads from the one message it receives. */
    interface Reading {
        Object read(ReadMessage m) throws Exception;
    }

    /** Starts a thread that receives one message and stores what {@code reading} returns, or what it threw. */
    private static Thread receiveInBackground(ReceivePort rp, Reading reading, AtomicReference<Object> result) {
        Thread t = new Thread(() -> {
            try {
                ReadMessage m = rp.receive();
                result.set(reading.read(m));
                m.finish();
            } catch (Throwable e) {
                result.set(e);
            }
        });
        t.start();
        return t;
    }

    @Test(timeOut = 60_000)
    public void receiveReadsEverySendersMessagesInTheCallersThreadInOrderPerSender() throws Exception {
        int senders = 4;
        int perSender = 200;
        try (PoolFixture pool = new PoolFixture(UcxIbisStarter.NICKNAME)) {
            Ibis receiver = pool.create(MANY_TO_ONE_EXPLICIT);
            ReceivePort rp = receiver.createReceivePort(MANY_TO_ONE_EXPLICIT, "many");
            rp.enableConnections();
            SendPort[] ports = new SendPort[senders];
            Thread[] threads = new Thread[senders];
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int s = 0; s < senders; s++) {
                Ibis ibis = pool.create(MANY_TO_ONE_EXPLICIT);
                ports[s] = ibis.createSendPort(MANY_TO_ONE_EXPLICIT);
                ports[s].connect(rp.identifier());
                int sender = s;
                threads[s] = new Thread(() -> {
                    try {
                        byte[] payload = new byte[3000 + sender];
                        for (int i = 0; i < perSender; i++) {
                            payload[0] = (byte) i;
                            WriteMessage w = ports[sender].newMessage();
                            w.writeInt(sender);
                            w.writeInt(i);
                            w.writeArray(payload);
                            w.finish();
                        }
                    } catch (Throwable t) {
                        failure.set(t);
                    }
                }, "sender-" + s);
            }
            for (Thread t : threads) {
                t.start();
            }
            int[] next = new int[senders];
            for (int n = 0; n < senders * perSender; n++) {
                ReadMessage m = rp.receive();
                int sender = m.readInt();
                int i = m.readInt();
                byte[] payload = new byte[3000 + sender];
                m.readArray(payload);
                m.finish();
                assertEquals(i, next[sender], "messages of sender " + sender + " arrive in order");
                assertEquals(payload[0], (byte) i, "the payload belongs to the message");
                next[sender]++;
                assertFalse(handOffReaderRunning(), "a connection reader thread hands messages over");
            }
            for (Thread t : threads) {
                t.join();
            }
            assertNull(failure.get());
            for (int s = 0; s < senders; s++) {
                assertEquals(next[s], perSender, "every message of sender " + s);
            }
            for (SendPort p : ports) {
                p.close();
            }
            rp.close();
        }
    }

    @Test(timeOut = 60_000)
    public void aReceiveBlockedOnTheFirstConnectionGetsTheMessageOfASenderThatConnectsLater() throws Exception {
        try (PoolFixture pool = new PoolFixture(UcxIbisStarter.NICKNAME)) {
            Ibis receiver = pool.create(MANY_TO_ONE_EXPLICIT);
            ReceivePort rp = receiver.createReceivePort(MANY_TO_ONE_EXPLICIT, "many");
            rp.enableConnections();
            SendPort quiet = connectedSender(pool, rp);
            AtomicReference<Object> result = new AtomicReference<>();
            Thread blocked = receiveInBackground(rp, ReadMessage::readString, result);
            // blocked in the wait set, watching the quiet sender only
            Waits.untilStack(blocked, "into its wait set", true, stack -> Waits.inMethod(stack, "await"));
            SendPort late = connectedSender(pool, rp);
            WriteMessage w = late.newMessage();
            w.writeString("from the late sender");
            w.finish();
            blocked.join();
            assertEquals(result.get(), "from the late sender");
            late.close();
            quiet.close();
            rp.close();
        }
    }

    @Test(timeOut = 60_000)
    public void aSenderThatLeavesWhileTheReceiverWaitsIsReportedAndTheOthersStillArrive() throws Exception {
        try (PoolFixture pool = new PoolFixture(UcxIbisStarter.NICKNAME)) {
            Ibis receiver = pool.create(MANY_TO_ONE_EXPLICIT);
            ReceivePort rp = receiver.createReceivePort(MANY_TO_ONE_EXPLICIT, "many");
            rp.enableConnections();
            SendPort leaving = connectedSender(pool, rp);
            SendPort staying = connectedSender(pool, rp);
            SendPortIdentifier leaver = leaving.identifier();
            AtomicReference<Object> result = new AtomicReference<>();
            Thread blocked = receiveInBackground(rp, ReadMessage::readInt, result);
            Waits.untilStack(blocked, "into its wait set", true, stack -> Waits.inMethod(stack, "await"));
            leaving.close(); // CLOSE on its connection: the blocked receive handles it and waits on
            SendPortIdentifier[] lost = rp.lostConnections();
            while (lost.length == 0) {
                Thread.onSpinWait();
                lost = rp.lostConnections();
            }
            assertEquals(lost.length, 1);
            assertEquals(lost[0], leaver);
            assertTrue(blocked.isAlive(), "receive waits on for the sender that stays: " + result.get());
            WriteMessage w = staying.newMessage();
            w.writeInt(42);
            w.finish();
            blocked.join();
            assertEquals(result.get(), 42);
            assertEquals(rp.connectedTo().length, 1);
            staying.close();
            rp.close();
        }
    }

    @Test(timeOut = 60_000)
    public void pollLooksAtEveryConnectionWithoutBlocking() throws Exception {
        try (PoolFixture pool = new PoolFixture(UcxIbisStarter.NICKNAME)) {
            Ibis receiver = pool.create(MANY_TO_ONE_EXPLICIT);
            ReceivePort rp = receiver.createReceivePort(MANY_TO_ONE_EXPLICIT, "many");
            rp.enableConnections();
            SendPort a = connectedSender(pool, rp);
            SendPort b = connectedSender(pool, rp);
            assertNull(rp.poll(), "nothing sent yet");
            WriteMessage w = b.newMessage();
            w.writeInt(7);
            w.finish();
            ReadMessage m = rp.poll();
            while (m == null) {
                Thread.onSpinWait();
                m = rp.poll();
            }
            assertNotNull(m);
            assertEquals(m.readInt(), 7);
            assertEquals(m.origin(), b.identifier());
            m.finish();
            assertNull(rp.poll(), "the one message was taken");
            a.close();
            b.close();
            rp.close();
        }
    }
}
