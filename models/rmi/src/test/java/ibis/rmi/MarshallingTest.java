package ibis.rmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotSame;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.Ibis;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.rmi.impl.RemoteInterfaces;
import ibis.rmi.impl.RmiRuntime;
import ibis.rmi.server.RemoteStub;
import ibis.rmi.server.UnicastRemoteObject;
import ibis.rmi.testing.Callback;
import ibis.rmi.testing.CallbackImpl;
import ibis.rmi.testing.Counter;
import ibis.rmi.testing.CountingCallback;
import ibis.rmi.testing.Echo;
import ibis.rmi.testing.EchoImpl;
import ibis.rmi.testing.Payload;
import ibis.rmi.testing.RmiTestPool;
import ibis.rmi.testing.SpecialPayload;
import ibis.rmi.testing.TestFailure;

import java.lang.reflect.Proxy;
import java.rmi.NoSuchObjectException;
import java.rmi.RemoteException;
import java.rmi.ServerError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * Every parameter and result type through generated stubs and skeletons, in one JVM (the call
 * still travels through the stub's send port and the skeleton's receive port).
 */
public class MarshallingTest {

    private Echo echo;

    @BeforeClass
    public void export() throws Exception {
        RmiTestPool.start();
        echo = (Echo) UnicastRemoteObject.exportObject(new EchoImpl());
    }

    @Test(timeOut = 60_000)
    public void stubIsGeneratedClassNotProxy() {
        assertTrue(echo instanceof RemoteStub);
        assertFalse(Proxy.isProxyClass(echo.getClass()));
        assertTrue(echo.getClass().getName().startsWith("ibis.rmi.generated."), echo.getClass().getName());
    }

    @Test(timeOut = 60_000)
    public void primitivesRoundTrip() throws Exception {
        echo.ping();
        assertTrue(echo.echoBoolean(true));
        assertFalse(echo.echoBoolean(false));
        for (byte b : new byte[] { Byte.MIN_VALUE, -1, 0, 1, Byte.MAX_VALUE }) {
            assertEquals(echo.echoByte(b), b);
        }
        for (char c : new char[] { 0, 'a', '\u20ac', Character.MAX_VALUE }) {
            assertEquals(echo.echoChar(c), c);
        }
        for (short s : new short[] { Short.MIN_VALUE, -1, 0, Short.MAX_VALUE }) {
            assertEquals(echo.echoShort(s), s);
        }
        for (int i : new int[] { Integer.MIN_VALUE, -1, 0, 42, Integer.MAX_VALUE }) {
            assertEquals(echo.echoInt(i), i);
        }
        for (long l : new long[] { Long.MIN_VALUE, -1, 0, 1L << 40, Long.MAX_VALUE }) {
            assertEquals(echo.echoLong(l), l);
        }
        for (float f : new float[] { Float.MIN_VALUE, -0.0f, 1.5f, Float.MAX_VALUE, Float.NEGATIVE_INFINITY }) {
            assertEquals(Float.floatToRawIntBits(echo.echoFloat(f)), Float.floatToRawIntBits(f));
        }
        assertTrue(Float.isNaN(echo.echoFloat(Float.NaN)));
        for (double d : new double[] { Double.MIN_VALUE, -0.0, Math.PI, Double.MAX_VALUE, Double.POSITIVE_INFINITY }) {
            assertEquals(Double.doubleToRawLongBits(echo.echoDouble(d)), Double.doubleToRawLongBits(d));
        }
        assertTrue(Double.isNaN(echo.echoDouble(Double.NaN)));
    }

    @Test(timeOut = 60_000)
    public void mixedParametersArriveInOrder() throws Exception {
        double got = echo.mix(true, (byte) 2, (char) 3, (short) 4, 5, 6L, 7.5f, 8.25, "abc");
        assertEquals(got, 1 + 2 + 3 + 4 + 5 + 6 + 7.5 + 8.25 + 3, 0.0);
        assertEquals(echo.mix(false, (byte) 0, (char) 0, (short) 0, 0, 0, 0, 0, null), -1000.0, 0.0);
    }

    @Test(timeOut = 60_000)
    public void objectsArraysAndNull() throws Exception {
        assertEquals(echo.echoString("hello \u20ac"), "hello \u20ac");
        assertEquals(echo.echoString(""), "");
        assertNull(echo.echoString(null));
        assertNull(echo.echoObject(null));
        assertNull(echo.echoInts(null));
        int[] ints = { 1, -2, 3, Integer.MAX_VALUE };
        assertEquals(echo.echoInts(ints), ints);
        assertEquals(echo.echoInts(new int[0]), new int[0]);
        double[] big = new double[100_000];
        for (int i = 0; i < big.length; i++) {
            big[i] = i * 0.5;
        }
        assertTrue(Arrays.equals(echo.echoDoubles(big), big));
        Map<String, List<Integer>> map = new HashMap<>();
        map.put("a", new ArrayList<>(List.of(1, 2, 3)));
        assertEquals(echo.echoObject(map), map);
        Payload[] payloads = { new Payload(1, "one", new long[] { 1 }), null, new Payload(2, null, null) };
        assertEquals(echo.echoPayloads(payloads), payloads);
        assertEquals(echo.echoObject(new int[][] { { 1 }, { 2, 3 } }), new int[][] { { 1 }, { 2, 3 } });
    }

