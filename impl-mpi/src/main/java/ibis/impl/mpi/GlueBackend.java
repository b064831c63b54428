package ibis.impl.mpi;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The backend over our own JNI glue ({@link MpiNative}, {@code src/main/c/ibis_mpi.c}): works with
 * any MPI whose {@code mpi.h} it was compiled against (Open MPI, MPICH). The hot-path methods pass
 * addresses and ints to C and allocate nothing; only a failure creates objects (the exception).
 */
final class GlueBackend implements MpiBackend {

    private final String name;
    private final String version;
    private final int threadLevel;
    private final int rank;
    private final int size;
    private final int tagUpperBound;
    private final int requestSize;
    private final int messageSize;

    private GlueBackend(int threadLevel) {
        this.name = "glue/" + MpiNative.flavour();
        this.version = MpiNative.version();
        this.threadLevel = threadLevel;
        this.rank = MpiNative.rank();
        this.size = MpiNative.size();
        this.tagUpperBound = MpiNative.tagUpperBound();
        this.requestSize = MpiNative.requestSize();
        this.messageSize = MpiNative.messageSize();
    }

    /**
     * Loads the glue's library and initializes MPI.
     *
     * @throws NativeLibrary.UnavailableException when the library cannot be loaded (the reason names
     *     the fix)
     * @throws IOException when {@code MPI_Init_thread} fails
     */
    static GlueBackend open(int threadLevel) throws IOException {
        NativeLibrary.load();
        int provided = MpiNative.init(threadLevel);
        return new GlueBackend(provided);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String libraryVersion() {
        return version;
    }

    @Override
    public int threadLevel() {
        return threadLevel;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int tagUpperBound() {
        return tagUpperBound;
    }

    @Override
    public long address(ByteBuffer direct) {
        return MpiNative.address(direct);
    }

    @Override
    public MpiSlots newRequests(int count) {
        return MpiSlots.inMemory(this, count, requestSize);
    }

    @Override
    public MpiSlots newMessages(int count) {
        return MpiSlots.inMemory(this, count, messageSize);
    }

    @Override
    public void isend(MpiBuffer buffer, int offset, int length, int destination, int tag, MpiSlots requests,
            int slot) throws IOException {
        buffer.check(offset, length);
        check("MPI_Isend", MpiNative.isend(buffer.address() + offset, length, destination, tag,
                requests.address(slot)));
    }

    @Override
    public boolean isendTest(MpiBuffer buffer, int offset, int length, int destination, int tag, MpiSlots requests,
            int slot) throws IOException {
        buffer.check(offset, length);
        return check("MPI_Isend/MPI_Test", MpiNative.isendTest(buffer.address() + offset, length, destination, tag,
                requests.address(slot))) == 1;
    }

    @Override
    public boolean isendBulkTest(MpiBuffer buffer, int offset, int length, int destination, int tag,
            int announceTag, MpiSlots requests, int slot) throws IOException {
        buffer.check(offset, length);
        return check("MPI_Send/MPI_Isend/MPI_Test", MpiNative.isendBulkTest(buffer.address() + offset, length,
                destination, tag, announceTag, requests.address(slot))) == 1;
    }

    @Override
    public void recvBulk(MpiBuffer buffer, int offset, int capacity, int source, int tag, MpiStatus status)
            throws IOException {
        buffer.check(offset, capacity);
        check("MPI_Recv", MpiNative.recvBulk(buffer.address() + offset, capacity, source, tag,
                status == null ? 0 : status.address()));
    }

    @Override
    public boolean irecvTest(MpiBuffer buffer, int offset, int capacity, int source, int tag, MpiSlots requests,
            int postSlot, int testSlot, MpiStatus status) throws IOException {
        buffer.check(offset, capacity);
        return check("MPI_Irecv/MPI_Test", MpiNative.irecvTest(buffer.address() + offset, capacity, source, tag,
                requests.address(postSlot), requests.address(testSlot), status == null ? 0 : status.address())) == 1;
    }

    @Override
    public void irecv(MpiBuffer buffer, int offset, int capacity, int source, int tag, MpiSlots requests, int slot)
            throws IOException {
        buffer.check(offset, capacity);
        check("MPI_Irecv", MpiNative.irecv(buffer.address() + offset, capacity, source, tag,
                requests.address(slot)));
    }

    @Override
    public boolean test(MpiSlots requests, int slot, MpiStatus status) throws IOException {
        return check("MPI_Test", MpiNative.test(requests.address(slot), status == null ? 0 : status.address())) == 1;
    }

    @Override
    public boolean testSpin(MpiSlots requests, int slot, MpiStatus status, int polls) throws IOException {
        return check("MPI_Test", MpiNative.testSpin(requests.address(slot), status == null ? 0 : status.address(),
                polls)) == 1;
    }

    @Override
    public void await(MpiSlots requests, int slot, MpiStatus status) throws IOException {
        check("MPI_Wait", MpiNative.await(requests.address(slot), status == null ? 0 : status.address()));
    }

    @Override
    public void cancel(MpiSlots requests, int slot) throws IOException {
        check("MPI_Cancel", MpiNative.cancel(requests.address(slot)));
    }

    @Override
    public boolean improbe(int source, int tag, MpiSlots messages, int slot, MpiStatus status) throws IOException {
        return check("MPI_Improbe", MpiNative.improbe(source, tag, messages.address(slot), status.address())) == 1;
    }

    @Override
    public void mrecv(MpiBuffer buffer, int offset, int capacity, MpiSlots messages, int slot, MpiStatus status)
            throws IOException {
        buffer.check(offset, capacity);
        check("MPI_Mrecv", MpiNative.mrecv(buffer.address() + offset, capacity, messages.address(slot),
                status == null ? 0 : status.address()));
    }

    @Override
    public void imrecv(MpiBuffer buffer, int offset, int capacity, MpiSlots messages, int slot, MpiSlots requests,
            int requestSlot) throws IOException {
        buffer.check(offset, capacity);
        check("MPI_Imrecv", MpiNative.imrecv(buffer.address() + offset, capacity, messages.address(slot),
                requests.address(requestSlot)));
    }

    @Override
    public void finish() throws IOException {
        check("MPI_Finalize", MpiNative.finalizeMpi());
    }

    @Override
    public void abort(int exitCode) {
        MpiNative.abort(exitCode);
    }

    /** Returns {@code result}, or throws when it is a negated MPI error code. */
    private static int check(String call, int result) throws IOException {
        if (result < 0) {
            throw new IOException(call + " failed: " + MpiNative.errorString(result));
        }
        return result;
    }

    @Override
    public String toString() {
        return name + " (" + version + ")";
    }
}
