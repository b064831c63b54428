package ibis.rmi.impl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertNotSame;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;
import static org.testng.Assert.fail;

import ibis.rmi.Naming;
import ibis.rmi.server.RemoteStub;
import ibis.rmi.server.UnicastRemoteObject;
import ibis.rmi.testing.Callback;
import ibis.rmi.testing.Echo;
import ibis.rmi.testing.EchoImpl;
import ibis.rmi.testing.RmiTestPool;
import ibis.testsupport.ChildJvm;
import ibis.testsupport.Waits;

import java.lang.reflect.Field;
import java.rmi.ConnectException;
import java.rmi.RemoteException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * The callers' reading of their own replies ({@link ReplyChannel}) against servers in child JVMs:
 * a reply for a waiting call read by another call that leads, a leader whose reply comes while
 * others wait handing the leadership on, a killed server failing the leader and its followers,
 * nested callbacks, and calls to two servers at once.
 */
public class ReplyChannelTest {

    @BeforeClass
    public void start() throws Exception {
        RmiTestPool.start();
    }

    /** A callback that announces its call and returns only when the test releases it. */
    public static final class GateCallback extends UnicastRemoteObject implements Callback {
        private static final long serialVersionUID = 1L;
        final transient CountDownLatch entered = new CountDownLatch(1);
        final transient CountDownLatch release = new CountDownLatch(1);

        GateCallback() throws RemoteException {
        }

        @Override
        public int call(int x) {
            entered.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return x + 1;
        }

        @Override
        public long pid() {
            return ProcessHandle.current().pid();
        }
    }

    /** A callback that calls the server back while the server calls it: call(x) = 2 call(x - 1) + 1. */
    public static final class NestingCallback extends UnicastRemoteObject implements Callback {
        private static final long serialVersionUID = 1L;
        private final transient Echo server;

        NestingCallback(Echo server) throws RemoteException {
            this.server = server;
        }

        @Override
        public int call(int x) throws RemoteException {
            return x <= 0 ? 1 : server.callBack(this, x - 1) + 1;
        }

        @Override
        public long pid() {
            return ProcessHandle.current().pid();
        }
    }

    private static ReplyChannel channelOf(Object stub) throws ReflectiveOperationException {
        Field ref = RemoteStub.class.getDeclaredField("ref");
        ref.setAccessible(true);
        return ((RemoteReference) ref.get(stub)).channel();
    }

