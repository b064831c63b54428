package ibis.rmi.testing;

import ibis.rmi.server.UnicastRemoteObject;

import java.rmi.RemoteException;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The implementation of {@link Echo}; exported with {@link UnicastRemoteObject#exportObject}. */
public class EchoImpl implements Echo {
    private final CountDownLatch never = new CountDownLatch(1);
    private final Map<Integer, CyclicBarrier> barriers = new ConcurrentHashMap<>();

    @Override public void ping() { }
    @Override public boolean echoBoolean(boolean v) { return v; }
    @Override public byte echoByte(byte v) { return v; }
    @Override public char echoChar(char v) { return v; }
    @Override public short echoShort(short v) { return v; }
    @Override public int echoInt(int v) { return v; }
    @Override public long echoLong(long v) { return v; }
    @Override public float echoFloat(float v) { return v; }
    @Override public double echoDouble(double v) { return v; }
    @Override public String echoString(String v) { return v; }
    @Override public Object echoObject(Object v) { return v; }
    @Override public int[] echoInts(int[] v) { return v; }
    @Override public double[] echoDoubles(double[] v) { return v; }
    @Override public Payload[] echoPayloads(Payload[] v) { return v; }
    @Override public String over(int v) { return "int " + v; }
    @Override public String over(long v) { return "long " + v; }
    @Override public String over(Object v) { return "object " + v; }

    @Override
    public double mix(boolean z, byte b, char c, short s, int i, long l, float f, double d, String str) {
        return (z ? 1 : 0) + b + c + s + i + l + f + d + (str == null ? -1000 : str.length());
    }

    @Override public boolean same(Object a, Object b) { return a == b; }
    @Override public Object[] triple(Object a, Object b) { return new Object[] { a, b, a }; }

    @Override
    public int mutate(Payload p) {
        p.value += 100;
        return p.value;
    }

    @Override
    public void fail(String message) throws TestFailure {
        throw new TestFailure(message);
    }

    @Override
    public int failRuntime(String message) {
        throw new IllegalStateException(message);
    }

    @Override
    public void failError(String message) {
        throw new AssertionError(message);
    }

    @Override
    public int callBack(Callback cb, int x) throws RemoteException {
        return cb.call(x) * 2;
    }

    @Override
    public Callback newCallback(int base) throws RemoteException {
        return new CallbackImpl(base);
    }

    @Override
    public Echo spawn() throws RemoteException {
        EchoImpl e = new EchoImpl();
        UnicastRemoteObject.exportObject(e);
        return e;
    }

    @Override
    public boolean retire() throws RemoteException {
        return UnicastRemoteObject.unexportObject(this, true);
    }

    @Override
    public long work(int client, long sequence, byte[] data) {
        long sum = client * 1_000_003L + sequence * 31;
        for (byte x : data) {
            sum += x;
        }
        return sum;
    }

    /** What {@link #work} returns, for checking. */
    public static long expectedWork(int client, long sequence, byte[] data) {
        return new EchoImpl().work(client, sequence, data);
    }

    @Override
    public void block() {
        System.out.println("BLOCKING");
        System.out.flush();
        try {
            never.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean meet(int parties) {
        try {
            barriers.computeIfAbsent(parties, CyclicBarrier::new).await(30, TimeUnit.SECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (BrokenBarrierException | TimeoutException e) {
            return false;
        }
    }

    /** Counted down when a {@link #hold} call arrives (set by the test). */
    public static volatile CountDownLatch held = new CountDownLatch(1);
    /** What {@link #hold} calls wait for (set and released by the test). */
    public static volatile CountDownLatch release = new CountDownLatch(0);

    @Override
    public int hold(int x) {
        CountDownLatch r = release;
        held.countDown();
        try {
            r.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return x;
    }

    @Override
    public void exitJvm() {
        Thread exit = new Thread(() -> System.exit(0), "exit");
        exit.start();
    }

    @Override
    public long pid() {
        return ProcessHandle.current().pid();
    }
}
