package ibis.rmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;
import static org.testng.Assert.fail;

import ibis.rmi.server.RemoteStub;
import ibis.rmi.testing.Callback;
import ibis.rmi.testing.CallbackImpl;
import ibis.rmi.testing.Echo;
import ibis.rmi.testing.EchoImpl;
import ibis.rmi.testing.Payload;
import ibis.rmi.testing.RmiTestPool;
import ibis.rmi.testing.TestFailure;
import ibis.testsupport.ChildJvm;

import java.rmi.NoSuchObjectException;
import java.rmi.RemoteException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/** The RMI semantics between real JVMs: a server in a child JVM, clients here and in more children. */
public class MultiProcessTest {

    @BeforeClass
    public void start() throws Exception {
        RmiTestPool.start();
    }

    @Test(timeOut = 90_000)
    public void semanticsAcrossJvms() throws Exception {
        try (ChildJvm server = RmiTestPool.startChild("server", "mp-semantics")) {
            long serverPid = Long.parseLong(server.awaitLine("READY", 30_000).substring(6).trim());
            Echo echo = (Echo) Naming.lookup("//localhost/mp-semantics");
            assertEquals(echo.pid(), serverPid, "the call ran in the server JVM");
            assertNotEquals(serverPid, ProcessHandle.current().pid());

            // primitives and objects, deep copies with identity within a call
            assertEquals(echo.echoLong(Long.MIN_VALUE), Long.MIN_VALUE);
            assertEquals(echo.mix(true, (byte) 1, 'a', (short) 2, 3, 4L, 0.5f, 0.25, "xy"),
                    1 + 1 + 'a' + 2 + 3 + 4 + 0.5 + 0.25 + 2, 0.0);
            Payload p = new Payload(1, "p", new long[] { 1, 2 });
            assertTrue(echo.same(p, p));
            assertFalse(echo.same(p, new Payload(1, "p", new long[] { 1, 2 })));
            assertEquals(echo.mutate(p), 101);
            assertEquals(p.value, 1);
            Object[] t = echo.triple(p, "s");
            assertSame(t[0], t[2]);
            assertEquals(t[0], p);

            // exceptions with the remote stack trace
            TestFailure f = expectThrows(TestFailure.class, () -> echo.fail("remote boom"));
            assertEquals(f.getMessage(), "remote boom");
            assertTrue(Arrays.stream(f.getStackTrace()).anyMatch(
                    e -> e.getClassName().equals(EchoImpl.class.getName()) && e.getMethodName().equals("fail")));
            expectThrows(IllegalStateException.class, () -> echo.failRuntime("x"));

            // remote objects as arguments (call back into this JVM) and as results (served there)
            CallbackImpl mine = new CallbackImpl(100);
            assertEquals(echo.callBack(mine, 1), 202);
            Callback theirs = echo.newCallback(5);
            assertTrue(theirs instanceof RemoteStub);
            assertEquals(theirs.pid(), serverPid);
            assertEquals(theirs.call(1), 6);
            assertEquals(echo.callBack(theirs, 2), 14);

            // unexport at the server
            Echo spawned = echo.spawn();
            assertEquals(spawned.pid(), serverPid);
            assertTrue(spawned.retire());
            expectThrows(NoSuchObjectException.class, spawned::ping);
            assertEquals(echo.echoInt(8), 8, "the other object still works");
        }
    }

