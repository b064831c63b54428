package ibis.impl.mpi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A backend that keeps MPI calls and {@code MPI_Finalize} apart. The JVM runs its shutdown hooks
 * concurrently, so the hook that finalizes MPI ({@link MpiProcess}) may run while another (RMI's,
 * a user's {@code Ibis.end()}) still closes connections: an {@code MPI_Isend} after
 * {@code MPI_Finalize} is an MPI error, fatal by default, which aborts the whole job. Every
 * communication call counts itself in and out; {@link #finish()} refuses new calls, waits (at most
 * {@value #DRAIN_MILLIS} ms) until none is inside MPI, and then finalizes. A call after that fails
 * with an {@link IOException} instead. Costs two atomic operations per call, nothing allocated.
 */
final class FinalizeGuard implements MpiBackend {

    /** How long {@link #finish()} waits for calls inside MPI (a blocking wait may never return). */
    static final long DRAIN_MILLIS = 1000;

    private final MpiBackend backend;
    private final long drainNanos;
    private final AtomicInteger inside = new AtomicInteger();
    private volatile boolean finalized;

    FinalizeGuard(MpiBackend backend) {
        this(backend, DRAIN_MILLIS);
    }

    /** For tests: another longest wait for calls inside MPI. */
    FinalizeGuard(MpiBackend backend, long drainMillis) {
        this.backend = backend;
        this.drainNanos = TimeUnit.MILLISECONDS.toNanos(drainMillis);
    }

    private void enter() throws IOException {
        inside.incrementAndGet();
        if (finalized) {
            inside.decrementAndGet();
            throw new IOException("MPI was finalized (this process is exiting): no more messages");
        }
    }

    private void exit() {
        inside.decrementAndGet();
    }

    @Override
    public String name() {
        return backend.name();
    }

    @Override
    public String libraryVersion() {
        return backend.libraryVersion();
    }

    @Override
    public int threadLevel() {
        return backend.threadLevel();
    }

    @Override
    public int rank() {
        return backend.rank();
    }

    @Override
    public int size() {
        return backend.size();
    }

    @Override
    public int tagUpperBound() {
        return backend.tagUpperBound();
    }

    @Override
    public long address(ByteBuffer direct) {
        return backend.address(direct);
    }

    @Override
    public MpiSlots newRequests(int count) {
        return backend.newRequests(count);
    }

    @Override
    public MpiSlots newMessages(int count) {
        return backend.newMessages(count);
    }

    @Override
    public MpiStatus newStatus() {
        return backend.newStatus();
    }

    @Override
    public void isend(MpiBuffer buffer, int offset, int length, int destination, int tag, MpiSlots requests,
            int slot) throws IOException {
        enter();
        try {
            backend.isend(buffer, offset, length, destination, tag, requests, slot);
        } finally {
            exit();
        }
    }

    @Override
    public boolean isendTest(MpiBuffer buffer, int offset, int length, int destination, int tag, MpiSlots requests,
            int slot) throws IOException {
        enter();
        try {
            return backend.isendTest(buffer, offset, length, destination, tag, requests, slot);
        } finally {
            exit();
        }
    }

    @Override
    public boolean isendBulkTest(MpiBuffer buffer, int offset, int length, int destination, int tag,
            int announceTag, MpiSlots requests, int slot) throws IOException {
        enter();
        try {
            return backend.isendBulkTest(buffer, offset, length, destination, tag, announceTag, requests, slot);
        } finally {
            exit();
        }
    }

    @Override
    public void recvBulk(MpiBuffer buffer, int offset, int capacity, int source, int tag, MpiStatus status)
            throws IOException {
        enter();
        try {
            backend.recvBulk(buffer, offset, capacity, source, tag, status);
        } finally {
            exit();
        }
    }

    @Override
    public boolean testSpin(MpiSlots requests, int slot, MpiStatus status, int polls) throws IOException {
        enter();
        try {
            return backend.testSpin(requests, slot, status, polls);
        } finally {
            exit();
        }
    }

    @Override
    public boolean irecvTest(MpiBuffer buffer, int offset, int capacity, int source, int tag, MpiSlots requests,
            int postSlot, int testSlot, MpiStatus status) throws IOException {
        enter();
        try {
            return backend.irecvTest(buffer, offset, capacity, source, tag, requests, postSlot, testSlot, status);
        } finally {
            exit();
        }
    }

    @Override
    public void irecv(MpiBuffer buffer, int offset, int capacity, int source, int tag, MpiSlots requests, int slot)
            throws IOException {
        enter();
        try {
            backend.irecv(buffer, offset, capacity, source, tag, requests, slot);
        } finally {
            exit();
        }
    }

    @Override
    public boolean test(MpiSlots requests, int slot, MpiStatus status) throws IOException {
        enter();
        try {
            return backend.test(requests, slot, status);
        } finally {
            exit();
        }
    }

    @Override
    public void await(MpiSlots requests, int slot, MpiStatus status) throws IOException {
        enter();
        try {
            backend.await(requests, slot, status);
        } finally {
            exit();
        }
    }

    @Override
    public void cancel(MpiSlots requests, int slot) throws IOException {
        enter();
        try {
            backend.cancel(requests, slot);
        } finally {
            exit();
        }
    }

    @Override
    public boolean improbe(int source, int tag, MpiSlots messages, int slot, MpiStatus status) throws IOException {
        enter();
        try {
            return backend.improbe(source, tag, messages, slot, status);
        } finally {
            exit();
        }
    }

    @Override
    public void mrecv(MpiBuffer buffer, int offset, int capacity, MpiSlots messages, int slot, MpiStatus status)
            throws IOException {
        enter();
        try {
            backend.mrecv(buffer, offset, capacity, messages, slot, status);
        } finally {
            exit();
        }
    }

    @Override
    public void imrecv(MpiBuffer buffer, int offset, int capacity, MpiSlots messages, int slot, MpiSlots requests,
            int requestSlot) throws IOException {
        enter();
        try {
            backend.imrecv(buffer, offset, capacity, messages, slot, requests, requestSlot);
        } finally {
            exit();
        }
    }

    /** Refuses new calls, waits briefly for those inside MPI, then finalizes. */
    @Override
    public void finish() throws IOException {
        finalized = true;
        long deadline = System.nanoTime() + drainNanos;
        while (inside.get() > 0 && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(this, 100_000);
        }
        backend.finish();
    }

    @Override
    public void abort(int exitCode) {
        backend.abort(exitCode);
    }

    @Override
    public String toString() {
        return backend.toString();
    }
}
