package ibis.benchmarks.rmi;

import java.rmi.RemoteException;
import java.util.concurrent.atomic.LongAdder;

/**
 * The server object of the rmi suite. Exported with {@code UnicastRemoteObject.exportObject}
 * (the callback, {@link CallbackImpl}, uses the other style, {@code extends UnicastRemoteObject}).
 * Calls run concurrently (star), so shared state is either a counter made for it or volatile.
 */
public final class BenchServiceImpl implements BenchService {

    private final LongAdder calls = new LongAdder();
    /** The last value of ping(Object)/send; its checksum is computed only when asked for. */
    private volatile Object last;
    private volatile Callback callback;
    private int ints;
    private float floats;

    private final Object barrierLock = new Object();
    private int arrived;
    private long generation;

    /** A server with no calls yet. */
    public BenchServiceImpl() {
    }

    @Override
    public void ping() {
        calls.increment();
    }

    @Override
    public void ping(int a, int b) {
        ints = a + b;
        calls.increment();
    }

    @Override
    public void ping(int a, int b, float c, float d) {
        ints = a + b;
        floats = c + d;
        calls.increment();
    }

    @Override
    public void ping(Object value) {
        last = value;
        calls.increment();
    }

    @Override
    public Object echo(Object value) {
        calls.increment();
        return value;
    }

    @Override
    public void pingpong(Object value) throws RemoteException {
        Callback c = callback;
        if (c == null) {
            throw new IllegalStateException("pingpong before setCallback");
        }
        c.pong(value);
        calls.increment();
    }

    @Override
    public void setCallback(Callback callback) {
        this.callback = callback;
    }

    @Override
    public void send(Object value) {
        last = value;
        calls.increment();
    }

    @Override
    public long lastChecksum() {
        return PayloadSpec.checksum(last);
    }

    @Override
    public long calls() {
        return calls.sum();
    }

    @Override
    public void barrier(int parties) {
        synchronized (barrierLock) {
            long mine = generation;
            if (++arrived >= parties) {
                arrived = 0;
                generation++;
                barrierLock.notifyAll();
                return;
            }
            while (generation == mine) {
                try {
                    barrierLock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted in the barrier", e);
                }
            }
        }
    }

    /** Keeps the last primitive arguments observable, so the calls cannot be optimised away. */
    @Override
    public String toString() {
        return "BenchServiceImpl[calls=" + calls.sum() + ", ints=" + ints + ", floats=" + floats + "]";
    }
}
