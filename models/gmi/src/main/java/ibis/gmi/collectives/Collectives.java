package ibis.gmi.collectives;

import ibis.gmi.Group;
import ibis.gmi.impl.GmiRuntime;
import ibis.ipl.Ibis;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.ReceiveTimedOutException;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.util.Objects;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MPI-style collectives among the processes {@code 0..size-1} of a GMI pool (member rank = process
 * rank). Like MPI's collectives on its point-to-point layer, they carry their messages on ports of
 * their own ({@link GmiRuntime#COLLECTIVES_PORT_TYPE}, one one-to-one link per ordered pair of
 * members, opened on GMI's Ibis): a message is written straight from the user's array (a slice is
 * written in place, not copied first) and received by the thread that waits for it, into the user's
 * array or, when it is to be reduced, into a scratch array reused by later calls. So a collective
 * allocates nothing per message once warm and hands nothing to another thread.
 *
 * <p>Like an MPI communicator, every member calls the same collectives in the same order, and one
 * thread at a time uses an instance. Buffers of primitive collectives are overwritten in place;
 * all members pass arrays of the same length. A member that leaves or dies during a collective makes
 * the others' call fail with an {@link java.io.UncheckedIOException}: the member that notices tells
 * all others, and the instance stays failed (every later collective on it throws).
 *
 * <p>Algorithms (see the module README): small vectors (at most {@link #LARGE_THRESHOLD_PROPERTY}
 * bytes, default 64 KiB) use recursive doubling (allreduce) and binomial trees (reduce, broadcast,
 * allgather as gather plus broadcast); large ones use a ring reduce-scatter followed by a ring
 * allgather (allreduce; reduce gathers the reduced chunks at the root), a scatter plus ring
 * allgather (broadcast) and a ring (allgather). Objects always use the small-vector algorithms.
 *
 * <p>Deadlock freedom: where members send to each other in a cycle (exchanges with a partner, ring
 * steps), each sends a piece of at most {@link #PIECE_BYTES} before it receives the matching piece,
 * so no link ever holds more than two pieces that nobody reads; the IPL's conformance rules make
 * every implementation carry 2 MiB unread per connection. Objects, whose size is unknown, are
 * exchanged in order instead (the lower rank sends first).
 */
public final class Collectives {

    /** System property: vectors above this many bytes use the large-vector algorithms. */
    public static final String LARGE_THRESHOLD_PROPERTY = "ibis.gmi.collectives.large";

    /** The default of {@link #LARGE_THRESHOLD_PROPERTY}: 64 KiB. */
    public static final int DEFAULT_LARGE_THRESHOLD = 64 * 1024;

    /** The largest message of an exchange in a cycle (see the class comment). */
    static final int PIECE_BYTES = 512 * 1024;

    /** How often a receive that is still waiting checks whether its sender is gone. */
    private static final long LIVENESS_CHECK_MS = 50;

    /** The header of an abort message (otherwise the header is the element count); a reason follows. */
    private static final int ABORT = -1;

    private static final String PORT_PREFIX = "ibis.gmi.collectives/";

    private static final Logger LOG = LoggerFactory.getLogger(Collectives.class);
    private static final int[] EMPTY = new int[0];

    private final String name;
    private final String what;
    private final int rank;
    private final int size;
    private final long threshold;
    private final GmiRuntime gmi;
    /** {@code in[r]} receives from member r, {@code out[r]} sends to it (null at this member). */
    private final ReceivePort[] in;
    private final SendPort[] out;
    /** Received operands of reductions, by element type; grown, never shrunk. */
    private double[] doubleScratch = new double[0];
    private long[] longScratch = new long[0];
    private int[] intScratch = new int[0];
    /** Why this instance failed, or null. */
    private String failed;

    private Collectives(String name, int size, GmiRuntime gmi, ReceivePort[] in, SendPort[] out) {
        this.name = name;
        this.what = "collectives " + name;
        this.rank = gmi.processRank();
        this.size = size;
        this.gmi = gmi;
        this.in = in;
        this.out = out;
        this.threshold = Long.getLong(LARGE_THRESHOLD_PROPERTY, DEFAULT_LARGE_THRESHOLD);
    }

    /**
     * Opens the collectives {@code name} among the processes of rank {@code 0..size-1}; each of them
     * must call this (the others must not). Opens a link to every other member, waiting (up to
     * GMI's connect time-out, {@link GmiRuntime#CONNECT_TIMEOUT}) for the others to open theirs.
     *
     * @param name a name not used by other collectives of this pool
     * @param size the number of members, 1..{@link Group#size()}
     * @return this process's end
     * @throws IllegalArgumentException when this process is not among the first {@code size}
     * @throws UncheckedIOException when the links cannot be made
     */
    public static Collectives open(String name, int size) {
        int me = Group.rank();
        if (size < 1 || size > Group.size() || me >= size) {
            throw new IllegalArgumentException("collectives " + name + " of size " + size
                    + " cannot include process " + me + " of a pool of " + Group.size());
        }
        GmiRuntime gmi = GmiRuntime.get();
        Ibis ibis = gmi.ibis();
        ReceivePort[] in = new ReceivePort[size];
        SendPort[] out = new SendPort[size];
        try {
            for (int r = 0; r < size; r++) {
                if (r != me) {
                    in[r] = ibis.createReceivePort(GmiRuntime.COLLECTIVES_PORT_TYPE, portName(name, r));
                    in[r].enableConnections();
                }
            }
            for (int r = 0; r < size; r++) {
                if (r != me) {
                    out[r] = ibis.createSendPort(GmiRuntime.COLLECTIVES_PORT_TYPE);
                    out[r].connect(gmi.process(r), portName(name, me), gmi.connectTimeout(), true);
                }
            }
        } catch (IOException e) {
            closeAll(in, out);
            throw new UncheckedIOException("collectives " + name + ": cannot link process " + me
                    + " to the others (is every process of rank < " + size + " opening it?): " + e.getMessage(), e);
        }
        LOG.debug("collectives {} open: rank {} of {}", name, me, size);
        return new Collectives(name, size, gmi, in, out);
    }

    /** The name of the port at which a member receives from {@code from}. */
    private static String portName(String name, int from) {
        return PORT_PREFIX + name + "/" + from;
    }

    /**
     * Closes this member's links; later collectives on this instance fail. Members that still
     * send to this one get an exception. GMI's end closes them too.
     */
    public void close() {
        if (failed == null) {
            failed = "closed";
        }
        closeAll(in, out);
    }

    private static void closeAll(ReceivePort[] in, SendPort[] out) {
        for (SendPort p : out) {
            if (p != null) {
                try {
                    p.close();
                } catch (IOException | RuntimeException e) {
                    LOG.debug("closing a collectives send port: {}", e.toString());
                }
            }
        }
        for (ReceivePort p : in) {
            if (p != null) {
                try {
                    p.close(1000);
                } catch (IOException | RuntimeException e) {
                    LOG.debug("closing a collectives receive port: {}", e.toString());
                }
            }
        }
    }

    /** @return this member's rank */
    public int rank() {
        return rank;
    }

    /** @return the number of members */
    public int size() {
        return size;
    }

    // ---- barrier ---------------------------------------------------------------------------

    /** Returns once every member called it: dissemination, ceil(log2 size) rounds. */
    public void barrier() {
        checkUsable();
        for (int d = 1; d < size; d <<= 1) {
            send((rank + d) % size, EMPTY, 0, 0);
            receive((rank - d + size) % size, EMPTY, 0, 0, null, false);
        }
    }

    // ---- broadcast -------------------------------------------------------------------------

    /** Copies {@code buf} of {@code root} into every member's {@code buf}. */
    public void broadcast(double[] buf, int root) {
        broadcastArray(buf, root, 8);
    }

    /** Copies {@code buf} of {@code root} into every member's {@code buf}. */
    public void broadcast(long[] buf, int root) {
        broadcastArray(buf, root, 8);
    }

    /** Copies {@code buf} of {@code root} into every member's {@code buf}. */
    public void broadcast(int[] buf, int root) {
        broadcastArray(buf, root, 4);
    }

    /**
     * @param value the value at {@code root}; ignored elsewhere
     * @return the root's value (a copy at the other members)
     */
    @SuppressWarnings("unchecked")
    public <T> T broadcastObject(T value, int root) {
        Object[] one = { value };
        binomialBroadcast(one, root);
        return (T) one[0];
    }

    // ---- reduce / allreduce ----------------------------------------------------------------

    /** Reduces every member's {@code buf} element-wise into {@code buf} of {@code root}. */
    public void reduce(double[] buf, ReduceOp op, int root) {
        reduceArray(buf, op, root, 8);
    }

    /** Reduces every member's {@code buf} element-wise into {@code buf} of {@code root}. */
    public void reduce(long[] buf, ReduceOp op, int root) {
        reduceArray(buf, op, root, 8);
    }

    /** Reduces every member's {@code buf} element-wise into {@code buf} of {@code root}. */
    public void reduce(int[] buf, ReduceOp op, int root) {
        reduceArray(buf, op, root, 4);
    }

    /**
     * @return at {@code root} the reduction of all members' values in rank order; null elsewhere
     */
    @SuppressWarnings("unchecked")
    public <T> T reduceObject(T value, ObjectReduction<T> op, int root) {
        Object[] one = { value };
        binomialReduce(one, new Op(null, op), root);
        return rank == root ? (T) one[0] : null;
    }

    /** Reduces every member's {@code buf} element-wise into every member's {@code buf}. */
    public void allreduce(double[] buf, ReduceOp op) {
        allreduceArray(buf, op, 8);
    }

    /** Reduces every member's {@code buf} element-wise into every member's {@code buf}. */
    public void allreduce(long[] buf, ReduceOp op) {
        allreduceArray(buf, op, 8);
    }

    /** Reduces every member's {@code buf} element-wise into every member's {@code buf}. */
    public void allreduce(int[] buf, ReduceOp op) {
        allreduceArray(buf, op, 4);
    }

    /** @return the reduction of all members' values in rank order, at every member */
    @SuppressWarnings("unchecked")
    public <T> T allreduceObject(T value, ObjectReduction<T> op) {
        Object[] one = { value };
        recursiveDoubling(one, new Op(null, op));
        return (T) one[0];
    }

    // ---- allgather -------------------------------------------------------------------------

    /** @return every member's {@code mine} concatenated in rank order */
    public double[] allgather(double[] mine) {
        return (double[]) allgatherArray(mine, new double[mine.length * size], 8);
    }

    /** @return every member's {@code mine} concatenated in rank order */
    public long[] allgather(long[] mine) {
        return (long[]) allgatherArray(mine, new long[mine.length * size], 8);
    }

    /** @return every member's {@code mine} concatenated in rank order */
    public int[] allgather(int[] mine) {
        return (int[]) allgatherArray(mine, new int[mine.length * size], 4);
    }

    /** @return every member's value, index = rank */
    public Object[] allgatherObject(Object mine) {
        return (Object[]) allgatherArray(new Object[] { mine }, new Object[size], 0);
    }

    // ---- scatter ---------------------------------------------------------------------------

    /**
     * Member {@code r} gets elements {@code r*mine.length ..} of the root's {@code all} in {@code mine}.
     *
     * @param all at {@code root}, {@code size * mine.length} elements; ignored elsewhere
     */
    public void scatter(double[] all, double[] mine, int root) {
        scatterArray(all, mine, root);
    }

    /** As {@link #scatter(double[], double[], int)}. */
    public void scatter(long[] all, long[] mine, int root) {
        scatterArray(all, mine, root);
    }

    /** As {@link #scatter(double[], double[], int)}. */
    public void scatter(int[] all, int[] mine, int root) {
        scatterArray(all, mine, root);
    }

    /**
     * @param all at {@code root}, one value per member; ignored elsewhere
     * @return {@code all[rank()]} of the root
     */
    public Object scatterObject(Object[] all, int root) {
        Object[] mine = new Object[1];
        scatterArray(all, mine, root);
        return mine[0];
    }

    // ---- algorithms ------------------------------------------------------------------------

    /** A reduction: a built-in one for primitive arrays, or the user's for {@code Object[]}. */
    private static final class Op {
        final ReduceOp prim;
        final ObjectReduction<Object> obj;

        /** The operation of each built-in reduction, made once: a primitive collective allocates none. */
        private static final Op[] PRIMITIVE = new Op[ReduceOp.values().length];

        static {
            for (ReduceOp op : ReduceOp.values()) {
                PRIMITIVE[op.ordinal()] = new Op(op, null);
            }
        }

        @SuppressWarnings("unchecked")
        Op(ReduceOp prim, ObjectReduction<?> obj) {
            this.prim = prim;
            this.obj = (ObjectReduction<Object>) obj;
        }

        /** The operation of a built-in reduction. */
        static Op of(ReduceOp op) {
            return PRIMITIVE[Objects.requireNonNull(op, "the reduction operation").ordinal()];
        }

        /** {@code into[intoOff..] = lower op higher}. */
        void apply(Object lower, int lo, Object higher, int ho, Object into, int io, int len) {
            if (prim != null) {
                prim.apply(lower, lo, higher, ho, into, io, len);
            } else {
                Object[] a = (Object[]) lower;
                Object[] b = (Object[]) higher;
                Object[] c = (Object[]) into;
                for (int i = 0; i < len; i++) {
                    c[io + i] = obj.combine(a[lo + i], b[ho + i]);
                }
            }
        }
    }

    private boolean large(int len, int elementBytes) {
        return elementBytes > 0 && (long) len * elementBytes > threshold && len >= size;
    }

    private void allreduceArray(Object buf, ReduceOp op, int elementBytes) {
        checkUsable();
        if (size == 1) {
            return;
        }
        int len = Array.getLength(buf);
        if (large(len, elementBytes)) {
            ringReduceScatter(buf, Op.of(op));
            ringAllgatherChunks(buf, len, -1);
        } else {
            recursiveDoubling(buf, Op.of(op));
        }
    }

    /**
     * Recursive doubling. When the size is no power of two, the first {@code 2 * extra} members pair
     * up (even into odd) before and the odd ones hand the result back after, so the operands stay
     * contiguous in rank order. Partners combine the same two values in the same order (lower ranks
     * first), so every member ends with the same bits, and a non-commutative object reduction sees
     * the values in rank order.
     */
    private void recursiveDoubling(Object buf, Op op) {
        checkUsable();
        if (size == 1) {
            return;
        }
        int len = Array.getLength(buf);
        int p2 = Integer.highestOneBit(size);
        int extra = size - p2;
        int vr;
        if (rank < 2 * extra) {
            if (rank % 2 == 0) {
                send(rank + 1, buf, 0, len);
                receive(rank + 1, buf, 0, len, null, false);
                return;
            }
            receive(rank - 1, buf, 0, len, op, true);
            vr = rank / 2;
        } else {
            vr = rank - extra;
        }
        for (int mask = 1; mask < p2; mask <<= 1) {
            int pv = vr ^ mask;
            int partner = pv < extra ? 2 * pv + 1 : pv + extra;
            exchange(partner, buf, 0, len, partner, 0, len, op, pv < vr);
        }
        if (rank < 2 * extra) {
            send(rank - 1, buf, 0, len);
        }
    }

    private int chunkStart(int c, int len) {
        return (int) ((long) len * c / size);
    }

    /** Ring reduce-scatter: afterwards member r holds the reduced chunk (r + 1) mod size. */
    private void ringReduceScatter(Object buf, Op op) {
        int len = Array.getLength(buf);
        int right = (rank + 1) % size;
        int left = (rank - 1 + size) % size;
        for (int s = 0; s < size - 1; s++) {
            int sc = ((rank - s) % size + size) % size;
            int rc = ((rank - s - 1) % size + size) % size;
            int at = chunkStart(rc, len);
            // The partial sum travels up the ring; it holds the members before this one.
            exchange(right, buf, chunkStart(sc, len), chunkStart(sc + 1, len) - chunkStart(sc, len), left, at,
                    chunkStart(rc + 1, len) - at, op, true);
        }
    }

    /**
     * Ring allgather of chunks, member r starting with chunk (r + 1) mod size. When {@code root} is a
     * member that holds every chunk already (a broadcast's root; -1: none), nothing is sent to it: it
     * only sends, and its left neighbour only receives. The root sends what it would have forwarded
     * from its own copy, so the others get the same chunks in the same steps, and the ring moves
     * {@code size - 1} chunks fewer (at two members, half the bytes of the allgather).
     */
    private void ringAllgatherChunks(Object buf, int len, int root) {
        int right = (rank + 1) % size;
        int left = (rank - 1 + size) % size;
        for (int s = 0; s < size - 1; s++) {
            int sc = ((rank + 1 - s) % size + size) % size;
            int rc = ((rank - s) % size + size) % size;
            int from = chunkStart(sc, len);
            int sLen = chunkStart(sc + 1, len) - from;
            int at = chunkStart(rc, len);
            int rLen = chunkStart(rc + 1, len) - at;
            if (rank == root) {
                sendPieces(right, buf, from, sLen);
            } else if (right == root) {
                receivePieces(left, buf, at, rLen);
            } else {
                exchange(right, buf, from, sLen, left, at, rLen, null, false);
            }
        }
    }

    private void reduceArray(Object buf, ReduceOp op, int root, int elementBytes) {
        checkUsable();
        if (size == 1) {
            return;
        }
        int len = Array.getLength(buf);
        if (large(len, elementBytes)) {
            ringReduceScatter(buf, Op.of(op));
            int own = (rank + 1) % size;
            if (rank != root) {
                sendPieces(root, buf, chunkStart(own, len), chunkStart(own + 1, len) - chunkStart(own, len));
            } else {
                for (int r = 0; r < size; r++) {
                    if (r != root) {
                        int c = (r + 1) % size;
                        receivePieces(r, buf, chunkStart(c, len), chunkStart(c + 1, len) - chunkStart(c, len));
                    }
                }
            }
        } else {
            binomialReduce(buf, Op.of(op), root);
        }
    }

    /**
     * Binomial-tree reduce on ranks relative to the root. With root 0 the operands are combined
     * lower rank first; otherwise in the order root, root+1, ... (wrapping).
     */
    private void binomialReduce(Object buf, Op op, int root) {
        checkUsable();
        int len = Array.getLength(buf);
        int vr = (rank - root + size) % size;
        for (int mask = 1; mask < size; mask <<= 1) {
            if ((vr & mask) != 0) {
                sendPieces((vr - mask + root) % size, buf, 0, len);
                return;
            }
            if (vr + mask < size) {
                receivePieces((vr + mask + root) % size, buf, 0, len, op);
            }
        }
    }

    private void broadcastArray(Object buf, int root, int elementBytes) {
        checkUsable();
        if (size == 1) {
            return;
        }
        int len = Array.getLength(buf);
        if (large(len, elementBytes)) {
            // Scatter from the root, then a ring allgather (van de Geijn): the root sends len, not
            // log2(size) * len.
            int own = (rank + 1) % size;
            if (rank == root) {
                for (int r = 0; r < size; r++) {
                    if (r != root) {
                        int c = (r + 1) % size;
                        sendPieces(r, buf, chunkStart(c, len), chunkStart(c + 1, len) - chunkStart(c, len));
                    }
                }
            } else {
                receivePieces(root, buf, chunkStart(own, len), chunkStart(own + 1, len) - chunkStart(own, len));
            }
            ringAllgatherChunks(buf, len, root);
        } else {
            binomialBroadcast(buf, root);
        }
    }

    private void binomialBroadcast(Object buf, int root) {
        checkUsable();
        if (size == 1) {
            return;
        }
        int len = Array.getLength(buf);
        int vr = (rank - root + size) % size;
        int mask = 1;
        while (mask < size) {
            if ((vr & mask) != 0) {
                receivePieces((vr - mask + root) % size, buf, 0, len);
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (vr + mask < size) {
                sendPieces((vr + mask + root) % size, buf, 0, len);
            }
        }
    }

    private Object allgatherArray(Object mine, Object all, int elementBytes) {
        checkUsable();
        int len = Array.getLength(mine);
        System.arraycopy(mine, 0, all, rank * len, len);
        if (size == 1) {
            return all;
        }
        if (large(Array.getLength(all), elementBytes)) {
            // Ring: each block travels size - 1 hops; every link carries (size - 1) blocks.
            int right = (rank + 1) % size;
            int left = (rank - 1 + size) % size;
            for (int s = 0; s < size - 1; s++) {
                int sb = ((rank - s) % size + size) % size;
                int rb = ((rank - s - 1) % size + size) % size;
                exchange(right, all, sb * len, len, left, rb * len, len, null, false);
            }
        } else {
            // Binomial gather of contiguous blocks to 0, then a binomial broadcast.
            for (int mask = 1; mask < size; mask <<= 1) {
                if ((rank & mask) != 0) {
                    sendPieces(rank - mask, all, rank * len, Math.min(mask, size - rank) * len);
                    break;
                }
                if (rank + mask < size) {
                    int from = rank + mask;
                    receivePieces(from, all, from * len, Math.min(mask, size - from) * len);
                }
            }
            binomialBroadcast(all, 0);
        }
        return all;
    }

    /** Linear: the root sends each member its part, which is all the data a scatter must move. */
    private void scatterArray(Object all, Object mine, int root) {
        checkUsable();
        int len = Array.getLength(mine);
        if (rank == root) {
            if (Array.getLength(all) != len * size) {
                throw new IllegalArgumentException("scatter in " + name + ": the root has "
                        + Array.getLength(all) + " elements for " + size + " members of " + len);
            }
            for (int r = 0; r < size; r++) {
                if (r != root) {
                    sendPieces(r, all, r * len, len);
                }
            }
            System.arraycopy(all, root * len, mine, 0, len);
        } else {
            receivePieces(root, mine, 0, len);
        }
    }

    // ---- messages --------------------------------------------------------------------------

    /** Elements per piece of an exchange in a cycle; objects are never cut into pieces. */
    private static int pieceElements(Object buf) {
        if (buf instanceof double[] || buf instanceof long[]) {
            return PIECE_BYTES / 8;
        }
        if (buf instanceof int[]) {
            return PIECE_BYTES / 4;
        }
        return Integer.MAX_VALUE;
    }

    private static int pieces(int len, int per) {
        return len == 0 ? 1 : (int) (((long) len + per - 1) / per);
    }

    /**
     * Sends {@code buf[sFrom, sFrom + sLen)} to {@code dest} and receives {@code src}'s part into
     * {@code buf[rAt, rAt + rLen)}, reduced with what is there when {@code op} is not null (the
     * received operand lower when {@code incomingLower}). Primitive data goes piece by piece, each
     * piece sent before the matching one is received; objects go in rank order when the two
     * members exchange with each other.
     */
    private void exchange(int dest, Object buf, int sFrom, int sLen, int src, int rAt, int rLen, Op op,
            boolean incomingLower) {
        if (buf instanceof Object[] && dest == src && rank > src) {
            // The partner needs this member's own operand: take the partner's aside first.
            Object[] got = new Object[rLen];
            receive(src, got, 0, rLen, null, false);
            send(dest, buf, sFrom, sLen);
            if (op == null) {
                System.arraycopy(got, 0, buf, rAt, rLen);
            } else if (incomingLower) {
                op.apply(got, 0, buf, rAt, buf, rAt, rLen);
            } else {
                op.apply(buf, rAt, got, 0, buf, rAt, rLen);
            }
            return;
        }
        int per = pieceElements(buf);
        int ns = pieces(sLen, per);
        int nr = pieces(rLen, per);
        for (int i = 0; i < Math.max(ns, nr); i++) {
            long off = (long) i * per;
            if (i < ns) {
                send(dest, buf, sFrom + (int) off, (int) Math.min(per, sLen - off));
            }
            if (i < nr) {
                receive(src, buf, rAt + (int) off, (int) Math.min(per, rLen - off), op, incomingLower);
            }
        }
    }

    /** Sends {@code buf[from, from + len)} to {@code dest} in pieces (the receiver takes them with receivePieces). */
    private void sendPieces(int dest, Object buf, int from, int len) {
        int per = pieceElements(buf);
        int n = pieces(len, per);
        for (int i = 0; i < n; i++) {
            long off = (long) i * per;
            send(dest, buf, from + (int) off, (int) Math.min(per, len - off));
        }
    }

    private void receivePieces(int src, Object buf, int at, int len) {
        receivePieces(src, buf, at, len, null);
    }

    /** Receives what {@link #sendPieces} sent, into {@code buf[at, at + len)} or reduced with it (higher). */
    private void receivePieces(int src, Object buf, int at, int len, Op op) {
        int per = pieceElements(buf);
        int n = pieces(len, per);
        for (int i = 0; i < n; i++) {
            long off = (long) i * per;
            receive(src, buf, at + (int) off, (int) Math.min(per, len - off), op, false);
        }
    }

    /** One message: the element count, then the elements, written from {@code buf} in place. */
    private void send(int dest, Object buf, int from, int len) {
        WriteMessage m = null;
        try {
            m = out[dest].newMessage();
            m.writeInt(len);
            if (buf instanceof double[] d) {
                m.writeArray(d, from, len);
            } else if (buf instanceof long[] l) {
                m.writeArray(l, from, len);
            } else if (buf instanceof int[] n) {
                m.writeArray(n, from, len);
            } else {
                m.writeArray((Object[]) buf, from, len);
            }
            m.finish();
        } catch (IOException e) {
            if (m != null) {
                m.finish(e);
            }
            throw fail("cannot send to process " + dest + ": " + e.getMessage(), e);
        }
    }

    /**
     * One message from {@code src} of {@code len} elements: read into {@code buf[at, ..)}, or with
     * {@code op} into scratch and reduced into {@code buf[at, ..)}.
     */
    private void receive(int src, Object buf, int at, int len, Op op, boolean incomingLower) {
        ReadMessage m = take(src);
        try {
            int n = m.readInt();
            if (n == ABORT) {
                String why = m.readString();
                m.finish();
                failed = "process " + src + " aborted: " + why;
                throw new UncheckedIOException(new IOException(what + ": " + failed));
            }
            if (n != len) {
                IOException e = new IOException(what + ": process " + src + " sent " + n + " elements where "
                        + len + " were expected: every member must pass arrays of the same length");
                m.finish(e);
                throw fail(e.getMessage(), e);
            }
            Object into = op == null ? buf : scratch(buf, len);
            int to = op == null ? at : 0;
            if (into instanceof double[] d) {
                m.readArray(d, to, len);
            } else if (into instanceof long[] l) {
                m.readArray(l, to, len);
            } else if (into instanceof int[] x) {
                m.readArray(x, to, len);
            } else {
                m.readArray((Object[]) into, to, len);
            }
            m.finish();
            if (op != null) {
                if (incomingLower) {
                    op.apply(into, 0, buf, at, buf, at, len);
                } else {
                    op.apply(buf, at, into, 0, buf, at, len);
                }
            }
        } catch (IOException | ClassNotFoundException e) {
            m.finish(e instanceof IOException io ? io : new IOException(e.toString(), e));
            throw fail("cannot receive from process " + src + ": " + e.getMessage(), e);
        }
    }

    /** The next message from {@code src}, waited for by this thread; fails when {@code src} is gone. */
    private ReadMessage take(int src) {
        while (true) {
            try {
                return in[src].receive(LIVENESS_CHECK_MS);
            } catch (ReceiveTimedOutException e) {
                if (gmi.isGone(src)) {
                    throw fail("process " + src + " is gone before it sent its part", null);
                }
            } catch (IOException e) {
                throw fail("lost the link from process " + src + ": " + e.getMessage(), e);
            }
        }
    }

    /** A scratch array of {@code buf}'s type with room for {@code len} elements. */
    private Object scratch(Object buf, int len) {
        if (buf instanceof double[]) {
            if (doubleScratch.length < len) {
                doubleScratch = new double[len];
            }
            return doubleScratch;
        }
        if (buf instanceof long[]) {
            if (longScratch.length < len) {
                longScratch = new long[len];
            }
            return longScratch;
        }
        if (buf instanceof int[]) {
            if (intScratch.length < len) {
                intScratch = new int[len];
            }
            return intScratch;
        }
        return new Object[len];
    }

    private void checkUsable() {
        if (failed != null) {
            throw new UncheckedIOException(new IOException(what + " failed earlier: " + failed));
        }
    }

    /**
     * This member saw a failure (a member gone, a broken link): marks the instance failed and tells
     * every other member, so that members waiting for a member that is alive but gave up fail too
     * instead of hanging. Best effort: a member that cannot be told is gone itself, which its
     * waiters see anyway.
     */
    private UncheckedIOException fail(String why, Exception cause) {
        boolean first = failed == null;
        if (first) {
            failed = why;
        }
        UncheckedIOException e = new UncheckedIOException(new IOException(what + ": " + why, cause));
        if (first) {
            LOG.debug("{}: member {} aborts: {}", what, rank, why);
            for (int r = 0; r < size; r++) {
                if (r != rank && !gmi.isGone(r)) {
                    try {
                        WriteMessage m = out[r].newMessage();
                        m.writeInt(ABORT);
                        m.writeString(why);
                        m.finish();
                    } catch (IOException | RuntimeException x) {
                        LOG.debug("{}: cannot tell process {} of the abort: {}", what, r, x.toString());
                    }
                }
            }
        }
        return e;
    }

    @Override
    public String toString() {
        return "Collectives " + name + " " + rank + "/" + size;
    }
}
