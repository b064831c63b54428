package ibis.impl.mpi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.testng.annotations.Test;

/** {@link PollLock}: one holder at a time, reentrant for the holder, waits bounded, handed over. */
public class PollLockTest {

    @Test
    public void oneHolderAtATimeAndTryLockDoesNotNest() throws Exception {
        PollLock lock = new PollLock();
        assertTrue(lock.tryLock());
        assertTrue(lock.isHeldByCurrentThread());
        assertFalse(lock.tryLock(), "tryLock() by the holder is refused (polls do not nest)");
        CompletableFuture<Boolean> other = CompletableFuture.supplyAsync(lock::tryLock);
        assertFalse(other.get(10, TimeUnit.SECONDS), "another thread got a held lock");
        lock.unlock();
        assertFalse(lock.isHeldByCurrentThread());
        assertTrue(CompletableFuture.supplyAsync(() -> {
            boolean got = lock.tryLock();
            lock.unlock();
            return got;
        }).get(10, TimeUnit.SECONDS), "a free lock is taken by another thread");
    }

    @Test
    public void lockIsReentrantForTheHolder() {
        PollLock lock = new PollLock();
        lock.lock();
        lock.lock();
        lock.unlock();
        assertTrue(lock.isHeldByCurrentThread(), "one unlock of two holds gives the lock back");
        lock.unlock();
        assertFalse(lock.isHeldByCurrentThread());
        assertTrue(lock.tryLock());
        lock.unlock();
    }

    @Test
    public void unlockByAThreadThatDoesNotHoldItFails() throws Exception {
        PollLock lock = new PollLock();
        assertTrue(lock.tryLock());
        CompletableFuture<Throwable> other = CompletableFuture.supplyAsync(() -> {
            try {
                lock.unlock();
                return null;
            } catch (IllegalMonitorStateException e) {
                return e;
            }
        });
        assertTrue(other.get(10, TimeUnit.SECONDS) instanceof IllegalMonitorStateException);
        assertTrue(lock.isHeldByCurrentThread(), "the failed unlock left the lock with its holder");
        lock.unlock();
    }

    @Test(timeOut = 30_000)
    public void timedTryLockGivesUpAndIsInterruptible() throws Exception {
        PollLock lock = new PollLock();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            lock.lock();
            held.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
            }
        });
        holder.start();
        held.await();
        assertFalse(lock.tryLock(20, TimeUnit.MILLISECONDS), "a held lock was taken");
        Thread.currentThread().interrupt();
        expectThrows(InterruptedException.class, () -> lock.tryLock(10, TimeUnit.SECONDS));
        assertFalse(Thread.interrupted(), "the interrupt was consumed by the exception");
        release.countDown();
        assertTrue(lock.tryLock(20, TimeUnit.SECONDS), "the lock given back was taken");
        lock.unlock();
        holder.join();
    }

    @Test(timeOut = 60_000)
    public void threadsThatTakeTurnsNeverOverlap() throws Exception {
        PollLock lock = new PollLock();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        int[] counter = new int[1];
        int threads = 4;
        int rounds = 20_000;
        Thread[] all = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            boolean blocking = t % 2 == 0;
            all[t] = new Thread(() -> {
                for (int i = 0; i < rounds; i++) {
                    if (blocking) {
                        lock.lock();
                    } else {
                        while (!lock.tryLock()) {
                            Thread.onSpinWait();
                        }
                    }
                    if (inside.incrementAndGet() != 1) {
                        overlaps.incrementAndGet();
                    }
                    counter[0]++;
                    inside.decrementAndGet();
                    lock.unlock();
                }
            });
            all[t].start();
        }
        for (Thread t : all) {
            t.join();
        }
        assertEquals(overlaps.get(), 0, "two threads held the lock at once");
        assertEquals(counter[0], threads * rounds, "an increment under the lock was lost");
    }
}