    @Test(timeOut = 90_000)
    public void leaderReadsRepliesOfOthersAndHandsOverWhenItsOwnComes() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(3);
        try (ChildJvm server = RmiTestPool.startChild("server", "rc-leader")) {
            server.awaitLine("READY", 30_000);
            Echo echo = (Echo) Naming.lookup("//localhost/rc-leader");
            assertEquals(echo.echoInt(1), 1);
            ReplyChannel channel = channelOf(echo);

            // A: a call that waits (for its callback) and leads the channel meanwhile.
            GateCallback gateA = new GateCallback();
            Future<Integer> a = callers.submit(() -> echo.callBack(gateA, 10));
            assertTrue(gateA.entered.await(30, TimeUnit.SECONDS), "A reached its callback");
            Waits.until("A leads", () -> channel.hasLeader() && channel.waitingCalls() == 1);
            long forOthers = channel.repliesForOthers();
            long handOvers = channel.handOvers();

            // B: its reply is read by A, the leader, which wakes B.
            Future<Integer> b = callers.submit(() -> echo.echoInt(42));
            assertEquals((int) b.get(30, TimeUnit.SECONDS), 42);
            assertEquals(channel.repliesForOthers() - forOthers, 1, "B's reply was read by the leader A");
            assertTrue(channel.hasLeader(), "A still leads");

            // C waits too; A's reply comes first: A takes it and hands the leadership to C.
            GateCallback gateC = new GateCallback();
            Future<Integer> c = callers.submit(() -> echo.callBack(gateC, 20));
            assertTrue(gateC.entered.await(30, TimeUnit.SECONDS), "C reached its callback");
            assertEquals(channel.waitingCalls(), 2, "A and C wait");
            gateA.release.countDown();
            assertEquals((int) a.get(30, TimeUnit.SECONDS), 22);
            assertEquals(channel.handOvers() - handOvers, 1, "A handed the leadership to C");
            gateC.release.countDown();
            assertEquals((int) c.get(30, TimeUnit.SECONDS), 42);
            assertEquals(channel.repliesForOthers() - forOthers, 1, "A and C read their own replies");
            assertEquals(channel.waitingCalls(), 0);
            assertEquals(echo.echoInt(3), 3, "the channel serves on");
            // An interrupted caller still gets its reply (as with java.rmi) and keeps its interrupt.
            Thread.currentThread().interrupt();
            assertEquals(echo.echoInt(4), 4);
            assertTrue(Thread.interrupted(), "the interrupt is kept");
        } finally {
            callers.shutdownNow();
        }
    }

    /**
     * Starts a thread whose call {@code echo.callBack(gate, 10)} waits in the server's callback
     * (until the gate opens) and leads the reply channel meanwhile; returns once it leads. The
     * call's result or exception goes to {@code outcome}; whether the thread was interrupted when
     * the call returned, to {@code interruptKept} (when not null).
     */
    private static Thread startLeadingCall(Echo echo, ReplyChannel channel, GateCallback gate,
            java.util.concurrent.CompletableFuture<Object> outcome,
            java.util.concurrent.atomic.AtomicBoolean interruptKept) throws Exception {
        Thread leader = new Thread(() -> {
            try {
                outcome.complete(echo.callBack(gate, 10));
            } catch (Throwable t) {
                outcome.complete(t);
            }
            if (interruptKept != null) {
                interruptKept.set(Thread.currentThread().isInterrupted());
            }
        }, "leader");
        leader.start();
        assertTrue(gate.entered.await(30, TimeUnit.SECONDS), "the leader's call reached its callback");
        Waits.until("the call leads", () -> channel.hasLeader() && channel.waitingCalls() == 1);
        return leader;
    }

    @Test(timeOut = 90_000)
    public void aBrokenReplyPortIsReplacedAndTheServerFollows() throws Exception {
        try (ChildJvm server = RmiTestPool.startChild("server", "rc-epoch")) {
            server.awaitLine("READY", 30_000);
            Echo echo = (Echo) Naming.lookup("//localhost/rc-epoch");
            assertEquals(echo.echoInt(1), 1);
            ReplyChannel channel = channelOf(echo);
            int epoch = channel.epoch();
            // The reply port breaks under a leader that waits in receive(): its call fails, and the
            // next call must open the port of the next epoch, announce it with a PING, and get its
            // reply there.
            GateCallback gate = new GateCallback();
            java.util.concurrent.CompletableFuture<Object> outcome = new java.util.concurrent.CompletableFuture<>();
            Thread leader = startLeadingCall(echo, channel, gate, outcome, null);
            try {
                channel.currentPort().close(-1); // broken under the waiting leader
                Object result = outcome.get(30, TimeUnit.SECONDS);
                assertTrue(result instanceof ConnectException, "got " + result);
                assertEquals(channel.epoch(), epoch + 1, "the broken port was given up");
            } finally {
                gate.release.countDown();
                leader.join(30_000);
            }
            for (int i = 0; i < 20; i++) {
                assertEquals(echo.echoInt(i), i, "calls work after the reply port was replaced");
            }
            Echo spawned = echo.spawn();
            assertEquals(spawned.echoInt(7), 7, "a new stub of the same server uses the new port too");
        }
    }

    @Test(timeOut = 90_000)
    public void anInterruptedLeaderGetsItsReplyKeepsItsInterruptAndTheReplyPort() throws Exception {
        try (ChildJvm server = RmiTestPool.startChild("server", "rc-interrupt")) {
            server.awaitLine("READY", 30_000);
            Echo echo = (Echo) Naming.lookup("//localhost/rc-interrupt");
            assertEquals(echo.echoInt(1), 1);
            ReplyChannel channel = channelOf(echo);
            int epoch = channel.epoch();
            GateCallback gate = new GateCallback();
            java.util.concurrent.CompletableFuture<Object> outcome = new java.util.concurrent.CompletableFuture<>();
            java.util.concurrent.atomic.AtomicBoolean interruptKept = new java.util.concurrent.atomic.AtomicBoolean();
            Thread leader = startLeadingCall(echo, channel, gate, outcome, interruptKept);
            try {
                leader.interrupt(); // as a thread pool's cancel(true) would, while the call waits
                gate.release.countDown();
                assertEquals(outcome.get(30, TimeUnit.SECONDS), 22, "the interrupted call still got its reply");
            } finally {
                gate.release.countDown();
                leader.join(30_000);
            }
            assertTrue(interruptKept.get(), "the caller keeps its interrupt, as with java.rmi");
            assertEquals(channel.epoch(), epoch, "the reply port was not broken by the interrupt");
            assertEquals(echo.echoInt(5), 5);
        }
    }

    @Test(timeOut = 90_000)
    public void serverKilledWhileLeaderAndFollowersWaitFailsThemAll() throws Exception {
        int waiting = 3;
        ExecutorService callers = Executors.newFixedThreadPool(waiting);
        try (ChildJvm server = RmiTestPool.startChild("server", "rc-kill")) {
            server.awaitLine("READY", 30_000);
            Echo echo = (Echo) Naming.lookup("//localhost/rc-kill");
            assertEquals(echo.echoInt(1), 1);
            ReplyChannel channel = channelOf(echo);
            List<Future<?>> blocked = new ArrayList<>();
            for (int i = 0; i < waiting; i++) {
                blocked.add(callers.submit(() -> {
                    echo.block();
                    return null;
                }));
                server.awaitLine("BLOCKING", 30_000);
            }
            Waits.until("a leader and two followers", () -> channel.hasLeader() && channel.waitingCalls() == waiting);
            server.process().destroyForcibly();
            for (Future<?> f : blocked) {
                try {
                    f.get(60, TimeUnit.SECONDS);
                    fail("a call to a killed server returned normally");
                } catch (ExecutionException e) {
                    assertTrue(e.getCause() instanceof ConnectException, "got " + e.getCause());
                }
            }
            assertEquals(channel.waitingCalls(), 0);
            expectThrows(RemoteException.class, () -> echo.echoInt(2));
        } finally {
            callers.shutdownNow();
        }
    }

    @Test(timeOut = 90_000)
    public void nestedCallbacksFromSeveralThreads() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(3);
        try (ChildJvm server = RmiTestPool.startChild("server", "rc-nested")) {
            server.awaitLine("READY", 30_000);
            Echo echo = (Echo) Naming.lookup("//localhost/rc-nested");
            NestingCallback cb = new NestingCallback(echo);
            // callBack(cb, 3) = 2 cb.call(3); cb.call(x) = 2 cb.call(x - 1) + 1, cb.call(0) = 1: 2 * 15.
            assertEquals(echo.callBack(cb, 3), 30);
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                results.add(callers.submit(() -> echo.callBack(cb, 4)));
            }
            for (Future<Integer> r : results) {
                assertEquals((int) r.get(60, TimeUnit.SECONDS), 62);
            }
            assertEquals(channelOf(echo).waitingCalls(), 0);
        } finally {
            callers.shutdownNow();
        }
    }

    @Test(timeOut = 90_000)
    public void manyThreadsCallingTwoServersAtOnce() throws Exception {
        int threads = 6;
        int calls = 150;
        ExecutorService callers = Executors.newFixedThreadPool(threads);
        try (ChildJvm one = RmiTestPool.startChild("server", "rc-one");
                ChildJvm two = RmiTestPool.startChild("server", "rc-two")) {
            long pidOne = Long.parseLong(one.awaitLine("READY", 30_000).substring(6).trim());
            long pidTwo = Long.parseLong(two.awaitLine("READY", 30_000).substring(6).trim());
            Echo first = (Echo) Naming.lookup("//localhost/rc-one");
            Echo second = (Echo) Naming.lookup("//localhost/rc-two");
            assertNotSame(channelOf(first), channelOf(second));
            List<Future<Long>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int client = 500 + t;
                done.add(callers.submit(() -> {
                    long checked = 0;
                    for (int i = 0; i < calls; i++) {
                        Echo target = (i + client) % 2 == 0 ? first : second;
                        byte[] data = { (byte) i, (byte) client };
                        long got = target.work(client, i, data);
                        assertEquals(got, EchoImpl.expectedWork(client, i, data), "client " + client + " call " + i);
                        checked++;
                    }
                    assertEquals(first.pid(), pidOne);
                    assertEquals(second.pid(), pidTwo);
                    return checked;
                }));
            }
            for (Future<Long> d : done) {
                assertEquals((long) d.get(60, TimeUnit.SECONDS), calls);
            }
            assertNotEquals(pidOne, pidTwo);
            assertEquals(channelOf(first).waitingCalls(), 0);
            assertEquals(channelOf(second).waitingCalls(), 0);
        } finally {
            callers.shutdownNow();
        }
    }
}
