package ibis.impl.mpi;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transport's side of {@link MpiProcess}, one per process: takes the CONTROL, DATA and CREDIT
 * messages ({@link MpiTags}) that {@link MpiProcess#poll()} matches and routes them to the transport
 * instance (CONTROL: the tag's id is the instance) or the connection end (DATA, CREDIT: the id is the
 * receiving end's id, unique in this process and never reused, so a late message of a closed
 * connection never reaches a new one).
 *
 * <p>Connection set-up needs no side channel (CONTROL message bodies, big-endian ints):
 *
 * <table>
 * <caption>CONTROL messages</caption>
 * <tr><th>type</th><th>fields</th><th>meaning</th></tr>
 * <tr><td>1 CONNECT</td><td>connector's end id, connector's instance, connector's window</td><td>to the
 * target instance: open a connection</td></tr>
 * <tr><td>2 ACCEPT</td><td>connector's end id, acceptor's end id, acceptor's window</td><td>to the
 * connector's instance: accepted</td></tr>
 * <tr><td>3 REFUSE</td><td>connector's end id</td><td>no such instance (it was closed)</td></tr>
 * </table>
 *
 * <p>A CONNECT is handled on one control thread (it sends the reply and hands the new connection to
 * the Ibis); everything else runs in the polling thread and allocates nothing per DATA or CREDIT
 * message. The {@linkplain #keeper send keeper} progresses sends in flight while nobody else is in
 * MPI.
 */
final class MpiRouter {

    private static final Logger LOG = LoggerFactory.getLogger(MpiRouter.class);

    static final int CONNECT = 1;
    static final int ACCEPT = 2;
    static final int REFUSE = 3;
    /** Longest CONTROL message accepted. */
    private static final int CONTROL_BYTES = 16;
    private static final int CHUNK_BITS = 12;
    private static final int CHUNK = 1 << CHUNK_BITS;

    private static MpiRouter instance;

    private final MpiProcess process;
    private final MpiTags tags;
    private final AtomicInteger nextInstance = new AtomicInteger();
    private final Map<Integer, MpiTransport> transports = new ConcurrentHashMap<>();
    private final AtomicInteger nextEnd = new AtomicInteger(1);
    /** Connection ends by id, in chunks of {@link #CHUNK}; grown under this object's lock. */
    private volatile AtomicReferenceArray<MpiConnection>[] ends;
    /** Connects waiting for their ACCEPT or REFUSE, by the connector's end id. */
    private final Map<Integer, MpiConnection> pending = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<int[]> connectRequests = new LinkedBlockingQueue<>();
    /** The control thread: takes the connect requests and answers them. */
    private final Thread acceptor;
    private final MpiBuffer control;
    private final MpiSendKeeper keeper;

    @SuppressWarnings("unchecked")
    private MpiRouter(MpiProcess process) {
        this.process = process;
        this.tags = process.tags();
        this.ends = new AtomicReferenceArray[] {new AtomicReferenceArray<>(CHUNK)};
        this.control = MpiBuffer.allocate(process, CONTROL_BYTES);
        this.keeper = new MpiSendKeeper(process);
        acceptor = new Thread(this::acceptLoop, "ibis-mpi-control");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The router of this process, made (and its receivers registered) on first use. */
    static synchronized MpiRouter get(MpiProcess process) throws IOException {
        if (instance == null) {
            MpiRouter router = new MpiRouter(process);
            process.register(MpiTags.CONTROL, router::control);
            process.register(MpiTags.DATA, router::data);
            process.register(MpiTags.CREDIT, router::credit);
            instance = router;
        }
        return instance;
    }

    MpiProcess process() {
        return process;
    }

    MpiSendKeeper keeper() {
        return keeper;
    }

    /** Adds a transport; returns its instance number. */
    int add(MpiTransport transport) throws IOException {
        int number = nextInstance.getAndIncrement();
        if (number > tags.maxId()) {
            throw new IOException("too many MPI transport instances in this process (" + number + ")");
        }
        transports.put(number, transport);
        return number;
    }

    void remove(int number) {
        transports.remove(number);
    }

    /** A new connection end id, never used before in this process. */
    int newEndId() throws IOException {
        int id = nextEnd.getAndIncrement();
        if (id > tags.maxId() || id <= 0) {
            throw new IOException("this process ran out of MPI connection ids (" + tags.maxId() + " used)");
        }
        return id;
    }

    /** Makes a connection end reachable by its id. */
    void register(MpiConnection end) {
        int id = end.id();
        AtomicReferenceArray<MpiConnection>[] chunks = ends;
        if (id >>> CHUNK_BITS >= chunks.length) {
            synchronized (this) {
                chunks = ends;
                if (id >>> CHUNK_BITS >= chunks.length) {
                    @SuppressWarnings("unchecked")
                    AtomicReferenceArray<MpiConnection>[] grown = new AtomicReferenceArray[Math.max(chunks.length * 2,
                            (id >>> CHUNK_BITS) + 1)];
                    System.arraycopy(chunks, 0, grown, 0, chunks.length);
                    for (int i = chunks.length; i < grown.length; i++) {
                        grown[i] = new AtomicReferenceArray<>(CHUNK);
                    }
                    ends = grown;
                    chunks = grown;
                }
            }
        }
        chunks[id >>> CHUNK_BITS].set(id & (CHUNK - 1), end);
    }

    /** Makes a connection end unreachable; later messages for it are dropped. */
    void unregister(MpiConnection end) {
        AtomicReferenceArray<MpiConnection>[] chunks = ends;
        int id = end.id();
        if (id >>> CHUNK_BITS < chunks.length) {
            chunks[id >>> CHUNK_BITS].compareAndSet(id & (CHUNK - 1), end, null);
        }
        pending.remove(id);
    }

    private MpiConnection end(int id) {
        AtomicReferenceArray<MpiConnection>[] chunks = ends;
        return id >>> CHUNK_BITS < chunks.length ? chunks[id >>> CHUNK_BITS].get(id & (CHUNK - 1)) : null;
    }

    /** Sends a CONTROL message (blocking; not from the polling thread). */
    void sendControl(int rank, int instanceNumber, int type, int a, int b, int c) throws IOException {
        MpiBuffer buffer = MpiBuffer.allocate(process, CONTROL_BYTES);
        buffer.buffer().putInt(0, type).putInt(4, a).putInt(8, b).putInt(12, c);
        process.send(rank, tags.tag(MpiTags.CONTROL, instanceNumber), buffer, 0, CONTROL_BYTES);
    }

    /** Waits for the ACCEPT or REFUSE of a connect ({@link MpiConnection#connected}). */
    void expectReply(MpiConnection end) {
        pending.put(end.id(), end);
    }

    // ------------------------------------------------------------------ receivers (polling thread)

    private void control(MpiMatch match) throws IOException {
        if (match.length() != CONTROL_BYTES) {
            LOG.warn("dropped a CONTROL message of {} bytes from rank {}", match.length(), match.source());
            return;
        }
        match.receive(control, 0, CONTROL_BYTES);
        ByteBuffer b = control.buffer();
        int type = b.getInt(0);
        int endId = b.getInt(4);
        switch (type) {
            case CONNECT:
                connectRequests.add(new int[] {match.source(), match.id(), endId, b.getInt(8), b.getInt(12)});
                LockSupport.unpark(acceptor); // parked between its looks, when another thread polled
                break;
            case ACCEPT:
            case REFUSE: {
                MpiConnection end = pending.remove(endId);
                if (end == null || end.peerRank() != match.source()) {
                    LOG.debug("late or stray CONTROL {} from rank {} for end {}", type, match.source(), endId);
                } else {
                    end.replied(type == ACCEPT, b.getInt(8), b.getInt(12));
                }
                break;
            }
            default:
                LOG.warn("dropped a CONTROL message of unknown type {} from rank {}", type, match.source());
        }
    }

    private void data(MpiMatch match) throws IOException {
        MpiConnection end = end(match.id());
        if (end == null || end.peerRank() != match.source()) {
            // Regular at the end: the peer's last DATA (or its CLOSE) crossed this end's close.
            LOG.debug("dropped {} DATA bytes from rank {} for closed end {}", match.length(), match.source(),
                    match.id());
            match.discard();
            return;
        }
        end.source().deliver(match);
    }

    private void credit(MpiMatch match) throws IOException {
        MpiConnection end = end(match.id());
        if (end == null || end.peerRank() != match.source()) {
            // Regular at the end: the receiver's last CREDIT crossed this end's close.
            LOG.debug("dropped a CREDIT from rank {} for closed end {}", match.source(), match.id());
            match.discard();
            return;
        }
        end.sink().credit(match);
    }

    // ------------------------------------------------------------------ accepting (control thread)

    private void acceptLoop() {
        boolean failedBefore = false;
        while (true) {
            // Drives MPI when no other thread does: nobody else may be waiting for a message here.
            try {
                process.awaitInBackground(() -> !connectRequests.isEmpty(), 0);
            } catch (InterruptedIOException e) {
                return;
            } catch (IOException e) {
                // A receiver's failure belongs to its message: go on (and say it once at warn level).
                if (failedBefore) {
                    LOG.debug("polling MPI for connection requests failed again: {}", e.toString());
                } else {
                    LOG.warn("polling MPI for connection requests failed: {}", e.toString());
                }
                failedBefore = true;
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                continue;
            }
            int[] request = connectRequests.poll();
            int rank = request[0];
            int target = request[1];
            int connectorEnd = request[2];
            int connectorInstance = request[3];
            int window = request[4];
            try {
                MpiTransport transport = transports.get(target);
                if (transport == null) {
                    sendControl(rank, connectorInstance, REFUSE, connectorEnd, 0, 0);
                    continue;
                }
                transport.accepted(rank, connectorEnd, connectorInstance, window);
            } catch (IOException | RuntimeException e) {
                LOG.warn("accepting a connection from rank {} failed: {}", rank, e.toString());
            }
        }
    }
}
