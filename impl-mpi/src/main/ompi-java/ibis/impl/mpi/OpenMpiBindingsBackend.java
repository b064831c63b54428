package ibis.impl.mpi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Request;
import mpi.Status;

/**
 * The backend over Open MPI's Java bindings ({@code mpi.*} over Debian's {@code libmpi_java.so}).
 * Their API hands out a {@code Request} per non-blocking operation and a {@code Status} per
 * completion, so this backend allocates per message (the glue does not); the bytes themselves move
 * zero-copy from and into direct buffers. The bindings ignore a buffer's position, so an operation
 * at a non-zero offset works on a slice (one more object).
 */
final class OpenMpiBindingsBackend implements MpiBackend {

    private final Comm comm;
    /** The second duplicate, for the bytes of bulk messages ({@link #isendBulkTest}). */
    private final Comm bulkComm;
    /** Each thread's announcement body ({@link #isendBulkTest}; a blocking send, so reusable at once). */
    private final ThreadLocal<ByteBuffer> announcements = ThreadLocal.withInitial(
            () -> MPI.newByteBuffer(8).order(ByteOrder.nativeOrder()));
    private final int threadLevel;
    private final int rank;
    private final int size;
    private final int tagUpperBound;
    private final String version;

    private OpenMpiBindingsBackend(Comm comm, Comm bulkComm, int threadLevel, int tagUpperBound)
            throws MPIException {
        this.comm = comm;
        this.bulkComm = bulkComm;
        this.threadLevel = threadLevel;
        this.rank = comm.getRank();
        this.size = comm.getSize();
        this.tagUpperBound = tagUpperBound;
        String text = MPI.getLibVersion();
        int newline = text.indexOf('\n');
        this.version = (newline < 0 ? text : text.substring(0, newline)).strip();
    }

    /**
     * Loads the bindings' library, initializes MPI and duplicates {@code MPI_COMM_WORLD} with errors
     * returned instead of aborting the job.
     */
    static OpenMpiBindingsBackend open(int threadLevel) throws IOException {
        try {
            // MPI's static initializer loads libmpi_java.so: fail here, with the fix, when it cannot.
            Class.forName(MPI.class.getName(), true, OpenMpiBindingsBackend.class.getClassLoader());
        } catch (LinkageError | ClassNotFoundException e) {
            throw new NativeLibrary.UnavailableException("Open MPI's Java bindings cannot be loaded (" + e
                    + "): install Open MPI (libopenmpi3 has libmpi_java.so) and pass"
                    + " -Djava.library.path=/usr/lib/x86_64-linux-gnu");
        }
        int[] levels = {MPI.THREAD_SINGLE, MPI.THREAD_FUNNELED, MPI.THREAD_SERIALIZED, MPI.THREAD_MULTIPLE};
        try {
            int provided = MPI.InitThread(new String[0], levels[threadLevel]);
            int level = 0;
            for (int i = 0; i < levels.length; i++) {
                if (levels[i] == provided) {
                    level = i;
                }
            }
            Comm comm = MPI.COMM_WORLD.dup();
            comm.setErrhandler(MPI.ERRORS_RETURN);
            Comm bulkComm = MPI.COMM_WORLD.dup();
            bulkComm.setErrhandler(MPI.ERRORS_RETURN);
            Object bound = MPI.COMM_WORLD.getAttr(MPI.TAG_UB);
            return new OpenMpiBindingsBackend(comm, bulkComm, level, bound instanceof Integer ? (Integer) bound : 32767);
        } catch (MPIException e) {
            throw failed("MPI_Init_thread", e);
        }
    }

    @Override
    public String name() {
        return "bindings/openmpi";
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
        return 0;
    }

    @Override
    public MpiSlots newRequests(int count) {
        return MpiSlots.ofObjects(count);
    }

    @Override
    public MpiSlots newMessages(int count) {
        MpiSlots slots = MpiSlots.ofObjects(count);
        for (int i = 0; i < count; i++) {
            slots.objects[i] = new Message();
        }
        return slots;
    }

    /** The bytes at {@code offset}: the bindings start at the buffer's first byte whatever its position. */
    private static ByteBuffer at(MpiBuffer buffer, int offset, int length) {
        buffer.check(offset, length);
        return offset == 0 ? buffer.buffer() : buffer.buffer().slice(offset, length);
    }

    @Override
    public void isend(MpiBuffer buffer, int offset, int length, int destination, int tag, MpiSlots requests,
            int slot) throws IOException {
        try {
            requests.objects[slot] = comm.iSend(at(buffer, offset, length), length, MPI.BYTE, destination, tag);
        } catch (MPIException e) {
            throw failed("MPI_Isend", e);
        }
    }