    @Test(timeOut = 60_000)
    public void overloadsReachTheirOwnMethod() throws Exception {
        assertEquals(echo.over(5), "int 5");
        assertEquals(echo.over(5L), "long 5");
        assertEquals(echo.over((Object) "x"), "object x");
    }

    @Test(timeOut = 60_000)
    public void parametersAreDeepCopiesWithIdentityWithinOneCall() throws Exception {
        Payload p = new Payload(1, "p", new long[] { 7 });
        assertTrue(echo.same(p, p));
        assertFalse(echo.same(p, new Payload(1, "p", new long[] { 7 })));
        assertEquals(echo.mutate(p), 101);
        assertEquals(p.value, 1, "the caller's object is not changed by the server");
        Object[] t = echo.triple(p, p);
        assertSame(t[0], t[1]);
        assertSame(t[0], t[2]);
        assertNotSame(t[0], p);
        Payload cyclic = new Payload(3, "c", null);
        cyclic.next = cyclic;
        Payload back = (Payload) echo.echoObject(cyclic);
        assertSame(back.next, back);
    }

    @Test(timeOut = 60_000)
    public void applicationExceptionIsRethrownWithRemoteStackTrace() {
        TestFailure f = expectThrows(TestFailure.class, () -> echo.fail("boom"));
        assertEquals(f.getMessage(), "boom");
        boolean remoteFrame = false;
        boolean localFrame = false;
        for (StackTraceElement e : f.getStackTrace()) {
            remoteFrame |= e.getClassName().equals(EchoImpl.class.getName()) && e.getMethodName().equals("fail");
            localFrame |= e.getClassName().equals(MarshallingTest.class.getName());
        }
        assertTrue(remoteFrame, "remote frames kept: " + Arrays.toString(f.getStackTrace()));
        assertTrue(localFrame, "caller's frames appended: " + Arrays.toString(f.getStackTrace()));
        IllegalStateException r = expectThrows(IllegalStateException.class, () -> echo.failRuntime("rt"));
        assertEquals(r.getMessage(), "rt");
        ServerError e = expectThrows(ServerError.class, () -> echo.failError("err"));
        assertTrue(e.getCause() instanceof AssertionError);
        assertEquals(e.getCause().getMessage(), "err");
    }

    @Test(timeOut = 60_000)
    public void exportedObjectTravelsAsStub() throws Exception {
        CallbackImpl cb = new CallbackImpl(10);
        assertEquals(echo.callBack(cb, 5), 30);
        Callback remote = echo.newCallback(7);
        assertTrue(remote instanceof RemoteStub);
        assertEquals(remote.call(1), 8);
        assertEquals(echo.echoObject(cb), UnicastRemoteObject.toStub(cb));
    }

    @Test(timeOut = 60_000)
    public void polymorphicParametersAndStubsOfSeveralInterfaces() throws Exception {
        Payload[] in = { new SpecialPayload(4, "x") };
        Payload[] out = echo.echoPayloads(in);
        assertTrue(out[0] instanceof SpecialPayload);
        assertEquals(((SpecialPayload) out[0]).extra, "x");
        CountingCallback both = new CountingCallback(1);
        Object stub = echo.echoObject(both);
        assertTrue(stub instanceof RemoteStub);
        assertTrue(stub instanceof Callback && stub instanceof Counter, stub.getClass().toString());
        assertEquals(((Counter) stub).next(), 1);
        assertEquals(((Callback) stub).call(2), 3);
        assertEquals(echo.callBack((Callback) stub, 3), 8);
        assertEquals(both.next(), 2, "the calls reached the one exported object");
    }

    @Test(timeOut = 60_000)
    public void malformedRequestIsAnsweredAndTheObjectKeepsServing() throws Exception {
        Ibis rmiIbis = RmiRuntime.get().ibis();
        Echo target = (Echo) UnicastRemoteObject.exportObject(new EchoImpl());
        String text = target.toString();
        String portName = text.substring(text.indexOf('[') + 1, text.indexOf('@'));
        SendPort raw = rmiIbis.createSendPort(RmiRuntime.PORT_TYPE);
        try {
            raw.connect(rmiIbis.identifier(), portName, 10_000, false);
            for (int method : new int[] { 9999, -7 }) {
                WriteMessage w = raw.newMessage();
                w.writeInt(123456789); // a call id nobody waits for: the reply is dropped
                w.writeInt(method);
                w.finish();
            }
            java.lang.reflect.Method[] methods = RemoteInterfaces.of(EchoImpl.class).methods();
            int echoInt = -1;
            for (int i = 0; i < methods.length; i++) {
                if (methods[i].getName().equals("echoInt")) {
                    echoInt = i;
                }
            }
            assertTrue(echoInt >= 0);
            WriteMessage w = raw.newMessage();
            w.writeInt(123456790);
            w.writeInt(echoInt); // a real method number, but the int parameter is missing
            w.finish();
        } finally {
            raw.close();
        }
        assertEquals(target.echoInt(77), 77);
        assertEquals(echo.echoString("still"), "still");
    }

