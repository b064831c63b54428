package ibis.impl.mpi;

import java.nio.ByteBuffer;

/**
 * The JNI glue over the MPI C API ({@code src/main/c/ibis_mpi.c}): library {@code ibis-mpi} compiled
 * against Open MPI, {@code ibis-mpi-mpich} against MPICH; {@link NativeLibrary} loads the one that
 * matches the MPI the process runs under.
 *
 * <p>All traffic uses one duplicate of {@code MPI_COMM_WORLD} made by {@link #init}, so that Ibis'
 * messages never match an application's own MPI messages; its error handler returns errors instead
 * of aborting the job.
 *
 * <p>Memory is passed as the address of a direct buffer ({@link #address}, looked up once per buffer
 * at set-up) plus a length. A request is an {@code MPI_Request} the glue stores at an address the
 * caller owns: a slot of {@link #requestSize()} bytes in a direct buffer, reused once the request
 * completed; a matched message ({@code MPI_Message}, from {@link #improbe}) likewise, in a slot of
 * {@link #messageSize()} bytes. A status is four native-order ints at an address the caller owns
 * ({@link #STATUS_BYTES}): source ({@link #STATUS_SOURCE}), tag, byte count and cancelled (0 or 1);
 * 0 as address means "not needed".
 *
 * <p>The hot-path methods ({@link #isend}, {@link #irecv}, {@link #test}, {@link #await},
 * {@link #iprobe}, {@link #improbe}, {@link #mrecv}, {@link #imrecv}, {@link #cancel}) take primitive
 * arguments only; they create no Java object, no JNI reference and allocate no native memory. They
 * return 0 (or 1 for "completed" / "found") or the negated MPI error code, which
 * {@link #errorString} names.
 *
 * <p>Call {@link NativeLibrary#load()} before any method of this class.
 */
final class MpiNative {

    /** {@code MPI_THREAD_SINGLE}, as this class numbers the levels (MPI's own values may differ). */
    static final int THREAD_SINGLE = 0;
    /** {@code MPI_THREAD_FUNNELED}. */
    static final int THREAD_FUNNELED = 1;
    /** {@code MPI_THREAD_SERIALIZED}. */
    static final int THREAD_SERIALIZED = 2;
    /** {@code MPI_THREAD_MULTIPLE}. */
    static final int THREAD_MULTIPLE = 3;

    /** Any sender ({@code MPI_ANY_SOURCE}, whose value differs between MPI libraries). */
    static final int ANY_SOURCE = -1;
    /** Any tag ({@code MPI_ANY_TAG}). */
    static final int ANY_TAG = -1;

    /** The size of a status record: four ints. */
    static final int STATUS_BYTES = 16;
    /** Byte offset of the sender's rank in a status record. */
    static final int STATUS_SOURCE = 0;
    /** Byte offset of the tag in a status record. */
    static final int STATUS_TAG = 4;
    /** Byte offset of the received byte count in a status record. */
    static final int STATUS_COUNT = 8;
    /** Byte offset of the cancelled flag (0 or 1) in a status record. */
    static final int STATUS_CANCELLED = 12;

    private MpiNative() {
    }

    // ---------------------------------------------------------------- set-up (objects allowed)

    /** The first line of {@code MPI_Get_library_version}; callable before {@link #init}. */
    static native String version();

    /** The MPI this library was compiled against: {@code "openmpi"} or {@code "mpich"}. */
    static native String flavour();

    /**
     * Initializes MPI ({@code MPI_Init_thread}) unless it already is, and duplicates
     * {@code MPI_COMM_WORLD} for Ibis' traffic.
     *
     * @param required the thread level asked for, {@link #THREAD_SINGLE} to {@link #THREAD_MULTIPLE}
     * @return the thread level MPI provides (same numbering), which may be lower than asked
     * @throws java.io.IOException when MPI fails; the message names the call and MPI's error text
     */
    static native int init(int required) throws java.io.IOException;

    /** This process' rank in {@code MPI_COMM_WORLD}; -1 before {@link #init}. */
    static native int rank();

    /** The number of processes in {@code MPI_COMM_WORLD}; -1 before {@link #init}. */
    static native int size();

    /** The largest tag MPI allows ({@code MPI_TAG_UB}, at least 32767); -1 before {@link #init}. */
    static native int tagUpperBound();

    /** {@code sizeof(MPI_Request)}: the size of a request slot (8 in Open MPI, 4 in MPICH). */
    static native int requestSize();

    /** {@code sizeof(MPI_Message)}: the size of a matched-message slot. */
    static native int messageSize();

    /** The address of a direct buffer's memory (its position is not added). */
    static native long address(ByteBuffer direct);

    /** MPI's text for an error code (negated or not). */
    static native String errorString(int code);

    /**
     * Frees the duplicate communicator and finalizes MPI ({@code MPI_Finalize}); returns at once when
     * MPI is finalized already. Every request must have completed.
     *
     * @return 0, or the negated MPI error code
     */
    static native int finalizeMpi();

