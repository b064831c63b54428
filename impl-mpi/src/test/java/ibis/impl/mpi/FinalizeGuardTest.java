package ibis.impl.mpi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.annotations.Test;

/**
 * {@link FinalizeGuard}: no call reaches MPI after {@code MPI_Finalize}, and finalizing waits for a
 * call that is inside MPI (shutdown hooks run concurrently).
 */
public class FinalizeGuardTest {

    /** A backend that records what reached it; its test() may be held inside "MPI". */
    private static final class RecordingBackend implements MpiBackend {
        final List<String> events = new CopyOnWriteArrayList<>();
        final CountDownLatch testEntered = new CountDownLatch(1);
        final CountDownLatch releaseTest = new CountDownLatch(1);
        volatile boolean holdTest;

        @Override
        public String name() {
            return "recording/test";
        }

        @Override
        public String libraryVersion() {
            return "none";
        }

        @Override
        public int threadLevel() {
            return MpiNative.THREAD_MULTIPLE;
        }

        @Override
        public int rank() {
            return 0;
        }

        @Override
        public int size() {
            return 1;
        }

        @Override
        public int tagUpperBound() {
            return Integer.MAX_VALUE;
        }

        @Override
        public long address(ByteBuffer direct) {
            return 0;
        }

        @Override
        public MpiSlots newRequests(int count) {
            return null;
        }

        @Override
        public MpiSlots newMessages(int count) {
            return null;
        }

        @Override
        public MpiStatus newStatus() {
            return null;
        }

        @Override
        public void isend(MpiBuffer buffer, int offset, int length, int destination, int tag, MpiSlots requests,
                int slot) {
            events.add("isend");
        }

        @Override
        public boolean isendBulkTest(MpiBuffer buffer, int offset, int length, int destination, int tag,
                int announceTag, MpiSlots requests, int slot) {
            events.add("isendBulkTest");
            return true;
        }

        @Override
        public void recvBulk(MpiBuffer buffer, int offset, int capacity, int source, int tag, MpiStatus status) {
            events.add("recvBulk");
        }

        @Override
        public void irecv(MpiBuffer buffer, int offset, int capacity, int source, int tag, MpiSlots requests,
                int slot) {
            events.add("irecv");
        }

        @Override
        public boolean test(MpiSlots requests, int slot, MpiStatus status) throws IOException {
            if (holdTest) {
                testEntered.countDown();
                try {
                    releaseTest.await();
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
            }
            events.add("test");
            return true;
        }

        @Override
        public void await(MpiSlots requests, int slot, MpiStatus status) {
            events.add("await");
        }

        @Override
        public void cancel(MpiSlots requests, int slot) {
            events.add("cancel");
        }

        @Override
        public boolean improbe(int source, int tag, MpiSlots messages, int slot, MpiStatus status) {
            events.add("improbe");
            return false;
        }

        @Override
        public void mrecv(MpiBuffer buffer, int offset, int capacity, MpiSlots messages, int slot,
                MpiStatus status) {
            events.add("mrecv");
        }

        @Override
        public void imrecv(MpiBuffer buffer, int offset, int capacity, MpiSlots messages, int slot,
                MpiSlots requests, int requestSlot) {
            events.add("imrecv");
        }

        @Override
        public void finish() {
            events.add("finish");
        }

        @Override
        public void abort(int exitCode) {
            events.add("abort");
        }
    }

    @Test
    public void afterFinalizingNoCallReachesMpi() throws Exception {
        RecordingBackend mpi = new RecordingBackend();
        FinalizeGuard guard = new FinalizeGuard(mpi);
        guard.isend(null, 0, 1, 0, 0, null, 0);
        guard.finish();
        IOException e = expectThrows(IOException.class, () -> guard.isend(null, 0, 1, 0, 0, null, 0));
        assertTrue(e.getMessage().contains("finalized"), e.getMessage());
        expectThrows(IOException.class, () -> guard.test(null, 0, null));
        expectThrows(IOException.class, () -> guard.improbe(0, 0, null, 0, null));
        expectThrows(IOException.class, () -> guard.mrecv(null, 0, 1, null, 0, null));
        assertEquals(mpi.events, List.of("isend", "finish"));
    }

    @Test(timeOut = 60_000)
    public void finalizingWaitsForACallInsideMpi() throws Exception {
        RecordingBackend mpi = new RecordingBackend();
        mpi.holdTest = true;
        FinalizeGuard guard = new FinalizeGuard(mpi, 60_000);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                guard.test(null, 0, null);
            } catch (Throwable t) {
                failed.set(t);
            }
        }, "inside MPI");
        caller.start();
        assertTrue(mpi.testEntered.await(30, TimeUnit.SECONDS), "the call got inside MPI");
        Thread finisher = new Thread(() -> {
            try {
                guard.finish();
            } catch (Throwable t) {
                failed.set(t);
            }
        }, "finalizing");
        finisher.start();
        // The finisher either waits for the call (parked in the guard) or, were the guard broken,
        // finalizes at once and ends: wait for one of the two, then let the call out.
        while (finisher.getState() != Thread.State.TIMED_WAITING && finisher.getState() != Thread.State.TERMINATED) {
            Thread.onSpinWait();
        }
        mpi.releaseTest.countDown();
        caller.join();
        finisher.join();
        assertEquals(failed.get(), null);
        assertEquals(mpi.events, List.of("test", "finish"), "MPI_Finalize only after the call left MPI");
    }
}
