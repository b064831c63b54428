package ibis.impl.ucx;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the two ends of one UCX connection share: the UCP endpoint to the peer's worker, the
 * connection ids of both sides (they form the tags, see below), and the side channel, a TCP socket
 * that carries nothing after the set-up but tells whether the peer is alive (the kernel closes it
 * when the peer's process dies) and whether the peer's source has closed (one byte,
 * {@link #SOURCE_CLOSED}).
 *
 * <p>Tags (64 bits): bits 63..32 are the connection id of the receiving side, bits 31..28 the kind
 * ({@link #KIND_DATA}, {@link #KIND_CLOSE}, {@link #KIND_CREDIT}, {@link #KIND_HELD}), the rest 0. A
 * source probes its id with {@link #SOURCE_MASK}, which matches data, held data and close (so they
 * come in send order) but not credit; a sink probes its id and kind credit exactly.
 *
 * <p>Life cycle: each end holds the connection once; when both have closed, the endpoint is closed
 * (flushed, bounded by the close time-out; at once when the peer is gone), requests the ends could
 * not finish are released, the side socket is closed and the worker reference is dropped.
 */
final class UcxConnection {

    private static final Logger LOG = LoggerFactory.getLogger(UcxConnection.class);

    /** A block of the byte stream. */
    static final int KIND_DATA = 1;
    /** The end of the byte stream; 8 bytes: the number of data bytes sent (big-endian). */
    static final int KIND_CLOSE = 2;
    /** Credit; 8 bytes: the number of data bytes the receiver has consumed in all (big-endian). */
    static final int KIND_CREDIT = 4;
    /**
     * A block of the byte stream sent from the application's memory: the sender waits until it is
     * received, so any thread of the receiving process that finds one takes it, for the reader
     * ({@link UcxByteSource#adoptHeld}).
     */
    static final int KIND_HELD = 8;
    /** The kind bits of a tag. */
    static final long KIND_MASK = 0xF000_0000L;

    /** Matches the connection id and kinds data, held data and close, not credit (bit 30). */
    static final long SOURCE_MASK = 0xFFFF_FFFF_4000_0000L;
    /** Every bit of a tag. */
    static final long EXACT_MASK = -1L;
    /** The bits of a tag below the kind, always 0. */
    static final long RESERVED_BITS = 0x0FFF_FFFFL;

    /** Side channel byte: the sender's source closed, it reads nothing more. */
    static final byte SOURCE_CLOSED = 'S';

    /** How long a source goes on looking for messages after the side channel closed: the CLOSE may lag. */
    private static final long LOST_GRACE_NANOS = 250_000_000L;
    /** How long a close waits for the endpoint's flush before it leaves that to the send keeper. */
    private static final int FLUSH_WAIT_MILLIS = 20;
    /** The side channel is looked at no more often than this (it is a system call). */
    private static final long SIDE_CHECK_NANOS = 2_000_000L;

    final UcxWorker worker;
    /** Valid until the connection is torn down, that is while an end is open or a call runs in one. */
    final long endpoint;
    final int localId;
    final int peerId;
    /** The credit window of the peer's sink: our source's pace of credits. */
    final int peerWindow;
    /** The peer is this transport's own worker (UCX's self transport raises no event). */
    final boolean loopback;
    final String peer;
    private final SocketChannel side;
    private final ByteBuffer sideBytes = ByteBuffer.allocate(16);
    private final int closeTimeoutMillis;

    private final UcxByteSink sink;
    private final UcxByteSource source;

    /** The ends still open (2, 1, then 0: torn down). */
    private final AtomicInteger holds = new AtomicInteger(2);

    /** The worker's {@link SideWatcher} reads the side channel when it becomes readable. */
    private final boolean sideWatched;
    /** UCX reports failed peers ({@code ibis.ucx.error.mode=peer}): the ends ask it now and then. */
    private final boolean peerErrorMode;

    // Guarded by this (side channel reads).
    private long nextSideCheck;
    private boolean sideClosed;
    private volatile IOException lost;
    private volatile long lostSince;
    private volatile boolean peerSourceClosed;

    /**
     * Takes over {@code endpoint}, {@code side} (non-blocking) and one reference of {@code worker}.
     *
     * @param settings window, message size and close time-out of our ends
     */
    UcxConnection(UcxWorker worker, long endpoint, int localId, int peerId, int peerWindow, boolean loopback,
            SocketChannel side, String peer, UcxTransport.Settings settings) {
        this.worker = worker;
        this.endpoint = endpoint;
        this.localId = localId;
        this.peerId = peerId;
        this.peerWindow = peerWindow;
        this.loopback = loopback;
        this.side = side;
        this.peer = peer;
        this.closeTimeoutMillis = settings.closeTimeoutMillis();
        this.sink = new UcxByteSink(this, settings.window(), settings.messageMax(), settings.closeTimeoutMillis());
        this.source = new UcxByteSource(this, settings.closeTimeoutMillis());
        this.peerErrorMode = settings.errorMode() == UcxNative.ERROR_MODE_PEER;
        this.sideWatched = worker.sideWatcher.watch(this);
    }

    /** The tag of a message of {@code kind} to connection {@code id}. */
    static long tag(int id, int kind) {
        return ((id & 0xFFFF_FFFFL) << 32) | ((long) kind << 28);
    }

    UcxByteSink sink() {
        return sink;
    }

    UcxByteSource source() {
        return source;
    }

    /**
     * Looks at the side channel (at most every {@value #SIDE_CHECK_NANOS} ns unless {@code now}):
     * notes a closed socket (the peer is gone) and the peer's {@link #SOURCE_CLOSED} byte. Also
     * notes a failure UCX reported for the endpoint (peer error mode only).
     */
    synchronized void pollSide(boolean now) {
        if (lost != null || sideClosed) {
            return;
        }
        long t = System.nanoTime();
        if (!now && t - nextSideCheck < 0) {
            return;
        }
        nextSideCheck = t + SIDE_CHECK_NANOS;
        if (!readSide()) {
            return;
        }
        int error = UcxNative.endpointError(endpoint);
        if (error != 0) {
            noteLost("UCX reports " + UcxNative.statusString(error), null);
        }
    }

    /**
     * For the {@link SideWatcher}: the side channel became readable; reads what it has (the peer's
     * source closed, or the peer is gone). Does not touch the endpoint: the connection may be torn
     * down meanwhile.
     *
     * @return whether the side channel is still worth watching
     */
    synchronized boolean sideReadable() {
        return lost == null && !sideClosed && readSide();
    }

    /** The side channel, for the {@link SideWatcher}. */
    SocketChannel sideChannel() {
        return side;
    }

    /**
     * Whether the ends look at the side channel themselves: it is not watched, or UCX's own
     * failure reports must be asked for.
     */
    private boolean looksAtSide() {
        return !sideWatched || peerErrorMode || worker.sideWatcher.broken();
    }

    /** Reads what the side channel has, with the monitor held; false when the peer was found lost. */
    private boolean readSide() {
        try {
            while (true) {
                sideBytes.clear();
                int n = side.read(sideBytes);
                if (n < 0) {
                    noteLost("the peer closed the side channel", null);
                    return false;
                }
                if (n == 0) {
                    return true;
                }
                for (int i = 0; i < n; i++) {
                    if (sideBytes.get(i) != SOURCE_CLOSED) {
                        noteLost("protocol error on the side channel (byte " + sideBytes.get(i) + ")", null);
                        return false;
                    }
                    peerSourceClosed = true;
                }
            }
        } catch (IOException e) {
            noteLost("the side channel failed: " + e.getMessage(), e);
            return false;
        }
    }

    private void noteLost(String why, IOException cause) {
        lostSince = System.nanoTime();
        lost = new IOException("connection to " + peer + " lost: " + why, cause);
        LOG.debug("{}", lost.getMessage());
    }

    /** For a sink: throws when the peer is gone or its source no longer reads. */
    void checkWritable() throws IOException {
        if (looksAtSide()) {
            pollSide(false);
        }
        IOException e = lost;
        if (e != null) {
            throw new IOException(e.getMessage(), e);
        }
        if (peerSourceClosed) {
            throw new IOException("connection to " + peer + " closed by the peer (its receiving end closed)");
        }
    }

    /**
     * For a source: throws when the peer is gone, after a short grace (its last messages may arrive
     * after the side channel closed).
     */
    void checkReadable() throws IOException {
        if (looksAtSide()) {
            pollSide(false);
        }
        IOException e = lost;
        if (e != null && System.nanoTime() - lostSince > LOST_GRACE_NANOS) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** Whether the peer may still read what our sink sends (looks at the side channel now). */
    boolean peerReads() {
        pollSide(true);
        return lost == null && !peerSourceClosed;
    }

    /** Whether the peer is known to be gone. */
    boolean peerLost() {
        return lost != null;
    }

    /** Tells the peer that our source reads nothing more (so its sink stops sending). */
    void sourceClosed() {
        try {
            side.write(ByteBuffer.wrap(new byte[] {SOURCE_CLOSED}));
        } catch (IOException e) {
            // the peer is gone or going: nothing to tell
        }
    }

    /** An end has closed; the second tears the connection down. */
    void release() {
        int n = holds.decrementAndGet();
        if (n == 0) {
            tearDown();
        } else if (n < 0) {
            throw new IllegalStateException("UCX connection released once too often");
        }
    }

    private void tearDown() {
        boolean gone = lost != null;
        // Flushes what is still on its way. Over shared memory that ends at once; over TCP UCX waits
        // for the peer's acknowledgement, which needs the peer to progress its worker: when that
        // does not come within a moment, the close is left to UCX and the send keeper progresses
        // this worker for the close time-out, so the flush still ends once the peer answers. Not
        // when the peer is gone, or a send the sink's close waited for did not end (the peer does
        // not take it).
        boolean flush = !gone && !sink.hasUnfinishedRequests() && !source.hasUnfinishedRequests();
        try {
            long start = System.nanoTime();
            int wait = flush ? Math.min(closeTimeoutMillis, FLUSH_WAIT_MILLIS) : 0;
            UcxNative.endpointClose(worker.handle, endpoint, gone, wait);
            worker.changedWithoutEvent(); // the close progressed the worker: it may have taken in others' messages
            if (flush && System.nanoTime() - start >= wait * 1_000_000L) {
                worker.keeper.linger(start + closeTimeoutMillis * 1_000_000L);
            }
            sink.releaseRequests();
            source.releaseRequests();
            worker.connectionEnded(localId);
        } finally {
            synchronized (this) {
                sideClosed = true; // the watcher reads it no more
            }
            try {
                side.close();
            } catch (IOException e) {
                LOG.debug("closing the side channel to {} failed: {}", peer, e.toString());
            }
            if (sideWatched) {
                worker.sideWatcher.closed();
            }
            worker.release();
        }
        LOG.debug("connection {} to {} closed", localId, peer);
    }

    @Override
    public String toString() {
        return "ucx connection " + localId + " to " + peer + " (its id " + peerId + ")";
    }
}