    @Test(timeOut = 90_000)
    public void manyClientJvmsAgainstOneServer() throws Exception {
        int clients = 4;
        int threads = 4;
        int calls = 300;
        List<ChildJvm> children = new ArrayList<>();
        try {
            ChildJvm server = RmiTestPool.startChild("server", "mp-many");
            children.add(server);
            server.awaitLine("READY", 30_000);
            List<ChildJvm> clientJvms = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                ChildJvm client = RmiTestPool.startChild("client", "mp-many", Integer.toString(c + 1),
                        Integer.toString(threads), Integer.toString(calls));
                children.add(client);
                clientJvms.add(client);
            }
            for (ChildJvm client : clientJvms) {
                assertEquals(client.awaitLine("OK", 60_000), "OK " + (threads * calls), client.output());
                assertTrue(client.process().waitFor(30, TimeUnit.SECONDS), "client exits");
                assertEquals(client.process().exitValue(), 0, client.output());
            }
            // Calls from several threads run at the same time in the server.
            Echo meeting = (Echo) Naming.lookup("mp-many");
            ExecutorService parallel = Executors.newFixedThreadPool(6);
            try {
                List<Future<Boolean>> met = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    met.add(parallel.submit(() -> meeting.meet(6)));
                }
                for (Future<Boolean> m : met) {
                    assertTrue(m.get(), "six calls ran concurrently in the server");
                }
            } finally {
                parallel.shutdownNow();
            }
            // And this JVM as a fifth client, with threads of its own.
            Echo echo = (Echo) Naming.lookup("mp-many");
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<Long>> results = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    int seq = i;
                    results.add(pool.submit(() -> echo.work(999, seq, new byte[] { (byte) seq })));
                }
                for (int i = 0; i < results.size(); i++) {
                    assertEquals((long) results.get(i).get(), EchoImpl.expectedWork(999, i, new byte[] { (byte) i }));
                }
            } finally {
                pool.shutdownNow();
            }
        } finally {
            for (ChildJvm c : children) {
                c.close();
            }
        }
    }

    @Test(timeOut = 90_000)
    public void serverKilledDuringCallGivesRemoteException() throws Exception {
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try (ChildJvm server = RmiTestPool.startChild("server", "mp-kill")) {
            server.awaitLine("READY", 30_000);
            Echo echo = (Echo) Naming.lookup("mp-kill");
            assertEquals(echo.echoInt(1), 1);
            Future<?> blocked = caller.submit(() -> {
                echo.block();
                return null;
            });
            server.awaitLine("BLOCKING", 30_000);
            server.process().destroyForcibly();
            try {
                blocked.get(60, TimeUnit.SECONDS);
                fail("the call to a killed server returned normally");
            } catch (ExecutionException e) {
                assertTrue(e.getCause() instanceof RemoteException, "got " + e.getCause());
            }
            // Later calls fail too, without hanging.
            expectThrows(RemoteException.class, () -> echo.echoInt(2));
        } finally {
            caller.shutdownNow();
        }
    }

    @Test(timeOut = 90_000)
    public void serverEndingNormallyDuringCallGivesRemoteException() throws Exception {
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try (ChildJvm server = RmiTestPool.startChild("server", "mp-exit")) {
            server.awaitLine("READY", 30_000);
            Echo echo = (Echo) Naming.lookup("mp-exit");
            Future<?> blocked = caller.submit(() -> {
                echo.block();
                return null;
            });
            server.awaitLine("BLOCKING", 30_000);
            try {
                echo.exitJvm();
            } catch (RemoteException e) {
                // exitJvm starts System.exit on another thread at once, so the server's shutdown
                // (leaving the pool) may overtake the reply of this very call: both outcomes are
                // right. What is tested is the other, blocked call below.
            }
            assertTrue(server.process().waitFor(30, TimeUnit.SECONDS), "server exits");
            try {
                blocked.get(60, TimeUnit.SECONDS);
                fail("the call to a server that ended returned normally");
            } catch (ExecutionException e) {
                assertTrue(e.getCause() instanceof RemoteException, "got " + e.getCause());
            }
            expectThrows(RemoteException.class, () -> echo.echoInt(2));
        } finally {
            caller.shutdownNow();
        }
    }

    @Test(timeOut = 90_000)
    public void registryServedByAnotherJvmIsFoundThroughTheElection() throws Exception {
        try (ChildJvm registryJvm = RmiTestPool.startChild("registry", "5099", "in-child-registry")) {
            long pid = Long.parseLong(registryJvm.awaitLine("READY", 30_000).substring(6).trim());
            ibis.rmi.registry.Registry registry = ibis.rmi.registry.LocateRegistry.getRegistry("anyhost", 5099);
            assertTrue(registry instanceof RemoteStub, "a stub of the registry in the child");
            assertEquals(Arrays.asList(registry.list()), List.of("in-child-registry"));
            Echo echo = (Echo) registry.lookup("in-child-registry");
            assertEquals(echo.pid(), pid);
            assertEquals(((Echo) Naming.lookup("//whatever:5099/in-child-registry")).echoInt(3), 3);
            Echo mine = (Echo) ibis.rmi.server.UnicastRemoteObject.exportObject(new EchoImpl());
            Naming.bind("//localhost:5099/from-test-jvm", mine);
            expectThrows(java.rmi.AlreadyBoundException.class, () -> registry.bind("from-test-jvm", mine));
            assertEquals(((Echo) registry.lookup("from-test-jvm")).pid(), ProcessHandle.current().pid());
            expectThrows(java.rmi.server.ExportException.class,
                    () -> ibis.rmi.registry.LocateRegistry.createRegistry(5099));
        }
    }

    @Test(timeOut = 90_000)
    public void callerKilledDuringCallDoesNotHurtTheServer() throws Exception {
        EchoImpl impl = new EchoImpl();
        Echo echo = (Echo) ibis.rmi.server.UnicastRemoteObject.exportObject(impl);
        Naming.rebind("mp-caller-killed", echo);
        EchoImpl.held = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        EchoImpl.release = release;
        try (ChildJvm caller = RmiTestPool.startChild("hold", "mp-caller-killed")) {
            caller.awaitLine("CALLING", 30_000);
            assertTrue(EchoImpl.held.await(30, TimeUnit.SECONDS), "the call arrived");
            caller.process().destroyForcibly();
            assertTrue(caller.process().waitFor(30, TimeUnit.SECONDS));
        } finally {
            release.countDown();
        }
        // The reply to the dead caller fails at the server; everything else goes on.
        EchoImpl.release = new java.util.concurrent.CountDownLatch(0);
        assertEquals(echo.hold(6), 6);
        try (ChildJvm client = RmiTestPool.startChild("client", "mp-caller-killed", "9", "2", "50")) {
            assertEquals(client.awaitLine("OK", 60_000), "OK 100", client.output());
        }
    }
}