    @Override
    public boolean isendBulkTest(MpiBuffer buffer, int offset, int length, int destination, int tag,
            int announceTag, MpiSlots requests, int slot) throws IOException {
        ByteBuffer body = announcements.get();
        body.putInt(0, tag).putInt(4, length);
        try {
            comm.send(body, 8, MPI.BYTE, destination, announceTag);
        } catch (MPIException e) {
            throw failed("MPI_Send", e);
        }
        try {
            requests.objects[slot] = bulkComm.iSend(at(buffer, offset, length), length, MPI.BYTE, destination, tag);
        } catch (MPIException e) {
            throw failed("MPI_Isend", e);
        }
        return test(requests, slot, null);
    }

    @Override
    public void recvBulk(MpiBuffer buffer, int offset, int capacity, int source, int tag, MpiStatus status)
            throws IOException {
        try {
            store(bulkComm.recv(at(buffer, offset, capacity), capacity, MPI.BYTE, source, tag), status);
        } catch (MPIException e) {
            throw failed("MPI_Recv", e);
        }
    }

    @Override
    public void irecv(MpiBuffer buffer, int offset, int capacity, int source, int tag, MpiSlots requests, int slot)
            throws IOException {
        try {
            requests.objects[slot] = comm.iRecv(at(buffer, offset, capacity), capacity, MPI.BYTE,
                    source == ANY_SOURCE ? MPI.ANY_SOURCE : source, tag == ANY_TAG ? MPI.ANY_TAG : tag);
        } catch (MPIException e) {
            throw failed("MPI_Irecv", e);
        }
    }

    @Override
    public boolean test(MpiSlots requests, int slot, MpiStatus status) throws IOException {
        Request request = request(requests, slot);
        try {
            Status done = request.testStatus();
            if (done == null) {
                return false;
            }
            requests.objects[slot] = null;
            store(done, status);
            return true;
        } catch (MPIException e) {
            requests.objects[slot] = null;
            throw failed("MPI_Test", e);
        }
    }

    @Override
    public void await(MpiSlots requests, int slot, MpiStatus status) throws IOException {
        Request request = request(requests, slot);
        try {
            Status done = request.waitStatus();
            requests.objects[slot] = null;
            store(done, status);
        } catch (MPIException e) {
            requests.objects[slot] = null;
            throw failed("MPI_Wait", e);
        }
    }

    @Override
    public void cancel(MpiSlots requests, int slot) throws IOException {
        try {
            request(requests, slot).cancel();
        } catch (MPIException e) {
            throw failed("MPI_Cancel", e);
        }
    }

    @Override
    public boolean improbe(int source, int tag, MpiSlots messages, int slot, MpiStatus status) throws IOException {
        try {
            Status found = ((Message) messages.objects[slot]).imProbe(source == ANY_SOURCE ? MPI.ANY_SOURCE : source,
                    tag == ANY_TAG ? MPI.ANY_TAG : tag, comm);
            if (found == null) {
                return false;
            }
            store(found, status);
            return true;
        } catch (MPIException e) {
            throw failed("MPI_Improbe", e);
        }
    }

    @Override
    public void mrecv(MpiBuffer buffer, int offset, int capacity, MpiSlots messages, int slot, MpiStatus status)
            throws IOException {
        try {
            Status done = ((Message) messages.objects[slot]).mRecv(at(buffer, offset, capacity), capacity, MPI.BYTE);
            store(done, status);
        } catch (MPIException e) {
            throw failed("MPI_Mrecv", e);
        }
    }

    @Override
    public void imrecv(MpiBuffer buffer, int offset, int capacity, MpiSlots messages, int slot, MpiSlots requests,
            int requestSlot) throws IOException {
        try {
            requests.objects[requestSlot] = ((Message) messages.objects[slot]).imRecv(at(buffer, offset, capacity),
                    capacity, MPI.BYTE);
        } catch (MPIException e) {
            throw failed("MPI_Imrecv", e);
        }
    }

    @Override
    public void finish() throws IOException {
        try {
            if (!MPI.isFinalized()) {
                comm.free();
                bulkComm.free();
                MPI.Finalize();
            }
        } catch (MPIException e) {
            throw failed("MPI_Finalize", e);
        }
    }

    @Override
    public void abort(int exitCode) {
        try {
            MPI.COMM_WORLD.abort(exitCode);
        } catch (MPIException e) {
            Runtime.getRuntime().halt(exitCode);
        }
    }

    private static Request request(MpiSlots requests, int slot) throws IOException {
        Object request = requests.objects[slot];
        if (!(request instanceof Request)) {
            throw new IOException("request slot " + slot + " holds no active request");
        }
        return (Request) request;
    }

    private static void store(Status from, MpiStatus to) throws MPIException {
        if (to != null) {
            to.set(from.getSource(), from.getTag(), from.getCount(MPI.BYTE), from.isCancelled());
        }
    }

    private static IOException failed(String call, MPIException e) {
        return new IOException(call + " failed: " + e.getMessage(), e);
    }

    @Override
    public String toString() {
        return name() + " (" + version + ")";
    }
}
