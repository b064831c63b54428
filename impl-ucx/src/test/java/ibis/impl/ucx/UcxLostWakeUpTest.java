package ibis.impl.ucx;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import ibis.io.ByteSink;
import ibis.io.ByteSource;
import ibis.testsupport.Waits;

import java.nio.ByteBuffer;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.annotations.Test;

/**
 * No wake-up is lost on a worker where one thread blocks in the event descriptor and the others
 * are parked. The slices of the waits are an hour long here (ibis.ucx.wait.slice), so a wake-up
 * that only a slice would make up for is a hang (caught by the bounded joins, generous bounds of
 * a hang, not of a speed), and the worker counts any slice that did ({@link UcxWorker#sliceRescues()}).
 */
public class UcxLostWakeUpTest {

    /** A hang, not a time: the waits below end in milliseconds when nothing is lost. */
    private static final long HANG_MILLIS = 60_000;

    private static Properties blockingAtOnceWithHourSlices() {
        Properties p = new Properties();
        p.setProperty("ibis.receive.spin.micros", "0");
        p.setProperty(UcxPropertyTable.WAIT_SLICE, "3600000");
        return p;
    }

    /**
     * A message over a connection to the same worker for a parked follower, sent after the leader
     * armed the worker and looked at its own wait, before it blocks in the descriptor (the leader
     * is held at exactly that point by its own condition). In the leader design as reverted the
     * sender signalled only a thread already counted as blocked and nobody looked at the
     * followers; here the sender signals the lead holder and looks at the followers itself. (With
     * UCX 1.13 on this machine the leader's poll was woken by an event anyway, so the old design
     * passes this too: it guards the path, it did not reproduce the rmi failure.)
     */
    @Test(timeOut = 2 * HANG_MILLIS)
    public void aLoopbackMessageForAFollowerSentWhileTheLeaderIsAboutToBlockWakesTheFollower() throws Exception {
        try (TransportPair pair = new TransportPair(blockingAtOnceWithHourSlices())) {
            TransportPair.Connection c = pair.connectToItself();
            UcxWorker worker = pair.to.worker();
            HeldLeader leader = new HeldLeader(worker);
            Follower follower = new Follower(worker, c.acceptor().source());

            write(c.connector().sink(), 1);
            leader.release.countDown();

            follower.assertGotData("the follower was never woken: a lost wake-up");
            assertEquals(worker.sliceRescues(), 0, "waits that only their slice ended");
            assertEquals(worker.mostBlocked(), 1, "threads in the event descriptor at once");
            leader.end();
        }
    }

    /**
     * The lead holder is stuck outside the event descriptor (here in its own condition's look, right
     * after it armed the worker) while a parked follower's message comes from another worker. Nobody
     * else progresses this worker, so before followers looked at a stalled leader the message waited
     * for the leader to come back (in the CI failure of 2026-11-29 a test JVM's worker took in no
     * message of new connections for at least 28 s). Now a follower whose slice ran out while the
     * lead holder has not been back for two slices progresses the worker once itself. Slices of 20
     * ms here; the bound on the follower's wait is a hang's, not a speed.
     */
    @Test(timeOut = 2 * HANG_MILLIS)
    public void aLeaderStuckOutsideTheDescriptorDoesNotHoldUpAFollowersMessage() throws Exception {
        Properties p = new Properties();
        p.setProperty("ibis.receive.spin.micros", "0");
        p.setProperty(UcxPropertyTable.WAIT_SLICE, "20");
        try (TransportPair pair = new TransportPair(p)) {
            TransportPair.Connection c = pair.connect();
            UcxWorker worker = pair.to.worker();
            HeldLeader leader = new HeldLeader(worker);
            try {
                Follower follower = new Follower(worker, c.acceptor().source());
                long rescues = worker.stallRescues();

                write(c.connector().sink(), 1);

                follower.assertGotData("the follower's message waited for the stuck leader");
                assertTrue(worker.stallRescues() > rescues, "a follower progressed the worker for the leader");
                assertTrue(leader.thread.isAlive(), "the leader is still stuck");
            } finally {
                leader.release.countDown();
                leader.end();
            }
        }
    }

