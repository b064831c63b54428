package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.ipl.Ibis;
import ibis.ipl.MessageUpcall;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PoolFixture;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * The port's reader threads park and are unparked; {@link LockSupport#park} may return for no
 * reason at all, and a pooled thread may carry a permit left over from earlier work. These tests
 * unpark every Ibis thread continuously while several senders stream into one receive port and
 * check that every message still arrives whole, once, and in per-sender order: a reader that
 * wakes early must not read the connection while the receiving side is still skipping the rest
 * of the previous message.
 */
public class SpuriousWakeupTest {

    private static final int SENDERS = 4;
    private static final int PER_SENDER = 400;

    private PoolFixture pool;
    private Ibis a;
    private Ibis b;
    private int names;

    @BeforeClass
    public void start() throws Exception {
        pool = new PoolFixture("tcp");
        a = pool.create(PortTypes.MANY_TO_ONE_UPCALLS, PortTypes.MANY_TO_ONE_EXPLICIT);
        b = pool.create(PortTypes.MANY_TO_ONE_UPCALLS, PortTypes.MANY_TO_ONE_EXPLICIT);
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

    /** Unparks every thread of the Ibis instances, over and over, until stopped. */
    private static final class Disturber extends Thread {
        private final AtomicBoolean stop = new AtomicBoolean();
        private long unparks;

        Disturber() {
            super("spurious-unparker");
            setDaemon(true);
        }

        @Override
        public void run() {
            Thread[] threads = new Thread[256];
            while (!stop.get()) {
                int n = Thread.enumerate(threads);
                for (int i = 0; i < n; i++) {
                    if (threads[i].getName().startsWith("ibis-")) {
                        LockSupport.unpark(threads[i]);
                        unparks++;
                    }
                }
                Thread.yield();
            }
        }

        long finish() throws InterruptedException {
            stop.set(true);
            join();
            return unparks;
        }
    }

    private static int length(int sender, int i) {
        return (i * 53 + sender * 7) % 3000;
    }

    private static byte value(int sender, int i, int k) {
        return (byte) (sender * 31 + i + k);
    }

    private List<Thread> startSenders(ReceivePort rp, AtomicReference<Throwable> failure) throws IOException {
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < SENDERS; s++) {
            int id = s;
            SendPort sp = (s % 2 == 0 ? a : b).createSendPort(rp.getPortType(), fresh("sender"));
            sp.connect(rp.identifier());
            Thread t = new Thread(() -> {
                try {
                    byte[] data = new byte[3000];
                    for (int i = 0; i < PER_SENDER; i++) {
                        int n = length(id, i);
                        for (int k = 0; k < n; k++) {
                            data[k] = value(id, i, k);
                        }
                        WriteMessage w = sp.newMessage();
                        w.writeInt(id);
                        w.writeInt(i);
                        w.writeInt(n);
                        w.writeArray(data, 0, n);
                        w.finish();
                    }
                    sp.close();
                } catch (IOException | RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }, "sender-" + s);
            threads.add(t);
            t.start();
        }
        return threads;
    }

    /** Checks one message; the reader reads only part of the payload for odd message numbers. */
    private static void check(ReadMessage r, int[] next) throws IOException {
        int id = r.readInt();
        int i = r.readInt();
        assertEquals(i, next[id], "message order of sender " + id);
        next[id] = i + 1;
        int n = r.readInt();
        assertEquals(n, length(id, i), "length in message " + i + " of sender " + id);
        // Odd messages are read only partly: finish() must skip the rest while the reader thread,
        // possibly woken early, waits.
        int read = i % 2 == 0 ? n : n / 3;
        byte[] data = new byte[read];
        r.readArray(data);
        for (int k = 0; k < read; k++) {
            if (data[k] != value(id, i, k)) {
                throw new AssertionError("byte " + k + " of message " + i + " of sender " + id + " differs");
            }
        }
    }

    @Test(timeOut = 120_000)
    public void explicitManyToOneSurvivesSpuriousWakeups() throws Exception {
        ReceivePort rp = b.createReceivePort(PortTypes.MANY_TO_ONE_EXPLICIT, fresh("explicit"));
        rp.enableConnections();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Disturber disturber = new Disturber();
        disturber.start();
        List<Thread> senders = startSenders(rp, failure);
        int[] next = new int[SENDERS];
        try {
            for (int m = 0; m < SENDERS * PER_SENDER; m++) {
                ReadMessage r = rp.receive();
                check(r, next);
                r.finish();
            }
        } finally {
            long unparks = disturber.finish();
            assertTrue(unparks > 0, "the disturber unparked Ibis threads");
        }
        for (Thread t : senders) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("a sender failed", failure.get());
        }
        for (int s = 0; s < SENDERS; s++) {
            assertEquals(next[s], PER_SENDER, "messages of sender " + s);
        }
        rp.close();
    }

    @Test(timeOut = 120_000)
    public void upcallManyToOneSurvivesSpuriousWakeups() throws Exception {
        int[] next = new int[SENDERS];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch all = new CountDownLatch(SENDERS * PER_SENDER);
        MessageUpcall upcall = m -> {
            try {
                synchronized (next) {
                    check(m, next);
                }
                if ((next[0] + next[1]) % 3 == 0) {
                    m.finish(); // sometimes finish inside the upcall: the connection is handed on
                }
            } catch (IOException | RuntimeException | Error e) {
                failure.compareAndSet(null, e);
            }
            all.countDown();
        };
        ReceivePort rp = b.createReceivePort(PortTypes.MANY_TO_ONE_UPCALLS, fresh("upcalls"), upcall);
        rp.enableConnections();
        rp.enableMessageUpcalls();
        Disturber disturber = new Disturber();
        disturber.start();
        List<Thread> senders = startSenders(rp, failure);
        try {
            while (!all.await(100, TimeUnit.MILLISECONDS)) {
                if (failure.get() != null) {
                    break;
                }
            }
        } finally {
            disturber.finish();
        }
        if (failure.get() != null) {
            throw new AssertionError("delivery failed", failure.get());
        }
        for (Thread t : senders) {
            t.join();
        }
        synchronized (next) {
            for (int s = 0; s < SENDERS; s++) {
                assertEquals(next[s], PER_SENDER, "messages of sender " + s);
            }
        }
        rp.close();
    }
}
