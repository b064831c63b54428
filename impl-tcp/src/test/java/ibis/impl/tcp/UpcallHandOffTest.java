package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotSame;
import static org.testng.Assert.assertTrue;

import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.PortType;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.ipl.impl.ImplPropertyTable;
import ibis.testsupport.PoolFixture;

import java.lang.management.ManagementFactory;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/**
 * {@code finish()} inside an upcall: the connection's next message must be delivered while the
 * upcall still runs, also when that message arrives only after the finish (then the hand-off to
 * another thread is deferred, see {@code ibis.ipl.impl.UpcallHandOffs}); and a request/reply
 * exchange driven by upcalls that call {@code finish()} allocates nothing per message once warm.
 */
public class UpcallHandOffTest {

    private static final Logger LOG = LoggerFactory.getLogger(UpcallHandOffTest.class);

    private static final PortType UPCALLS = new PortType(PortType.CONNECTION_ONE_TO_ONE,
            PortType.SERIALIZATION_DATA, PortType.RECEIVE_AUTO_UPCALLS, PortType.RECEIVE_EXPLICIT,
            PortType.COMMUNICATION_FIFO, PortType.COMMUNICATION_RELIABLE);

    @DataProvider
    public Object[][] handOffDelays() {
        return new Object[][] {{"0"}, {"500"}, {"100000"}};
    }

