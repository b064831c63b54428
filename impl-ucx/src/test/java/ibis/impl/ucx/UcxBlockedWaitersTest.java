package ibis.impl.ucx;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PoolFixture;
import ibis.testsupport.Waits;

import java.nio.ByteBuffer;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.testng.annotations.Test;

/**
 * Many threads blocked on one worker: at most one of them (the leader) blocks in the worker's
 * event descriptor, the others are parked followers; while nothing arrives none of them is woken
 * by the leader, a message wakes at most its own receiver, and when the leader's own wait ends a
 * follower takes over the lead; a held message taken for a reader that is not waiting wakes none of
 * them. Counts, not times.
 */
public class UcxBlockedWaitersTest {

    private static final int PORTS = 30;

    private static final PortType TYPE = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA,
            PortType.RECEIVE_EXPLICIT, PortType.COMMUNICATION_RELIABLE);

    /** Idle: the leader's slices end (counted), nobody else is woken by it, one thread is inside. */
    @Test(timeOut = 120_000)
    public void idleBlockedReceiversShareOneThreadInTheEventDescriptor() throws Exception {
        try (PoolFixture pool = new PoolFixture(UcxIbisStarter.NICKNAME)) {
            Ibis sending = pool.create(TYPE);
            UcxIbis receiving = (UcxIbis) pool.create(TYPE);
            UcxWorker worker = receiving.ucxTransport().worker();
            Ports ports = new Ports(sending, receiving, PORTS);
            Thread[] receivers = ports.startReceivers();
            Waits.until("one leader and " + (PORTS - 1) + " followers",
                    () -> worker.leader() != null && worker.followers() == PORTS - 1);

            long readyBefore = worker.readyWakeUps();
            long sliceEnds = worker.leaderWakeUps();
            Waits.until("three slices of the leader", () -> worker.leaderWakeUps() >= sliceEnds + 3);
            assertEquals(worker.mostBlocked(), 1, "threads in the event descriptor at once");
            assertEquals(worker.readyWakeUps(), readyBefore, "followers woken while nothing arrived");
            assertEquals(worker.followers(), PORTS - 1);

            ports.sendAllAndJoin(receivers);
            ports.close();
        }
    }

    /**
     * Messages to blocked receivers: the leader's own wakes only the leader and hands the lead over,
     * a follower's wakes exactly that follower, and then all at once reach everyone. The waits'
     * slices are an hour long here ({@link UcxPropertyTable#WAIT_SLICE}): a follower whose park ran
     * out by itself could take its message before the leader looked at it (its own wake-up, not the
     * leader's; the 100 ms default made that a rare failure of the count), so every wake-up below
     * is one that somebody made, and a lost one would be a hang (the timeout) or a rescue (counted).
     */
    @Test(timeOut = 120_000)
    public void aMessageWakesOnlyItsOwnBlockedReceiver() throws Exception {
        try (PoolFixture pool = new PoolFixture(UcxIbisStarter.NICKNAME)) {
            Ibis sending = pool.create(TYPE);
            Properties hourSlices = pool.properties();
            hourSlices.setProperty(UcxPropertyTable.WAIT_SLICE, "3600000");
            UcxIbis receiving = (UcxIbis) pool.create(hourSlices, new IbisCapabilities(), null, TYPE);
            UcxWorker worker = receiving.ucxTransport().worker();
            Ports ports = new Ports(sending, receiving, PORTS);
            SendPort[] out = ports.out;
            AtomicReferenceArray<Object> got = ports.got;
            Thread[] receivers = ports.startReceivers();
            Waits.until("one leader and " + (PORTS - 1) + " followers",
                    () -> worker.leader() != null && worker.followers() == PORTS - 1);
            long rescues = worker.sliceRescues();

            // A message for the leader's own port: it takes it, and a follower takes over the lead.
            Thread first = worker.leader();
            int leaderPort = indexOf(receivers, first);
            long handOvers = worker.handOvers();
            long readyBefore = worker.readyWakeUps();
            send(out[leaderPort], leaderPort);
            first.join();
            assertEquals(got.get(leaderPort), leaderPort);
            Waits.until("a follower leads", () -> worker.leader() != null && worker.leader() != first
                    && worker.followers() == PORTS - 2);
            assertTrue(worker.handOvers() > handOvers, "the lead was handed over");
            assertEquals(worker.readyWakeUps(), readyBefore, "followers woken for the leader's message");

            // A message for a follower: the leader wakes exactly that one.
            Thread second = worker.leader();
            int followerPort = (indexOf(receivers, second) + 1) % PORTS;
            if (followerPort == leaderPort) {
                followerPort = (followerPort + 1) % PORTS;
            }
            readyBefore = worker.readyWakeUps();
            send(out[followerPort], followerPort);
            receivers[followerPort].join();
            assertEquals(got.get(followerPort), followerPort);
            assertEquals(worker.readyWakeUps() - readyBefore, 1, "followers woken for one message");
            assertEquals(worker.leader(), second, "the leader leads on");

            // The rest, all at once: everyone gets its own message.
            ports.sendAllAndJoin(receivers);
            assertEquals(worker.mostBlocked(), 1, "threads in the event descriptor at once");
            assertNull(worker.leader(), "nobody waits any more");
            assertEquals(worker.sliceRescues(), rescues, "waits that only the end of a slice ended");
            ports.close();
        }
    }

    /**
     * A large direct buffer is sent in place (held messages: the write returns once the receiving
     * process took it) to a port that nobody reads yet, while ten receivers of other ports wait on
     * the receiving worker. A thread of that worker takes the held message for its reader, so the
     * write returns; that wakes none of the waiting receivers (waking them all per taken message
     * made two processes exchanging direct buffers beside GMI's parked upcall readers 2-3x slower).
     */
    @Test(timeOut = 120_000)
    public void aHeldMessageTakenForItsReaderWakesNoOtherReceiver() throws Exception {
        int parked = 10;
        try (PoolFixture pool = new PoolFixture(UcxIbisStarter.NICKNAME)) {
            Ibis sending = pool.create(TYPE);
            UcxIbis receiving = (UcxIbis) pool.create(TYPE);
            UcxWorker worker = receiving.ucxTransport().worker();
            Ports ports = new Ports(sending, receiving, parked);
            ReceivePort bulk = receiving.createReceivePort(TYPE, "bulk");
            bulk.enableConnections();
            SendPort toBulk = sending.createSendPort(TYPE);
            toBulk.connect(bulk.identifier());
            Thread[] receivers = ports.startReceivers();
            Waits.until("one leader and " + (parked - 1) + " followers",
                    () -> worker.leader() != null && worker.followers() == parked - 1);

            ByteBuffer part = ByteBuffer.allocateDirect(256 * 1024);
            for (int i = 0; i < part.capacity(); i++) {
                part.put(i, (byte) (i * 31 + 7));
            }
            long adoptions = worker.adoptions();
            long ready = worker.readyWakeUps();
            long all = worker.allWakeUps();
            WriteMessage w = toBulk.newMessage();
            w.writeByteBuffer(part);
            w.finish();
            // With a rendezvous the write returned once a thread of the receiving worker took the
            // messages for the reader; when UCX sent them eagerly, its progress drained them into
            // UCX's unexpected queue and the taking comes at the send keeper's next look.
            Waits.until("the held messages taken for their reader", () -> worker.adoptions() > adoptions);
            assertEquals(worker.readyWakeUps(), ready, "waiting receivers woken for a message to another port");
            assertEquals(worker.allWakeUps(), all, "times every waiting receiver was woken");
            assertEquals(worker.followers(), parked - 1, "waiting receivers still parked");

            ReadMessage r = bulk.receive();
            ByteBuffer read = ByteBuffer.allocateDirect(part.capacity());
            r.readByteBuffer(read);
            r.finish();
            assertEquals(read.flip(), part.clear(), "the bytes as they were sent");
            ports.sendAllAndJoin(receivers);
            toBulk.close();
            bulk.close();
            ports.close();
        }
    }

    /** Receive ports of one Ibis, each connected from a send port of its own in another. */
    private static final class Ports {
        final ReceivePort[] in;
        final SendPort[] out;
        /** What each port's receiver got: the int of its message, or what it threw. */
        final AtomicReferenceArray<Object> got;

        Ports(Ibis sending, Ibis receiving, int n) throws Exception {
            in = new ReceivePort[n];
            out = new SendPort[n];
            got = new AtomicReferenceArray<>(n);
            for (int i = 0; i < n; i++) {
                in[i] = receiving.createReceivePort(TYPE, "in-" + i);
                in[i].enableConnections();
                out[i] = sending.createSendPort(TYPE);
                out[i].connect(in[i].identifier());
            }
        }

        /** Starts a thread per port that receives one message (they block on the worker). */
        Thread[] startReceivers() {
            Thread[] receivers = new Thread[in.length];
            for (int i = 0; i < in.length; i++) {
                int port = i;
                receivers[i] = new Thread(() -> {
                    try {
                        ReadMessage m = in[port].receive();
                        got.set(port, m.readInt());
                        m.finish();
                    } catch (Throwable e) {
                        got.set(port, e);
                    }
                }, "receiver-" + i);
                receivers[i].start();
            }
            return receivers;
        }

        /** Sends each receiver that has not got its message yet its own, and waits for all of them. */
        void sendAllAndJoin(Thread[] receivers) throws Exception {
            for (int i = 0; i < in.length; i++) {
                if (got.get(i) == null) {
                    send(out[i], i);
                }
            }
            for (int i = 0; i < in.length; i++) {
                receivers[i].join();
                assertEquals(got.get(i), i, "receiver " + i);
            }
        }

        void close() throws Exception {
            for (int i = 0; i < in.length; i++) {
                out[i].close();
                in[i].close();
            }
        }
    }

    private static void send(SendPort port, int value) throws Exception {
        WriteMessage w = port.newMessage();
        w.writeInt(value);
        w.finish();
    }

    private static int indexOf(Thread[] threads, Thread t) {
        assertNotNull(t, "a leader");
        for (int i = 0; i < threads.length; i++) {
            if (threads[i] == t) {
                return i;
            }
        }
        throw new AssertionError(t.getName() + " leads, not a receiver");
    }
}