    @Test(timeOut = 60_000)
    public void unexportedObjectGivesNoSuchObjectException() throws Exception {
        Echo spawned = echo.spawn();
        assertEquals(spawned.echoInt(3), 3);
        assertTrue(spawned.retire());
        expectThrows(NoSuchObjectException.class, () -> spawned.echoInt(4));
        EchoImpl local = new EchoImpl();
        Echo stub = (Echo) UnicastRemoteObject.exportObject(local);
        assertEquals(stub.echoLong(9), 9L);
        assertTrue(UnicastRemoteObject.unexportObject(local, false));
        expectThrows(NoSuchObjectException.class, stub::ping);
        expectThrows(NoSuchObjectException.class, () -> UnicastRemoteObject.unexportObject(local, true));
    }

    @Test(timeOut = 60_000)
    public void callsFromManyThreadsRunConcurrently() throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.Future<Boolean>> met = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                met.add(pool.submit(() -> echo.meet(8)));
            }
            for (java.util.concurrent.Future<Boolean> m : met) {
                assertTrue(m.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test(timeOut = 60_000)
    public void unexportWithoutForceKeepsAnObjectWithRunningCalls() throws Exception {
        EchoImpl local = new EchoImpl();
        Echo stub = (Echo) UnicastRemoteObject.exportObject(local);
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        EchoImpl.held = held;
        EchoImpl.release = release;
        java.util.concurrent.ExecutorService caller = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            java.util.concurrent.Future<Integer> running = caller.submit(() -> stub.hold(9));
            assertTrue(held.await(30, java.util.concurrent.TimeUnit.SECONDS));
            assertFalse(UnicastRemoteObject.unexportObject(local, false), "a call is running");
            release.countDown();
            assertEquals((int) running.get(), 9);
            assertTrue(UnicastRemoteObject.unexportObject(local, false));
            expectThrows(NoSuchObjectException.class, () -> stub.echoInt(1));
        } finally {
            release.countDown();
            EchoImpl.release = new java.util.concurrent.CountDownLatch(0);
            caller.shutdownNow();
        }
    }

    @Test(timeOut = 60_000)
    public void unserializableParameterGivesMarshalExceptionAndTheStubStillWorks() throws Exception {
        java.rmi.MarshalException e = expectThrows(java.rmi.MarshalException.class,
                () -> echo.echoObject(new Object()));
        assertTrue(e.getCause() instanceof java.io.NotSerializableException, String.valueOf(e.getCause()));
        assertEquals(echo.echoInt(31), 31);
        assertEquals(echo.echoObject(List.of(new Object[] { "a", 1 })), List.of("a", 1));
    }

    @Test(timeOut = 60_000)
    public void exportingTwiceIsRefused() throws Exception {
        EchoImpl local = new EchoImpl();
        UnicastRemoteObject.exportObject(local);
        expectThrows(RemoteException.class, () -> UnicastRemoteObject.exportObject(local));
        UnicastRemoteObject.unexportObject(local, true);
    }

    /** A remote interface whose parameter and result hold remote objects inside a list. */
    public interface Maker extends java.rmi.Remote {
        /** Keeps what it was given; @return a list of a string and one new exported counter, twice */
        List<Object> make(List<Object> given) throws RemoteException;
    }

    /** Exported with exportObject: not a UnicastRemoteObject, and not Serializable. */
    public static final class MakerImpl implements Maker {
        final List<Object> received = new ArrayList<>();

        @Override
        public List<Object> make(List<Object> given) throws RemoteException {
            received.addAll(given);
            PlainCounter c = new PlainCounter();
            UnicastRemoteObject.exportObject(c);
            return new ArrayList<>(List.of("x", c, c));
        }
    }

    /** A counter exported with exportObject. */
    public static final class PlainCounter implements Counter {
        int count;

        @Override
        public synchronized int next() {
            return ++count;
        }
    }

    @Test(timeOut = 60_000)
    public void exportedObjectsInsideParametersAndResultsTravelAsStubs() throws Exception {
        PlainCounter mine = new PlainCounter();
        UnicastRemoteObject.exportObject(mine);
        MakerImpl impl = new MakerImpl();
        Maker maker = (Maker) UnicastRemoteObject.exportObject(impl);
        List<Object> back = maker.make(new ArrayList<>(List.of(mine, "y")));

        Object got = impl.received.get(0);
        assertTrue(got instanceof RemoteStub, "the server got " + got.getClass().getName());
        assertEquals(((Counter) got).next(), 1);
        assertEquals(mine.count, 1, "the call through the server's stub reached the exported object");
        assertEquals(impl.received.get(1), "y");

        assertEquals(back.get(0), "x");
        assertTrue(back.get(1) instanceof RemoteStub, "the caller got " + back.get(1).getClass().getName());
        assertSame(back.get(1), back.get(2), "two references to one exported object: one stub");
        assertEquals(((Counter) back.get(1)).next(), 1);
        assertEquals(((Counter) back.get(2)).next(), 2);
    }
}
