package ibis.ipl.tck;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Runs test activities concurrently, each on a fresh daemon thread. The common ForkJoin pool is
 * not used on purpose: on a small machine it may have a single worker (JDK 21+), so one activity
 * that hangs because of a bug would stall every later test.
 */
final class Async {

    private static final Executor THREAD_PER_TASK = r -> {
        Thread t = new Thread(r, "contract-async");
        t.setDaemon(true);
        t.start();
    };

    private Async() {
    }

    static <T> CompletableFuture<T> supply(Supplier<T> task) {
        return CompletableFuture.supplyAsync(task, THREAD_PER_TASK);
    }

    static CompletableFuture<Void> run(Runnable task) {
        return CompletableFuture.runAsync(task, THREAD_PER_TASK);
    }
}