    /**
     * A thread that takes the lead of {@code worker} for a wait of its own and is held in its first
     * look at that wait as the lead holder (the one after the arm, before the poll) until
     * {@link #release} counts down; {@link #end} ends its wait.
     */
    private static final class HeldLeader {
        final CountDownLatch release = new CountDownLatch(1);
        final Thread thread;
        private final UcxWorker worker;
        private final AtomicBoolean done = new AtomicBoolean();
        private final AtomicReference<Object> outcome = new AtomicReference<>();

        HeldLeader(UcxWorker worker) throws InterruptedException {
            this.worker = worker;
            CountDownLatch held = new CountDownLatch(1);
            UcxWorker.Condition gate = new UcxWorker.Condition() {
                private boolean wasHeld;

                @Override
                boolean ready() {
                    if (!wasHeld && worker.leader() == Thread.currentThread()) {
                        wasHeld = true;
                        held.countDown();
                        awaitQuietly(release);
                    }
                    return done.get();
                }

                @Override
                void check() {
                    // never fails
                }

                @Override
                boolean mayBeReady() {
                    return done.get();
                }
            };
            thread = new Thread(() -> {
                try {
                    outcome.set(worker.await(gate, null, 0, false));
                } catch (Throwable e) {
                    outcome.set(e);
                }
            }, "held-leader");
            thread.start();
            assertTrue(held.await(HANG_MILLIS, TimeUnit.MILLISECONDS), "the leader armed the worker");
        }

        /** Ends the leader's wait (after {@link #release}) and checks that it ended as ready. */
        void end() throws InterruptedException {
            done.set(true);
            worker.wakeAll();
            thread.join(HANG_MILLIS);
            assertEquals(outcome.get(), Boolean.TRUE);
        }
    }

    /** A thread that waits for data from {@code source} as a parked follower of {@code worker}. */
    private static final class Follower {
        private final Thread thread;
        private final AtomicReference<Object> outcome = new AtomicReference<>();

        Follower(UcxWorker worker, ByteSource source) {
            thread = new Thread(() -> {
                try {
                    outcome.set(source.awaitData(0));
                } catch (Throwable e) {
                    outcome.set(e);
                }
            }, "follower");
            thread.start();
            Waits.until("the follower is parked", () -> worker.followers() == 1);
        }

        /** Waits for the follower (a hang's bound) and checks that its data came. */
        void assertGotData(String ifNot) throws InterruptedException {
            thread.join(HANG_MILLIS);
            assertFalse(thread.isAlive(), ifNot);
            assertEquals(outcome.get(), Boolean.TRUE);
        }
    }