    /**
     * The upcall of each odd message finishes it, says so, and then blocks until the upcall of the
     * next message ran; the test sends that next message only after the finish, so it cannot have
     * been read ahead, and some other thread has to pick the connection up.
     */
    @Test(dataProvider = "handOffDelays", timeOut = 120_000)
    public void aMessageArrivingAfterFinishIsDeliveredWhileTheFinishedUpcallBlocks(String delayMicros)
            throws Exception {
        int pairs = 10;
        BlockingQueue<Integer> finished = new ArrayBlockingQueue<>(2 * pairs);
        AtomicReference<Thread> blockedThread = new AtomicReference<>();
        AtomicReference<CountDownLatch> nextRan = new AtomicReference<>();
        AtomicReference<String> problem = new AtomicReference<>();
        AtomicInteger delivered = new AtomicInteger();
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Properties p = pool.properties();
            p.setProperty(ImplPropertyTable.UPCALL_HANDOFF_MICROS, delayMicros);
            Ibis receiver = pool.create(p, new IbisCapabilities(), null, UPCALLS);
            Ibis sender = pool.create(UPCALLS);
            ReceivePort rp = receiver.createReceivePort(UPCALLS, "in", m -> {
                int v = m.readInt();
                delivered.incrementAndGet();
                if (v % 2 == 0) {
                    CountDownLatch latch = new CountDownLatch(1);
                    nextRan.set(latch);
                    blockedThread.set(Thread.currentThread());
                    m.finish();
                    finished.add(v);
                    try {
                        if (!latch.await(60, TimeUnit.SECONDS)) {
                            problem.compareAndSet(null, "message " + (v + 1) + " was not delivered while the upcall"
                                    + " of message " + v + " blocked after finish()");
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                } else {
                    if (Thread.currentThread() == blockedThread.get()) {
                        problem.compareAndSet(null, "message " + v + " ran in the blocked upcall's thread");
                    }
                    nextRan.get().countDown();
                    finished.add(v);
                }
            });
            rp.enableConnections();
            rp.enableMessageUpcalls();
            SendPort sp = sender.createSendPort(UPCALLS);
            sp.connect(rp.identifier());
            for (int i = 0; i < 2 * pairs; i += 2) {
                send(sp, i);
                assertEquals(finished.poll(60, TimeUnit.SECONDS), Integer.valueOf(i));
                send(sp, i + 1); // arrives after the finish() of message i
                assertEquals(finished.poll(60, TimeUnit.SECONDS), Integer.valueOf(i + 1));
            }
            assertEquals(problem.get(), null);
            assertEquals(delivered.get(), 2 * pairs);
            assertNotSame(blockedThread.get(), null);
        }
    }

    private static void send(SendPort sp, int value) throws Exception {
        WriteMessage w = sp.newMessage();
        w.writeInt(value);
        w.finish();
    }

    @Test(timeOut = 120_000)
    public void anUpcallRequestReplyExchangeAllocatesNothingPerMessage() throws Exception {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        if (!(bean instanceof com.sun.management.ThreadMXBean)) {
            throw new AssertionError(
                    "must be available on every supported JDK: this JVM cannot count allocated bytes per thread");
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        int warmup = 20_000;
        int measured = 20_000;
        UpcallThreads seen = new UpcallThreads(threads);
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Ibis a = pool.create(UPCALLS);
            Ibis b = pool.create(UPCALLS);
            SendPort aOut = a.createSendPort(UPCALLS);
            SendPort bOut = b.createSendPort(UPCALLS);
            CountDownLatch done = new CountDownLatch(1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            int[] left = {warmup + measured};
            // b echoes; a's upcall checks the echo and sends the next request: no thread of the
            // test takes part once the first request is out.
            ReceivePort bIn = b.createReceivePort(UPCALLS, "in", m -> {
                seen.note();
                int v = m.readInt();
                m.finish();
                WriteMessage w = bOut.newMessage();
                w.writeInt(v);
                w.finish();
            });
            ReceivePort aIn = a.createReceivePort(UPCALLS, "in", m -> {
                seen.note();
                int v = m.readInt();
                m.finish();
                try {
                    if (v != left[0]) {
                        throw new IllegalStateException("echoed " + v + ", expected " + left[0]);
                    }
                    if (--left[0] == measured) {
                        seen.startMeasuring();
                    }
                    if (left[0] == 0) {
                        seen.stopMeasuring();
                        done.countDown();
                        return;
                    }
                    WriteMessage w = aOut.newMessage();
                    w.writeInt(left[0]);
                    w.finish();
                } catch (Throwable t) {
                    failure.set(t);
                    done.countDown();
                }
            });
            for (ReceivePort rp : new ReceivePort[] {aIn, bIn}) {
                rp.enableConnections();
                rp.enableMessageUpcalls();
            }
            aOut.connect(bIn.identifier());
            bOut.connect(aIn.identifier());
            WriteMessage w = aOut.newMessage();
            w.writeInt(left[0]);
            w.finish();
            assertTrue(done.await(100, TimeUnit.SECONDS), "the exchange stalled");
            assertEquals(failure.get(), null);
        }
        long perMessage = seen.allocatedWhileMeasuring() / (2L * measured);
        LOG.info("bytes allocated per upcall message once warm: {} (upcall threads seen: {})", perMessage,
                seen.count());
        // One object per message would be 16 bytes or more; a little slack for rare hand-offs to
        // pooled threads when an upcall is descheduled on a busy machine.
        assertTrue(perMessage < 8, "the upcall path allocates " + perMessage + " bytes per message");
    }

    /**
     * The threads that ran upcalls, with what they had allocated when measuring started (or when
     * they were first seen after that). Recording allocates only when a new thread shows up.
     */
    private static final class UpcallThreads {
        private final com.sun.management.ThreadMXBean threads;
        private final Thread[] seen = new Thread[256];
        private final long[] base = new long[256];
        private final long[] end = new long[256];
        private int count;
        private volatile boolean measuring;

        UpcallThreads(com.sun.management.ThreadMXBean threads) {
            this.threads = threads;
        }

        void note() {
            Thread me = Thread.currentThread();
            synchronized (this) {
                for (int i = 0; i < count; i++) {
                    if (seen[i] == me) {
                        return;
                    }
                }
                if (count < seen.length) {
                    seen[count] = me;
                    base[count] = threads.getCurrentThreadAllocatedBytes();
                    count++;
                }
            }
        }

        synchronized void startMeasuring() {
            for (int i = 0; i < count; i++) {
                base[i] = threads.getThreadAllocatedBytes(seen[i].getId());
            }
            measuring = true;
        }

        synchronized void stopMeasuring() {
            measuring = false;
            for (int i = 0; i < count; i++) {
                end[i] = threads.getThreadAllocatedBytes(seen[i].getId());
            }
        }

        synchronized long allocatedWhileMeasuring() {
            long sum = 0;
            for (int i = 0; i < count; i++) {
                if (end[i] >= base[i] && end[i] > 0) {
                    sum += end[i] - base[i];
                }
            }
            return sum;
        }

        synchronized int count() {
            return count;
        }
    }
}
