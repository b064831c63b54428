package ibis.io;

import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads with a large stack, for the JDK object streams' recursion over a deep graph (a long
 * linked list) that does not fit the caller's stack. The sun serialization hands a call over only
 * for a message that it found to be deep (see io/README.md, "Deep graphs"); the caller waits for
 * it. One pool per stack size; its daemon threads are reused and end after 30 s idle, so deep
 * messages do not start a thread each.
 */
final class LargeStackExecutor {

    /** A call on the large stack. */
    @FunctionalInterface
    interface Call<T> {
        T run() throws IOException, ClassNotFoundException;
    }

    private static final ConcurrentHashMap<Long, ThreadPoolExecutor> POOLS = new ConcurrentHashMap<>();

    private LargeStackExecutor() {
    }

    /** The stack size that holds an object nesting of {@code depth} levels in the JDK object streams. */
    static long stackSizeFor(int depth) {
        // Measured: about 0.9 KiB of stack per level when writing or reading a linked list with the
        // JDK streams (mostly interpreted frames); twice that for margin, at least 64 MiB.
        return Math.max(64L << 20, depth * 2048L);
    }

    /**
     * Runs {@code call} on a thread with a stack of {@code stackSize} bytes and returns its result;
     * its exceptions are rethrown here. The caller blocks meanwhile.
     */
    static <T> T run(long stackSize, Call<T> call) throws IOException, ClassNotFoundException {
        Callable<T> task = call::run;
        Future<T> future = POOLS.computeIfAbsent(stackSize, LargeStackExecutor::newPool).submit(task);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return future.get();
                } catch (InterruptedException e) {
                    // The stream is in the middle of an object: it cannot be abandoned half-way.
                    interrupted = true;
                }
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof ClassNotFoundException cnf) {
                throw cnf;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException("large-stack call failed: " + cause, cause);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static ThreadPoolExecutor newPool(long stackSize) {
        AtomicInteger count = new AtomicInteger();
        String name = "ibis-io-large-stack-" + (stackSize >> 20) + "m-";
        ThreadPoolExecutor pool = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS,
                new SynchronousQueue<>(), r -> {
                    Thread t = new Thread(null, r, name + count.incrementAndGet(), stackSize);
                    t.setDaemon(true);
                    return t;
                });
        return pool;
    }
}
