package ibis.impl.mpi;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The few MPI operations Ibis uses, behind which the two ways of reaching MPI hide: our JNI glue over
 * the MPI C API ({@link GlueBackend}, any MPI with an {@code mpi.h}: Open MPI, MPICH) and Open MPI's
 * Java bindings ({@code mpi.*}, found through {@link MpiBackendProvider}). {@link MpiProcess} opens
 * one per process; everybody else reaches it through {@link MpiProcess#backend()}.
 *
 * <p>All traffic goes over one duplicate of {@code MPI_COMM_WORLD}, so an application's own MPI
 * messages never match Ibis' receives; errors come back as {@link IOException}s naming the call and
 * MPI's error text, the job is not aborted.
 *
 * <p>Memory is always a direct buffer ({@link MpiBuffer}) plus an offset and a length: neither
 * backend copies or pins a heap array. Requests and matched messages live in {@link MpiSlots}
 * allocated at set-up, statuses in {@link MpiStatus} records: with the glue, the hot-path methods
 * ({@link #isend} to {@link #cancel}) create no Java object (they pass addresses and primitives to
 * C); the bindings allocate their own {@code Request}/{@code Status} objects per message, which
 * cannot be avoided through their API.
 *
 * <p>All methods are thread-safe in the sense of {@code MPI_THREAD_MULTIPLE} (which
 * {@link MpiProcess} asks for); a slot or status record must not be used by two threads at once.
 */
public interface MpiBackend {

    /** {@code MPI_ANY_SOURCE}. */
    int ANY_SOURCE = MpiNative.ANY_SOURCE;
    /** {@code MPI_ANY_TAG}. */
    int ANY_TAG = MpiNative.ANY_TAG;

    /** A short name: {@code glue/openmpi}, {@code glue/mpich} or {@code bindings/openmpi}. */
    String name();

    /** The first line of MPI's library version. */
    String libraryVersion();

    /** The thread level MPI provided, numbered as {@link MpiNative#THREAD_MULTIPLE} and below. */
    int threadLevel();

    /** This process' rank in {@code MPI_COMM_WORLD}. */
    int rank();

    /** The number of processes in {@code MPI_COMM_WORLD}. */
    int size();

    /** {@code MPI_TAG_UB}: the largest tag allowed. */
    int tagUpperBound();

    /** The native address of a direct buffer, 0 for a backend that does not use addresses. */
    long address(ByteBuffer direct);

    /** {@code count} request slots. */
    MpiSlots newRequests(int count);

    /** {@code count} matched-message slots, for {@link #improbe}. */
    MpiSlots newMessages(int count);

    /** A status record. */
    default MpiStatus newStatus() {
        return MpiStatus.create(this);
    }

    /**
     * Starts sending {@code length} bytes of {@code buffer} from {@code offset} ({@code MPI_Isend});
     * the bytes must stay untouched until the request completed ({@link #test}, {@link #await}).
     */
    void isend(MpiBuffer buffer, int offset, int length, int destination, int tag, MpiSlots requests, int slot)
            throws IOException;

    /**
     * {@link #isend}, then {@link #test} of its request: whether the send completed at once (a
     * backend may do both in one call into MPI).
     */
    default boolean isendTest(MpiBuffer buffer, int offset, int length, int destination, int tag, MpiSlots requests,
            int slot) throws IOException {
        isend(buffer, offset, length, destination, tag, requests, slot);
        return test(requests, slot, null);
    }

    /**
     * Sends a bulk message: an announcement of two native-order ints, {@code tag} and {@code length},
     * with tag {@code announceTag} on the main communicator (a blocking send of eight bytes, which MPI
     * sends eagerly), then the bytes with {@code tag} on a second communicator that only
     * {@link #recvBulk} receives from ({@code MPI_Isend}), then a test of that send. The receiver's
     * wildcard receives on the main communicator thus never meet a message longer than they hold;
     * the announcement keeps the bulk bytes in order with the sender's other messages. The bytes must
     * stay untouched until the request completed; the caller keeps the announcement and the bytes of
     * one (destination, tag) together when threads send at once.
     *
     * @return whether the send of the bytes completed at once
     */
    boolean isendBulkTest(MpiBuffer buffer, int offset, int length, int destination, int tag, int announceTag,
            MpiSlots requests, int slot) throws IOException;

    /**
     * Receives the bytes of an announced bulk message from {@code source} with {@code tag} into
     * {@code buffer} at {@code offset} ({@code MPI_Recv} on the bulk communicator); blocks while they
     * arrive. A message longer than {@code capacity} is an {@link IOException} (MPI truncates).
     */
    void recvBulk(MpiBuffer buffer, int offset, int capacity, int source, int tag, MpiStatus status)
            throws IOException;

    /**
     * Starts receiving at most {@code capacity} bytes into {@code buffer} at {@code offset}
     * ({@code MPI_Irecv}); a longer message completes the request with an error.
     *
     * @param source a rank or {@link #ANY_SOURCE}
     * @param tag a tag or {@link #ANY_TAG}
     */
    void irecv(MpiBuffer buffer, int offset, int capacity, int source, int tag, MpiSlots requests, int slot)
            throws IOException;

    /**
     * {@link #irecv} into {@code postSlot}, then {@link #test} of {@code testSlot}: the step of the
     * receives posted ahead ({@link MpiLanding}), in one call into MPI where the backend can.
     *
     * @return whether the tested request completed
     */
    default boolean irecvTest(MpiBuffer buffer, int offset, int capacity, int source, int tag, MpiSlots requests,
            int postSlot, int testSlot, MpiStatus status) throws IOException {
        irecv(buffer, offset, capacity, source, tag, requests, postSlot);
        return test(requests, testSlot, status);
    }

    /**
     * Tests a request ({@code MPI_Test}); when it completed, its slot is free again and its status is in
     * {@code status} (which may be null).
     *
     * @return whether it completed
     */
    boolean test(MpiSlots requests, int slot, MpiStatus status) throws IOException;

    /**
     * {@link #test} up to {@code polls} times, returning as soon as the request completed: for a
     * thread that waits for a message it expects soon. A backend with native code does the polls
     * there, without a return to Java (and its checks) between two of them.
     *
     * @return whether it completed
     */
    default boolean testSpin(MpiSlots requests, int slot, MpiStatus status, int polls) throws IOException {
        for (int i = 0; i < polls; i++) {
            if (test(requests, slot, status)) {
                return true;
            }
        }
        return false;
    }

    /** Blocks in MPI until a request completed ({@code MPI_Wait}); its status goes to {@code status}. */
    void await(MpiSlots requests, int slot, MpiStatus status) throws IOException;

    /**
     * Asks MPI to cancel a request ({@code MPI_Cancel}); it must still be completed with {@link #test}
     * or {@link #await}, whose status says whether the cancel succeeded.
     */
    void cancel(MpiSlots requests, int slot) throws IOException;

    /**
     * Matched probe ({@code MPI_Improbe}): when a message matches, it is taken out of MPI's matching
     * and stored in the message slot, its sender, tag and length in {@code status}; no other probe or
     * receive can match it any more, so the caller must receive it with {@link #mrecv} or
     * {@link #imrecv}.
     *
     * @return whether a message was matched
     */
    boolean improbe(int source, int tag, MpiSlots messages, int slot, MpiStatus status) throws IOException;

    /**
     * Receives a message matched by {@link #improbe} ({@code MPI_Mrecv}); blocks only while its data
     * arrives. A message longer than {@code capacity} is an {@link IOException} (MPI truncates).
     */
    void mrecv(MpiBuffer buffer, int offset, int capacity, MpiSlots messages, int slot, MpiStatus status)
            throws IOException;

    /** Starts receiving a message matched by {@link #improbe} ({@code MPI_Imrecv}). */
    void imrecv(MpiBuffer buffer, int offset, int capacity, MpiSlots messages, int slot, MpiSlots requests,
            int requestSlot) throws IOException;

    /** Frees the communicator and finalizes MPI; every request must have completed. */
    void finish() throws IOException;

    /** Ends every process of the job ({@code MPI_Abort}); does not return. */
    void abort(int exitCode);
}