    /**
     * Many readers and writers on one worker, over connections to itself (no events) and from
     * another worker (shared memory), every wait blocking at once: messages, credits and request
     * completions all end waits of parked threads, and the lead moves between them. Everything
     * arrives, and no slice had to make up for a wake-up.
     */
    @Test(timeOut = 4 * HANG_MILLIS)
    public void manyBlockingReadersAndWritersOnOneWorkerLoseNoWakeUp() throws Exception {
        int loopback = 4;
        int remote = 4;
        int messages = 1500;
        try (TransportPair pair = new TransportPair(blockingAtOnceWithHourSlices())) {
            UcxWorker worker = pair.to.worker();
            int n = loopback + remote;
            TransportPair.Connection[] cs = new TransportPair.Connection[n];
            for (int i = 0; i < n; i++) {
                cs[i] = i < loopback ? pair.connectToItself() : pair.connect();
            }
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long[] received = new long[n];
            Thread[] threads = new Thread[2 * n];
            for (int i = 0; i < n; i++) {
                int k = i;
                threads[2 * i] = new Thread(() -> {
                    SplittableRandom random = new SplittableRandom(k);
                    try {
                        ByteSink sink = cs[k].connector().sink();
                        for (int m = 0; m < messages; m++) {
                            // Sizes from one byte to rendezvous messages beyond a credit quarter.
                            int size = random.nextInt(8) == 0 ? 1 + random.nextInt(1 << 20) : 1 + random.nextInt(64);
                            write(sink, size);
                            for (int y = random.nextInt(4); y > 0; y--) {
                                Thread.yield();
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "writer-" + k);
                threads[2 * i + 1] = new Thread(() -> {
                    ByteBuffer into = ByteBuffer.allocate(1 << 16);
                    try {
                        ByteSource source = cs[k].acceptor().source();
                        long total = 0;
                        int ended = 0;
                        while (ended < messages) {
                            into.clear();
                            source.read(into, 1);
                            for (int j = 0; j < into.position(); j++) {
                                if (into.get(j) == 1) {
                                    ended++; // the last byte of each message is 1, the others 0
                                }
                            }
                            total += into.position();
                        }
                        received[k] = total;
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "reader-" + k);
            }
            for (Thread t : threads) {
                t.start();
            }
            for (Thread t : threads) {
                t.join(2 * HANG_MILLIS);
                assertFalse(t.isAlive(), t.getName() + " never ended: a lost wake-up");
            }
            if (failure.get() != null) {
                throw new AssertionError("a reader or writer failed", failure.get());
            }
            for (int i = 0; i < n; i++) {
                assertTrue(received[i] >= messages, "bytes read on connection " + i);
            }
            assertEquals(worker.sliceRescues(), 0, "waits that only their slice ended");
            assertEquals(worker.mostBlocked(), 1, "threads in the event descriptor at once");
        }
    }

    /**
     * A writer floods small messages at a reader that starts late: the reader's shared-memory FIFO
     * fills, UCX queues the writer's next sends, and those move on only when the writer's worker is
     * progressed - no event tells it that the reader made room (and no credit comes: the flood is
     * far below a quarter of the window). The writer, blocked for a free slot of its ring of
     * sends, and then the send keeper, once the writer is done, must progress again by themselves;
     * with hour-long slices the flood used to stop there for good.
     */
    @Test(timeOut = 4 * HANG_MILLIS)
    public void aFloodOfSmallMessagesToAReaderThatStartsLateGetsThrough() throws Exception {
        int messages = 5000;
        int head = 100; // more than the FIFO's 64 entries: later sends are queued by UCX
        try (TransportPair pair = new TransportPair(blockingAtOnceWithHourSlices())) {
            TransportPair.Connection c = pair.connect();
            CountDownLatch headWritten = new CountDownLatch(1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            int[] ended = new int[1];
            Thread writer = new Thread(() -> {
                try {
                    ByteSink sink = c.connector().sink();
                    for (int m = 0; m < messages; m++) {
                        write(sink, 8);
                        if (m == head - 1) {
                            headWritten.countDown();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    headWritten.countDown();
                }
            }, "flooding-writer");
            Thread reader = new Thread(() -> {
                ByteBuffer into = ByteBuffer.allocate(1 << 16);
                try {
                    awaitQuietly(headWritten);
                    ByteSource source = c.acceptor().source();
                    while (ended[0] < messages) {
                        into.clear();
                        source.read(into, 1);
                        for (int j = 0; j < into.position(); j++) {
                            if (into.get(j) == 1) {
                                ended[0]++;
                            }
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "late-reader");
            writer.start();
            reader.start();
            writer.join(2 * HANG_MILLIS);
            reader.join(HANG_MILLIS);
            assertFalse(writer.isAlive(), "the writer never got its sends through");
            assertFalse(reader.isAlive(), "the reader got " + ended[0] + " of " + messages + " messages");
            if (failure.get() != null) {
                throw new AssertionError("the writer or the reader failed", failure.get());
            }
            assertEquals(ended[0], messages, "messages read");
            assertEquals(pair.from.worker().sliceRescues(), 0, "waits that only their slice ended");
        }
    }

    /** Writes {@code size} bytes: zeros and a last 1 (so that the reader counts messages). */
    private static void write(ByteSink sink, int size) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(size);
        b.put(size - 1, (byte) 1);
        sink.write(new ByteBuffer[] {b}, 0, 1);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(HANG_MILLIS, TimeUnit.MILLISECONDS)) {
                throw new AssertionError("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
