package ibis.ipl.tck;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.Ibis;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.MessageUpcall;
import ibis.ipl.PortType;
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
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/**
 * Message semantics: enabling upcalls, one live message per port, one upcall at a time and the
 * finish()-in-upcall hand-off, streaming, ordering and numbering, time-outs and polling, and what a
 * message tells about itself.
 */
public class MessageContractTest {

    /** A sender Ibis, a receiver Ibis and a connected pair of ports of one type. */
    private static final class Pair {
        final Ibis sender;
        final Ibis receiver;
        final SendPort sp;
        final ReceivePort rp;

        Pair(PoolFixture pool, PortType type, MessageUpcall upcall) throws Exception {
            sender = pool.create(Types.ALL);
            receiver = pool.create(Types.ALL);
            rp = upcall == null ? receiver.createReceivePort(type, "in")
                    : receiver.createReceivePort(type, "in", upcall);
            rp.enableConnections();
            sp = sender.createSendPort(type, "out");
            sp.connect(rp.identifier());
        }
    }

    // ---------------------------------------------------------------- upcalls enabled late

    @Test(timeOut = 60_000)
    public void aMessageSentBeforeEnableMessageUpcallsIsDeliveredOnlyAfterIt() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            AtomicBoolean enabled = new AtomicBoolean();
            AtomicBoolean early = new AtomicBoolean();
            BlockingQueue<Integer> got = new LinkedBlockingQueue<>();
            Pair p = new Pair(pool, Types.ONE_TO_ONE, m -> {
                if (!enabled.get()) {
                    early.set(true);
                }
                got.add(m.readInt());
            });
            // A probe through another port of the same two Ibises: when it has arrived, the message
            // sent before it has very likely arrived too, so an early upcall would have happened.
            ReceivePort probe = p.receiver.createReceivePort(Types.ONE_TO_ONE, "probe");
            probe.enableConnections();
            SendPort probeOut = p.sender.createSendPort(Types.ONE_TO_ONE);
            probeOut.connect(probe.identifier());
            Msg.sendInt(p.sp, 31);
            Msg.sendInt(probeOut, 0);
            assertEquals(Msg.receiveInt(probe), 0);
            assertTrue(got.isEmpty(), "an upcall was made before enableMessageUpcalls()");
            enabled.set(true);
            p.rp.enableMessageUpcalls();
            assertEquals(got.poll(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS), Integer.valueOf(31));
            assertFalse(early.get(), "an upcall was made before enableMessageUpcalls()");
        }
    }

    @Test(timeOut = 60_000)
    public void disableMessageUpcallsKeepsMessagesUntilUpcallsAreEnabledAgain() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            AtomicBoolean enabled = new AtomicBoolean(true);
            AtomicBoolean early = new AtomicBoolean();
            BlockingQueue<Integer> got = new LinkedBlockingQueue<>();
            Pair p = new Pair(pool, Types.ONE_TO_ONE, m -> {
                if (!enabled.get()) {
                    early.set(true);
                }
                got.add(m.readInt());
            });
            p.rp.enableMessageUpcalls();
            Msg.sendInt(p.sp, 1);
            assertEquals(got.poll(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS), Integer.valueOf(1));
            enabled.set(false);
            p.rp.disableMessageUpcalls();
            ReceivePort probe = p.receiver.createReceivePort(Types.ONE_TO_ONE, "probe");
            probe.enableConnections();
            SendPort probeOut = p.sender.createSendPort(Types.ONE_TO_ONE);
            probeOut.connect(probe.identifier());
            Msg.sendInt(p.sp, 2);
            Msg.sendInt(probeOut, 0);
            assertEquals(Msg.receiveInt(probe), 0);
            assertTrue(got.isEmpty(), "an upcall was made while upcalls were disabled");
            enabled.set(true);
            p.rp.enableMessageUpcalls();
            assertEquals(got.poll(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS), Integer.valueOf(2),
                    "the message kept while disabled is delivered");
            assertFalse(early.get());
        }
    }

    // ---------------------------------------------------------------- one live message per port

    @Test(timeOut = 60_000)
    public void newMessageBlocksUntilThePreviousMessageOfThePortIsFinished() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Pair p = new Pair(pool, Types.ONE_TO_ONE, null);
            WriteMessage first = p.sp.newMessage();
            first.writeInt(1);
            AtomicBoolean firstFinished = new AtomicBoolean();
            AtomicReference<Thread> second = new AtomicReference<>();
            CountDownLatch started = new CountDownLatch(1);
            CompletableFuture<Boolean> secondSawFinished = Async.supply(() -> {
                second.set(Thread.currentThread());
                started.countDown();
                try {
                    WriteMessage w = p.sp.newMessage();
                    boolean ok = firstFinished.get();
                    w.writeInt(2);
                    w.finish();
                    return ok;
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            started.await();
            Waits.untilBlockedOrDone(second.get());
            assertFalse(secondSawFinished.isDone(), "a second newMessage() returned while the first was live");
            firstFinished.set(true);
            first.finish();
            assertTrue(secondSawFinished.get(40, TimeUnit.SECONDS),
                    "the second newMessage() returned before the first message was finished");
            assertEquals(Msg.receiveInt(p.rp), 1);
            assertEquals(Msg.receiveInt(p.rp), 2);
        }
    }

    /**
     * Threads that share a send port take turns with its message slot: each message arrives whole,
     * each thread's in its order, none lost, and no thread is left waiting for a slot that was
     * given back (a lost wake-up would hang the test into its time-out).
     */
    @Test(timeOut = 120_000)
    public void threadsSharingASendPortEachGetTheSlotAndEveryMessageArrivesWhole() throws Exception {
        int threads = 4;
        int perThread = 500;
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Pair p = new Pair(pool, Types.ONE_TO_ONE, null);
            List<CompletableFuture<Void>> senders = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                senders.add(Async.run(() -> {
                    try {
                        for (int i = 0; i < perThread; i++) {
                            WriteMessage w = p.sp.newMessage();
                            w.writeInt(id);
                            w.writeInt(i);
                            w.writeInt(id * 1_000_003 + i);
                            w.finish();
                        }
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                }));
            }
            int[] next = new int[threads];
            for (int n = 0; n < threads * perThread; n++) {
                ReadMessage m = p.rp.receive();
                int id = m.readInt();
                int i = m.readInt();
                int check = m.readInt();
                m.finish();
                assertTrue(id >= 0 && id < threads, "a message names sender thread " + id);
                assertEquals(i, next[id], "thread " + id + "'s messages arrive in its order");
                assertEquals(check, id * 1_000_003 + i, "message " + i + " of thread " + id + " arrives whole");
                next[id]++;
            }
            for (CompletableFuture<Void> f : senders) {
                f.get(60, TimeUnit.SECONDS);
            }
            for (int t = 0; t < threads; t++) {
                assertEquals(next[t], perThread, "every message of thread " + t + " arrived");
            }
        }
    }

    @DataProvider
    public static Object[][] explicitTypes() {
        return new Object[][] {{Types.ONE_TO_ONE}, {Types.MANY_TO_ONE}};
    }

    @Test(dataProvider = "explicitTypes", timeOut = 60_000)
    public void aSecondReceiveBlocksUntilTheLiveReadMessageIsFinished(PortType type) throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Pair p = new Pair(pool, type, null);
            Msg.sendInt(p.sp, 1);
            Msg.sendInt(p.sp, 2);
            ReadMessage first = p.rp.receive();
            assertEquals(first.readInt(), 1);
            AtomicBoolean firstFinished = new AtomicBoolean();
            AtomicReference<Thread> second = new AtomicReference<>();
            CountDownLatch started = new CountDownLatch(1);
            CompletableFuture<Boolean> secondSawFinished = Async.supply(() -> {
                second.set(Thread.currentThread());
                started.countDown();
                try {
                    ReadMessage m = p.rp.receive();
                    boolean ok = firstFinished.get();
                    assertEquals(m.readInt(), 2);
                    m.finish();
                    return ok;
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            started.await();
            Waits.untilBlockedOrDone(second.get());
            assertFalse(secondSawFinished.isDone(), "a second receive() returned while a message was live");
            firstFinished.set(true);
            first.finish();
            assertTrue(secondSawFinished.get(40, TimeUnit.SECONDS),
                    "the second receive() returned before the first message was finished");
        }
    }

    // ---------------------------------------------------------------- upcalls

    @Test(timeOut = 90_000)
    public void atMostOneUpcallRunsAtATimePerReceivePort() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            AtomicInteger running = new AtomicInteger();
            AtomicInteger maxRunning = new AtomicInteger();
            AtomicInteger count = new AtomicInteger();
            int senders = 4;
            int perSender = 100;
            CountDownLatch all = new CountDownLatch(senders * perSender);
            ReceivePort rp = r.createReceivePort(Types.MANY_TO_ONE, "in", m -> {
                int now = running.incrementAndGet();
                maxRunning.accumulateAndGet(now, Math::max);
                try {
                    m.readInt();
                    // Give a second upcall every chance to overlap.
                    for (int i = 0; i < 1000; i++) {
                        Thread.onSpinWait();
                    }
                    Thread.yield();
                } finally {
                    running.decrementAndGet();
                    count.incrementAndGet();
                    all.countDown();
                }
            });
            rp.enableConnections();
            rp.enableMessageUpcalls();
            List<CompletableFuture<Void>> sending = new ArrayList<>();
            for (int s = 0; s < senders; s++) {
                Ibis si = pool.create(Types.ALL);
                SendPort sp = si.createSendPort(Types.MANY_TO_ONE);
                sp.connect(rp.identifier());
                sending.add(Async.run(() -> {
                    try {
                        for (int i = 0; i < perSender; i++) {
                            Msg.sendInt(sp, i);
                        }
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                }));
            }
            for (CompletableFuture<Void> f : sending) {
                f.get(60, TimeUnit.SECONDS);
            }
            assertTrue(all.await(60, TimeUnit.SECONDS), "only " + count.get() + " upcalls");
            assertEquals(maxRunning.get(), 1, "upcalls of one port overlapped");
        }
    }

    @Test(timeOut = 60_000)
    public void finishInsideAnUpcallLetsTheNextMessageBeDeliveredWhileTheUpcallContinues() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            CountDownLatch secondStarted = new CountDownLatch(1);
            AtomicBoolean firstSawSecond = new AtomicBoolean();
            AtomicReference<Thread> firstThread = new AtomicReference<>();
            AtomicReference<Thread> secondThread = new AtomicReference<>();
            CountDownLatch firstDone = new CountDownLatch(1);
            Pair p = new Pair(pool, Types.ONE_TO_ONE, m -> {
                int v = m.readInt();
                if (v == 1) {
                    firstThread.set(Thread.currentThread());
                    m.finish();
                    try {
                        // Blocks until the next upcall runs: only possible if finish() released the port.
                        firstSawSecond.set(secondStarted.await(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    firstDone.countDown();
                } else {
                    secondThread.set(Thread.currentThread());
                    secondStarted.countDown();
                }
            });
            p.rp.enableMessageUpcalls();
            Msg.sendInt(p.sp, 1);
            Msg.sendInt(p.sp, 2);
            assertTrue(firstDone.await(Waits.EVENTUALLY_MILLIS + 10_000, TimeUnit.MILLISECONDS));
            assertTrue(firstSawSecond.get(), "the next upcall did not run while the finished upcall was blocked");
            assertNotNull(secondThread.get());
            assertFalse(firstThread.get() == secondThread.get(), "the next upcall ran in the same thread");
        }
    }

    @Test(timeOut = 60_000)
    public void anUpcallThatReturnsWithoutFinishingHasItsMessageFinishedForIt() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            BlockingQueue<Integer> firsts = new LinkedBlockingQueue<>();
            Pair p = new Pair(pool, Types.ONE_TO_ONE, m -> firsts.add(m.readInt()) /* reads half, no finish */);
            p.rp.enableMessageUpcalls();
            for (int i = 0; i < 10; i++) {
                WriteMessage w = p.sp.newMessage();
                w.writeInt(i);
                w.writeInt(-1);
                w.writeArray(new double[1000]);
                w.finish();
            }
            for (int i = 0; i < 10; i++) {
                assertEquals(firsts.poll(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS), Integer.valueOf(i),
                        "message " + i + " is read from its start");
            }
        }
    }

    @Test(timeOut = 60_000)
    public void anUpcallThatThrowsDoesNotStopLaterUpcalls() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            BlockingQueue<Integer> got = new LinkedBlockingQueue<>();
            Pair p = new Pair(pool, Types.ONE_TO_ONE, m -> {
                int v = m.readInt();
                got.add(v);
                if (v == 0) {
                    throw new IOException("contract test: upcall fails on purpose");
                }
            });
            p.rp.enableMessageUpcalls();
            Msg.sendInt(p.sp, 0);
            Msg.sendInt(p.sp, 1);
            assertEquals(got.poll(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS), Integer.valueOf(0));
            assertEquals(got.poll(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS), Integer.valueOf(1));
        }
    }

    @Test(timeOut = 60_000)
    public void upcallsOfDifferentReceivePortsMayRunAtTheSameTime() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            CountDownLatch both = new CountDownLatch(2);
            AtomicBoolean overlapped = new AtomicBoolean(true);
            MessageUpcall meet = m -> {
                m.readInt();
                both.countDown();
                try {
                    if (!both.await(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS)) {
                        overlapped.set(false);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            ReceivePort a = r.createReceivePort(Types.ONE_TO_ONE, "a", meet);
            ReceivePort b = r.createReceivePort(Types.ONE_TO_ONE, "b", meet);
            for (ReceivePort rp : List.of(a, b)) {
                rp.enableConnections();
                rp.enableMessageUpcalls();
                SendPort sp = s.createSendPort(Types.ONE_TO_ONE);
                sp.connect(rp.identifier());
                Msg.sendInt(sp, 1);
            }
            assertTrue(both.await(Waits.EVENTUALLY_MILLIS + 10_000, TimeUnit.MILLISECONDS));
            assertTrue(overlapped.get(), "upcalls of two different ports could not run at the same time");
        }
    }

    @Test(timeOut = 60_000)
    public void pollUpcallsAreMadeByTheThreadThatPolls() throws Exception {
        PortType pollUpcalls = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA,
                PortType.RECEIVE_POLL_UPCALLS, PortType.RECEIVE_POLL, PortType.COMMUNICATION_RELIABLE);
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(pollUpcalls);
            Ibis s = pool.create(pollUpcalls);
            AtomicReference<Thread> upcallThread = new AtomicReference<>();
            AtomicInteger value = new AtomicInteger();
            ReceivePort rp = r.createReceivePort(pollUpcalls, "in", m -> {
                value.set(m.readInt());
                upcallThread.set(Thread.currentThread());
            });
            rp.enableConnections();
            rp.enableMessageUpcalls();
            SendPort sp = s.createSendPort(pollUpcalls);
            sp.connect(rp.identifier());
            Msg.sendInt(sp, 55);
            Waits.until("an upcall during Ibis.poll()", () -> {
                try {
                    r.poll();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
                return upcallThread.get() != null;
            });
            assertSame(upcallThread.get(), Thread.currentThread());
            assertEquals(value.get(), 55);
        }
    }

    // ---------------------------------------------------------------- streaming

    @Test(timeOut = 60_000)
    public void aWrittenArrayMayBeChangedAfterFlushSendSyncResetAndFinish() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Pair p = new Pair(pool, Types.OBJECT_ONE_TO_ONE, null);
            for (int size : new int[] {10, 100_000}) {
                int[] data = new int[size];
                WriteMessage w = p.sp.newMessage();
                Arrays.fill(data, 1);
                w.writeArray(data);
                w.flush();
                Arrays.fill(data, 2);
                w.writeArray(data);
                int ticket = w.send();
                w.sync(ticket);
                Arrays.fill(data, 3);
                w.writeArray(data);
                w.reset();
                Arrays.fill(data, 4);
                w.writeArray(data);
                w.finish();
                Arrays.fill(data, 5);
                ReadMessage r = p.rp.receive(Waits.EVENTUALLY_MILLIS);
                for (int expected = 1; expected <= 4; expected++) {
                    int[] in = new int[size];
                    r.readArray(in);
                    int[] want = new int[size];
                    Arrays.fill(want, expected);
                    assertEquals(in, want, "array " + expected + " of size " + size);
                }
                r.finish();
            }
        }
    }

    @Test(timeOut = 60_000)
    public void aMessageLargerThanAnyBufferArrivesIntact() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Pair p = new Pair(pool, Types.ONE_TO_ONE, null);
            byte[] big = new byte[5 * 1024 * 1024 + 3];
            for (int i = 0; i < big.length; i++) {
                big[i] = (byte) (i * 31 + 7);
            }
            CompletableFuture<Void> sending = Async.run(() -> {
                try {
                    WriteMessage w = p.sp.newMessage();
                    w.writeInt(big.length);
                    w.writeArray(big);
                    w.writeInt(-7);
                    w.finish();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            ReadMessage r = p.rp.receive(Waits.EVENTUALLY_MILLIS);
            byte[] in = new byte[r.readInt()];
            r.readArray(in);
            assertEquals(r.readInt(), -7);
            r.finish();
            sending.get(40, TimeUnit.SECONDS);
            assertTrue(Arrays.equals(in, big), "payload differs");
        }
    }

    // ---------------------------------------------------------------- order and numbering

    @Test(timeOut = 60_000)
    public void fifoKeepsTheOrderOfEachConnection() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.MANY_TO_ONE, "in");
            rp.enableConnections();
            int senders = 3;
            int perSender = 300;
            List<CompletableFuture<Void>> sending = new ArrayList<>();
            for (int s = 0; s < senders; s++) {
                Ibis si = pool.create(Types.ALL);
                SendPort sp = si.createSendPort(Types.MANY_TO_ONE);
                sp.connect(rp.identifier());
                sending.add(Async.run(() -> {
                    try {
                        for (int i = 0; i < perSender; i++) {
                            WriteMessage w = sp.newMessage();
                            w.writeInt(i);
                            if (i % 50 == 0) {
                                w.writeArray(new byte[70_000]);
                            }
                            w.finish();
                        }
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                }));
            }
            Map<SendPortIdentifier, Integer> next = new HashMap<>();
            for (int n = 0; n < senders * perSender; n++) {
                ReadMessage m = rp.receive(Waits.EVENTUALLY_MILLIS);
                int v = m.readInt();
                SendPortIdentifier from = m.origin();
                m.finish();
                int expected = next.getOrDefault(from, 0);
                assertEquals(v, expected, "message order of " + from);
                next.put(from, expected + 1);
            }
            for (CompletableFuture<Void> f : sending) {
                f.get(40, TimeUnit.SECONDS);
            }
            assertEquals(next.size(), senders);
        }
    }

    @Test(timeOut = 60_000)
    public void numberedMessagesStartAtInitialSeqnoAndCountUp() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Pair p = new Pair(pool, Types.NUMBERED, null);
            for (int i = 0; i < 20; i++) {
                Msg.sendInt(p.sp, i);
            }
            for (int i = 0; i < 20; i++) {
                ReadMessage m = p.rp.receive(Waits.EVENTUALLY_MILLIS);
                assertEquals(m.sequenceNumber(), ReadMessage.INITIAL_SEQNO + i);
                assertEquals(m.readInt(), i);
                m.finish();
            }
        }
    }

    @Test(timeOut = 60_000)
    public void numberedMessagesOfAnUpcallPortAreNumberedToo() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            BlockingQueue<long[]> got = new LinkedBlockingQueue<>();
            Pair p = new Pair(pool, Types.NUMBERED, m -> got.add(new long[] {m.sequenceNumber(), m.readInt()}));
            p.rp.enableMessageUpcalls();
            for (int i = 0; i < 10; i++) {
                Msg.sendInt(p.sp, i);
            }
            for (int i = 0; i < 10; i++) {
                long[] e = got.poll(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS);
                assertNotNull(e);
                assertEquals(e[0], ReadMessage.INITIAL_SEQNO + i);
                assertEquals(e[1], i);
            }
        }
    }

    @Test(timeOut = 60_000)
    public void sequenceNumberOfAnUnnumberedPortTypeIsAConfigurationError() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Pair p = new Pair(pool, Types.ONE_TO_ONE, null);
            Msg.sendInt(p.sp, 1);
            ReadMessage m = p.rp.receive(Waits.EVENTUALLY_MILLIS);
            expectThrows(IbisConfigurationException.class, m::sequenceNumber);
            m.finish();
        }
    }

    // ---------------------------------------------------------------- time-outs and polling

    @Test(timeOut = 60_000)
    public void receiveWithATimeoutThrowsReceiveTimedOutWhenNothingArrives() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Pair p = new Pair(pool, Types.ONE_TO_ONE, null);
            expectThrows(ReceiveTimedOutException.class, () -> p.rp.receive(300));
            // The port still works afterwards.
            Msg.sendInt(p.sp, 4);
            ReadMessage m = p.rp.receive(Waits.EVENTUALLY_MILLIS);
            assertEquals(m.readInt(), 4);
            m.finish();
        }
    }

    @Test(timeOut = 60_000)
    public void pollReturnsNullWithoutAMessageAndTheMessageOnceItArrived() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Pair p = new Pair(pool, Types.ONE_TO_ONE, null);
            assertNull(p.rp.poll());
            Msg.sendInt(p.sp, 6);
            AtomicReference<ReadMessage> polled = new AtomicReference<>();
            Waits.until("poll() returns the message", () -> {
                try {
                    polled.set(p.rp.poll());
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
                return polled.get() != null;
            });
            assertEquals(polled.get().readInt(), 6);
            polled.get().finish();
            assertNull(p.rp.poll());
        }
    }

    // ---------------------------------------------------------------- what a message tells

    @Test(timeOut = 60_000)
    public void messagesKnowTheirPortsAndOrigin() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Pair p = new Pair(pool, Types.ONE_TO_ONE, null);
            WriteMessage w = p.sp.newMessage();
            assertSame(w.localPort(), p.sp);
            w.writeInt(1);
            w.finish();
            ReadMessage r = p.rp.receive(Waits.EVENTUALLY_MILLIS);
            assertSame(r.localPort(), p.rp);
            assertEquals(r.origin(), p.sp.identifier());
            assertEquals(r.origin().name(), "out");
            assertEquals(r.origin().ibisIdentifier(), p.sender.identifier());
            r.readInt();
            r.finish();
        }
    }

    @Test(timeOut = 60_000)
    public void anUpcallMessageKnowsItsPortAndOrigin() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            AtomicReference<Object[]> seen = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            Pair p = new Pair(pool, Types.ONE_TO_ONE, m -> {
                seen.set(new Object[] {m.localPort(), m.origin(), m.readInt()});
                done.countDown();
            });
            p.rp.enableMessageUpcalls();
            Msg.sendInt(p.sp, 3);
            assertTrue(done.await(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS));
            assertSame(seen.get()[0], p.rp);
            assertEquals(seen.get()[1], p.sp.identifier());
            assertEquals(seen.get()[2], 3);
        }
    }

    @Test(timeOut = 60_000)
    public void bytesWrittenAndBytesReadAgree() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Pair p = new Pair(pool, Types.ONE_TO_ONE, null);
            WriteMessage w = p.sp.newMessage();
            long before = w.bytesWritten();
            w.writeArray(new int[1000]);
            w.writeLong(5);
            long written = w.bytesWritten();
            assertTrue(written - before >= 4008, "bytesWritten counts the data: " + before + " -> " + written);
            long sent = w.finish();
            assertTrue(sent >= written,
                    "finish() returns at least what bytesWritten() said: " + sent + " < " + written);

            ReadMessage r = p.rp.receive(Waits.EVENTUALLY_MILLIS);
            r.readArray(new int[1000]);
            r.readLong();
            long read = r.bytesRead();
            assertTrue(read >= 4008, "bytesRead counts the data: " + read);
            long received = r.finish();
            assertEquals(received, sent, "the reader's finish() and the writer's finish() count the same bytes");

            // A second message counts only its own bytes.
            WriteMessage w2 = p.sp.newMessage();
            w2.writeInt(1);
            long sent2 = w2.finish();
            ReadMessage r2 = p.rp.receive(Waits.EVENTUALLY_MILLIS);
            r2.readInt();
            long received2 = r2.finish();
            assertEquals(received2, sent2);
            assertTrue(sent2 < sent, "per-message counts: " + sent2 + " vs " + sent);
        }
    }

    @Test(timeOut = 60_000)
    public void aFinishedMessageRefusesFurtherUse() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Pair p = new Pair(pool, Types.ONE_TO_ONE, null);
            WriteMessage w = p.sp.newMessage();
            w.writeInt(1);
            w.finish();
            expectThrows(IOException.class, w::bytesWritten);
            ReadMessage r = p.rp.receive(Waits.EVENTUALLY_MILLIS);
            r.readInt();
            r.finish();
            expectThrows(IOException.class, r::bytesRead);
        }
    }

    @Test(timeOut = 60_000)
    public void finishWithAnExceptionReleasesTheSendPort() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Pair p = new Pair(pool, Types.ONE_TO_ONE, null);
            WriteMessage w = p.sp.newMessage();
            w.writeInt(1);
            w.finish(new IOException("contract test: the writer gave up"));
            CompletableFuture<Void> next = Async.run(() -> {
                try {
                    Msg.sendInt(p.sp, 2);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            next.get(40, TimeUnit.SECONDS);
        }
    }

    @Test(timeOut = 60_000)
    public void readingPastTheEndOfAMessageFailsWithAnIOException() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Pair p = new Pair(pool, Types.ONE_TO_ONE, null);
            Msg.sendInt(p.sp, 1);
            Msg.sendInt(p.sp, 2);
            ReadMessage r = p.rp.receive(Waits.EVENTUALLY_MILLIS);
            assertEquals(r.readInt(), 1);
            expectThrows(IOException.class, r::readInt);
            r.finish();
            assertEquals(Msg.receiveInt(p.rp), 2, "the next message is not eaten by the over-read");
        }
    }
}