    /** Ends every process of the job ({@code MPI_Abort} on {@code MPI_COMM_WORLD}); does not return. */
    static native void abort(int exitCode);

    // ---------------------------------------------------------------- hot path (primitives only)

    /**
     * Starts sending {@code length} bytes at {@code address} to rank {@code destination}
     * ({@code MPI_Isend}); the memory must stay untouched until the request completed.
     *
     * @param request address of a request slot that receives the {@code MPI_Request}
     * @return 0, or the negated MPI error code
     */
    static native int isend(long address, int length, int destination, int tag, long request);

    /**
     * {@link #isend}, then {@code MPI_Test} of the request: one call into native code for a send that
     * usually completes at once (a small message that MPI copies out eagerly).
     *
     * @return 1 when the send completed, 0 when it is still in flight, or the negated MPI error code
     */
    static native int isendTest(long address, int length, int destination, int tag, long request);

    /**
     * A bulk message: an announcement of two native-order ints (tag, length) with tag
     * {@code announceTag} on the main communicator ({@code MPI_Send}: eight bytes go out eagerly),
     * then the bytes with {@code tag} on the bulk communicator ({@code MPI_Isend}), then
     * {@code MPI_Test} of that request.
     *
     * @return 1 when the bytes' send completed, 0 when it is still in flight, or the negated MPI error
     *     code
     */
    static native int isendBulkTest(long address, int length, int destination, int tag, int announceTag,
            long request);

    /**
     * Receives announced bulk bytes from {@code source} with {@code tag} on the bulk communicator
     * ({@code MPI_Recv}); blocks while they arrive.
     *
     * @return 0, or the negated MPI error code
     */
    static native int recvBulk(long address, int capacity, int source, int tag, long status);

    /**
     * Starts receiving at most {@code capacity} bytes into {@code address} ({@code MPI_Irecv}).
     *
     * @param source a rank or {@link #ANY_SOURCE}
     * @param tag a tag or {@link #ANY_TAG}
     * @param request address of a request slot that receives the {@code MPI_Request}
     * @return 0, or the negated MPI error code
     */
    static native int irecv(long address, int capacity, int source, int tag, long request);

    /**
     * {@link #irecv} into {@code postRequest}, then {@link #test} of {@code testRequest}: one call into
     * native code for the landing receives' step (post the last slot again, test the oldest).
     *
     * @return 1 when the tested request completed, 0 when not yet, or the negated MPI error code
     */
    static native int irecvTest(long address, int capacity, int source, int tag, long postRequest, long testRequest,
            long status);

    /**
     * Tests a request ({@code MPI_Test}); when it completed, MPI released it and its status is
     * stored at {@code status}.
     *
     * @return 1 when completed, 0 when not yet, or the negated MPI error code
     */
    static native int test(long request, long status);

    /**
     * {@link #test} up to {@code polls} times in a row, without returning to Java in between: the
     * wait of a thread that expects a message soon, at the granularity of {@code MPI_Test} itself.
     *
     * @return 1 when completed, 0 when not yet, or the negated MPI error code
     */
    static native int testSpin(long request, long status, int polls);

    /**
     * Blocks until a request completed ({@code MPI_Wait}) and stores its status at {@code status}.
     *
     * @return 0, or the negated MPI error code
     */
    static native int await(long request, long status);

    /**
     * Looks for a message without receiving it ({@code MPI_Iprobe}); when there is one its status
     * (sender, tag, byte count) is stored at {@code status}.
     *
     * @return 1 when a message matches, 0 when none does, or the negated MPI error code
     */
    static native int iprobe(int source, int tag, long status);

    /**
     * Asks MPI to cancel a request ({@code MPI_Cancel}); the request must still be completed with
     * {@link #test} or {@link #await}, whose status says whether the cancel succeeded.
     *
     * @return 0, or the negated MPI error code
     */
    static native int cancel(long request);

    /**
     * Looks for a message and, when there is one, takes it out of MPI's matching
     * ({@code MPI_Improbe}): no other probe or receive can match it any more, so a thread that found
     * it is the one that receives it, with {@link #mrecv} or {@link #imrecv}. Its status (sender,
     * tag, byte count) is stored at {@code status}.
     *
     * @param message address of a message slot that receives the {@code MPI_Message}
     * @return 1 when a message was matched, 0 when none matches, or the negated MPI error code
     */
    static native int improbe(int source, int tag, long message, long status);

    /**
     * Receives a message matched by {@link #improbe} into {@code address} ({@code MPI_Mrecv}); blocks
     * only while its data arrives.
     *
     * @return 0, or the negated MPI error code
     */
    static native int mrecv(long address, int capacity, long message, long status);

    /**
     * Starts receiving a message matched by {@link #improbe} ({@code MPI_Imrecv}).
     *
     * @param request address of a request slot that receives the {@code MPI_Request}
     * @return 0, or the negated MPI error code
     */
    static native int imrecv(long address, int capacity, long message, long request);
}
