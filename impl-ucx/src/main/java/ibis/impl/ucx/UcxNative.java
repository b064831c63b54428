package ibis.impl.ucx;

/**
 * The JNI glue over UCX's UCP layer ({@code src/main/c/ibis_ucx.c}, library {@code ibis-ucx}).
 *
 * <p>Handles are C pointers passed as {@code long}: a <em>worker</em> (our struct holding one UCP
 * context and one UCP worker, thread mode multi), an <em>endpoint</em> (our struct holding the
 * {@code ucp_ep_h} and the status its error handler recorded, for {@link #endpointError}), a
 * <em>request</em> (a UCP request pointer) and a <em>message</em> ({@code ucp_tag_message_h} from a
 * probe). Java only passes them around. Memory is passed as the address of a direct buffer
 * ({@link #address}, looked up once per buffer at set-up) plus a length.
 *
 * <p>The hot-path methods ({@link #send}, {@link #probe}, {@link #peek}, {@link #receiveMessage},
 * {@link #requestStatus}, {@link #requestFree}, {@link #progress}, {@link #arm}, {@link #waitEvent})
 * take primitive arguments only; they create no Java object and no JNI reference. The set-up
 * methods may.
 *
 * <p>Status codes are UCX's {@code ucs_status_t}: 0 is {@code UCS_OK}, 1 {@code UCS_INPROGRESS},
 * negative values are errors ({@link #statusString} names them). The C glue checks at compile time
 * that the constants below equal UCX's.
 *
 * <p>Call {@link NativeLibrary#load()} before any method of this class.
 */
final class UcxNative {

    /** {@code UCS_OK}. */
    static final int OK = 0;
    /** {@code UCS_INPROGRESS}. */
    static final int IN_PROGRESS = 1;
    /** {@code UCS_ERR_BUSY}: {@link #arm} found events to progress first. */
    static final int ERR_BUSY = -15;

    /** No peer error handling: fastest, and UCX 1.13 keeps shared memory transports. */
    static final int ERROR_MODE_NONE = 0;
    /** {@code UCP_ERR_HANDLING_MODE_PEER}: failures of the peer are reported (no shared memory in UCX 1.13). */
    static final int ERROR_MODE_PEER = 1;

    private UcxNative() {
    }

    // ---------------------------------------------------------------- set-up (objects allowed)

    /** The UCX library's version, {@code ucp_get_version_string()}. */
    static native String version();

    /**
     * Creates a UCP context (features TAG and WAKEUP) and one worker in thread mode MULTI, with
     * UCX's configuration read from the environment ({@code UCX_*}).
     *
     * @param rndvThresh UCX's {@code RNDV_THRESH} for this context ({@code inf}, {@code auto} or a
     *        byte count), or null for UCX's own; ignored when {@code UCX_RNDV_THRESH} is set in the
     *        environment (the user's setting wins)
     * @return the worker handle (never 0)
     * @throws java.io.IOException when UCX fails; the message names the failing call and status
     */
    static native long workerCreate(String rndvThresh) throws java.io.IOException;

    /** The worker's address ({@code ucp_worker_get_address}), to be sent to peers. */
    static native byte[] workerAddress(long worker) throws java.io.IOException;

    /**
     * Creates an endpoint to the worker with the given address.
     *
     * @param errorMode {@link #ERROR_MODE_NONE} or {@link #ERROR_MODE_PEER}
     * @return the endpoint handle
     * @throws java.io.IOException when UCX fails
     */
    static native long endpointCreate(long worker, byte[] address, int errorMode) throws java.io.IOException;

    /**
     * UCX's description of an endpoint ({@code ucp_ep_print_info}): its transports and lanes, and
     * the message sizes of each protocol (eager, rendezvous) per operation, such as
     * {@code tag_send_nbr: 0..<egr/short>..8185..<egr/bcopy>..(inf)}. For logs and tests.
     */
    static native String endpointInfo(long endpoint);

    /**
     * Closes an endpoint ({@code ucp_ep_close_nbx}), progressing the worker until the close completes
     * or {@code timeoutMillis} passed. An endpoint made with {@link #ERROR_MODE_PEER} is closed
     * forcibly when {@code force} is set or it recorded an error, else in flush mode; UCX allows no
     * forced close of other endpoints, so {@code force} does not apply to them. When the time runs
     * out the close is left to UCX, which releases the endpoint when its flush ends (a failed peer
     * ends it in peer mode) or in {@link #workerDestroy}; UCX allows no second close to force it.
     * Either way the handle is invalid afterwards.
     */
    static native void endpointClose(long worker, long endpoint, boolean force, int timeoutMillis);

    /**
     * The error status the endpoint's error callback recorded (0 when none); only endpoints made
     * with {@link #ERROR_MODE_PEER} ever get one.
     */
    static native int endpointError(long endpoint);

    /**
     * Destroys the worker and its context, and with them the endpoints not closed yet. No other call
     * may use the worker's handle or its endpoints' afterwards.
     */
    static native void workerDestroy(long worker);

    /** UCX's text for a status, {@code ucs_status_string}. */
    static native String statusString(int status);

    /**
     * The address of a direct buffer's memory ({@code GetDirectBufferAddress}), to be cached by the
     * caller for as long as it holds the buffer.
     *
     * @throws IllegalArgumentException when the buffer is not direct
     */
    static native long address(java.nio.ByteBuffer direct);

    // ---------------------------------------------------------------- hot path (primitives only)

    /**
     * Posts a tagged send of {@code length} bytes at {@code address} ({@code ucp_tag_send_nbx}).
     *
     * @return 0 when it completed at once (the memory may be reused), a request handle (positive)
     *         while it is in progress (the memory must stay untouched until {@link #requestStatus}
     *         says it is done), or a negative status on failure
     */
    static native long send(long worker, long endpoint, long tag, long address, long length);

    /**
     * Looks for an arrived message whose tag matches {@code tag} under {@code mask}
     * ({@code ucp_tag_probe_nb} with remove = 1). When one is found, its length (8 bytes) and its
     * sender tag (8 bytes) are stored in native byte order at {@code infoAddress}.
     *
     * @return the message handle, to be passed to {@link #receiveMessage} exactly once, or 0 when
     *         none matched
     */
    static native long probe(long worker, long tag, long mask, long infoAddress);

    /**
     * For a reader waiting for its next message: up to {@code polls} times, progresses the worker
     * once and looks for a message as {@link #probe} does, without returning to Java in between;
     * stops early (with none) after a progress that handled events. The events handled in all are
     * stored (8 bytes, native order) at {@code infoAddress + 16}.
     *
     * @return the message handle as {@link #probe} returns it, or 0
     */
    static native long progressProbe(long worker, long tag, long mask, long infoAddress, int polls);

    /**
     * Whether a message whose tag matches {@code tag} under {@code mask} has arrived, leaving it
     * queued ({@code ucp_tag_probe_nb} with remove = 0). Any thread may look for another: it
     * takes nothing, so the owner of the tag still finds the message with {@link #probe}.
     *
     * @return 1 when one matched, else 0
     */
    static native int peek(long worker, long tag, long mask);

    /**
     * Receives a probed message into {@code length} bytes at {@code address}
     * ({@code ucp_tag_msg_recv_nbx}); {@code length} must be the message's length.
     *
     * @return 0 when it completed at once, a request handle while in progress, or a negative status
     */
    static native long receiveMessage(long worker, long message, long address, long length);

    /**
     * The status of a request: {@link #OK} when done, {@link #IN_PROGRESS}, or a negative error.
     * Does not progress the worker.
     */
    static native int requestStatus(long request);

    /** Releases a request that is done ({@code ucp_request_free}). */
    static native void requestFree(long request);

    /** Cancels a request in progress ({@code ucp_request_cancel}); it still has to be freed when done. */
    static native void requestCancel(long worker, long request);

    /** Progresses the worker once ({@code ucp_worker_progress}); returns the number of events handled. */
    static native int progress(long worker);

    /**
     * Arms the worker's event file descriptor ({@code ucp_worker_arm}).
     *
     * @return {@link #OK} when armed (the caller checks its condition once more, then waits), or
     *         {@link #ERR_BUSY} when events are pending (progress instead of waiting), or another error
     */
    static native int arm(long worker);

    /**
     * Waits until the worker's event file descriptor or its wake-up signal fires, or
     * {@code timeoutMillis} passed ({@code poll(2)}, retried on {@code EINTR}; a negative time-out
     * waits without limit). Call only after {@link #arm} returned {@link #OK}.
     *
     * @return 1 when woken by an event, 0 when the time ran out, a negative status on failure
     */
    static native int waitEvent(long worker, int timeoutMillis);

    /** Wakes every thread in {@link #waitEvent} on this worker ({@code ucp_worker_signal}). */
    static native int signal(long worker);
}
