package ibis.gmi.collectives;

import ibis.gmi.ConfigurationException;
import ibis.gmi.DiscardReply;
import ibis.gmi.Group;
import ibis.gmi.GroupMethod;
import ibis.gmi.SingleInvocation;

import java.lang.reflect.Array;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MPI-style collectives among the processes {@code 0..size-1} of a GMI pool (member rank = process
 * rank), built on GMI: every message is a single invocation with a discarded reply of
 * {@link Exchange#put} on the receiver's member, so it is serialized once, straight from the user's
 * array (Ibis serialization writes primitive arrays without boxing), and received by GMI's upcall.
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
 */
public final class Collectives {

    /** System property: vectors above this many bytes use the large-vector algorithms. */
    public static final String LARGE_THRESHOLD_PROPERTY = "ibis.gmi.collectives.large";

    /** The default of {@link #LARGE_THRESHOLD_PROPERTY}: 64 KiB. */
    public static final int DEFAULT_LARGE_THRESHOLD = 64 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(Collectives.class);
    private static final long JOIN_WAIT_MS = 60_000;
    private static final int[] EMPTY = new int[0];

    private final String name;
    private final int rank;
    private final int size;
    private final long threshold;
    private final Mailbox mailbox;
    private final Exchange[] to;
    private final int[] sendSeq;
    private final int[] recvSeq;

    private Collectives(String name, int size, Mailbox mailbox, Exchange[] to) {
        this.name = name;
        this.rank = Group.rank();
        this.size = size;
        this.mailbox = mailbox;
        this.to = to;
        this.sendSeq = new int[size];
        this.recvSeq = new int[size];
        this.threshold = Long.getLong(LARGE_THRESHOLD_PROPERTY, DEFAULT_LARGE_THRESHOLD);
    }

    /**
     * Opens the collectives {@code name} among the processes of rank {@code 0..size-1}; each of them
     * must call this (the others must not). Creates and joins a GMI group {@code name}.
     *
     * @param name a group name not used otherwise
     * @param size the number of members, 1..{@link Group#size()}
     * @return this process's end
     * @throws IllegalArgumentException when this process is not among the first {@code size}
     */
    public static Collectives open(String name, int size) {
        int me = Group.rank();
        if (size < 1 || size > Group.size() || me >= size) {
            throw new IllegalArgumentException("collectives " + name + " of size " + size
                    + " cannot include process " + me + " of a pool of " + Group.size());
        }
        if (me == 0) {
            Group.create(name, Exchange.class, size);
        }
        Mailbox box = new Mailbox();
        Group.join(name, box, me, JOIN_WAIT_MS);
        Exchange[] to = new Exchange[size];
        try {
            for (int r = 0; r < size; r++) {
                if (r != me) {
                    to[r] = (Exchange) Group.lookup(name, JOIN_WAIT_MS);
                    GroupMethod put = Group.findMethod(to[r], "void put(int,int,java.lang.Object)");
                    put.configure(new SingleInvocation(r), new DiscardReply());
                }
            }
        } catch (ConfigurationException | NoSuchMethodException e) {
            throw new IllegalStateException("collectives " + name + ": cannot configure the exchange", e);
        }
        LOG.debug("collectives {} open: rank {} of {}", name, me, size);
        return new Collectives(name, size, box, to);
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
        for (int d = 1; d < size; d <<= 1) {
            send((rank + d) % size, EMPTY);
            recv((rank - d + size) % size);
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

        @SuppressWarnings("unchecked")
        Op(ReduceOp prim, ObjectReduction<?> obj) {
            this.prim = prim;
            this.obj = (ObjectReduction<Object>) obj;
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
        if (size == 1) {
            return;
        }
        int len = Array.getLength(buf);
        if (large(len, elementBytes)) {
            ringReduceScatter(buf, new Op(op, null));
            ringAllgatherChunks(buf, len);
        } else {
            recursiveDoubling(buf, new Op(op, null));
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
        if (size == 1) {
            return;
        }
        int len = Array.getLength(buf);
        int p2 = Integer.highestOneBit(size);
        int extra = size - p2;
        int vr;
        if (rank < 2 * extra) {
            if (rank % 2 == 0) {
                send(rank + 1, buf);
                copyInto(recv(rank + 1), buf);
                return;
            }
            op.apply(recv(rank - 1), 0, buf, 0, buf, 0, len);
            vr = rank / 2;
        } else {
            vr = rank - extra;
        }
        for (int mask = 1; mask < p2; mask <<= 1) {
            int pv = vr ^ mask;
            int partner = pv < extra ? 2 * pv + 1 : pv + extra;
            send(partner, buf);
            Object other = recv(partner);
            if (pv < vr) {
                op.apply(other, 0, buf, 0, buf, 0, len);
            } else {
                op.apply(buf, 0, other, 0, buf, 0, len);
            }
        }
        if (rank < 2 * extra) {
            send(rank - 1, buf);
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
            send(right, slice(buf, chunkStart(sc, len), chunkStart(sc + 1, len)));
            Object part = recv(left);
            int at = chunkStart(rc, len);
            // The partial sum travels up the ring; it holds the members before this one.
            op.apply(part, 0, buf, at, buf, at, chunkStart(rc + 1, len) - at);
        }
    }

    /** Ring allgather of chunks, member r starting with chunk (r + 1) mod size. */
    private void ringAllgatherChunks(Object buf, int len) {
        int right = (rank + 1) % size;
        int left = (rank - 1 + size) % size;
        for (int s = 0; s < size - 1; s++) {
            int sc = ((rank + 1 - s) % size + size) % size;
            int rc = ((rank - s) % size + size) % size;
            send(right, slice(buf, chunkStart(sc, len), chunkStart(sc + 1, len)));
            Object part = recv(left);
            System.arraycopy(part, 0, buf, chunkStart(rc, len), Array.getLength(part));
        }
    }

    private void reduceArray(Object buf, ReduceOp op, int root, int elementBytes) {
        if (size == 1) {
            return;
        }
        int len = Array.getLength(buf);
        if (large(len, elementBytes)) {
            ringReduceScatter(buf, new Op(op, null));
            int own = (rank + 1) % size;
            if (rank != root) {
                send(root, slice(buf, chunkStart(own, len), chunkStart(own + 1, len)));
            } else {
                for (int r = 0; r < size; r++) {
                    if (r != root) {
                        Object part = recv(r);
                        System.arraycopy(part, 0, buf, chunkStart((r + 1) % size, len), Array.getLength(part));
                    }
                }
            }
        } else {
            binomialReduce(buf, new Op(op, null), root);
        }
    }

    /**
     * Binomial-tree reduce on ranks relative to the root. With root 0 the operands are combined
     * lower rank first; otherwise in the order root, root+1, ... (wrapping).
     */
    private void binomialReduce(Object buf, Op op, int root) {
        int len = Array.getLength(buf);
        int vr = (rank - root + size) % size;
        for (int mask = 1; mask < size; mask <<= 1) {
            if ((vr & mask) != 0) {
                send((vr - mask + root) % size, buf);
                return;
            }
            if (vr + mask < size) {
                op.apply(buf, 0, recv((vr + mask + root) % size), 0, buf, 0, len);
            }
        }
    }

    private void broadcastArray(Object buf, int root, int elementBytes) {
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
                        send(r, slice(buf, chunkStart(c, len), chunkStart(c + 1, len)));
                    }
                }
            } else {
                Object part = recv(root);
                System.arraycopy(part, 0, buf, chunkStart(own, len), Array.getLength(part));
            }
            ringAllgatherChunks(buf, len);
        } else {
            binomialBroadcast(buf, root);
        }
    }

    private void binomialBroadcast(Object buf, int root) {
        if (size == 1) {
            return;
        }
        int vr = (rank - root + size) % size;
        int mask = 1;
        while (mask < size) {
            if ((vr & mask) != 0) {
                copyInto(recv((vr - mask + root) % size), buf);
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (vr + mask < size) {
                send((vr + mask + root) % size, buf);
            }
        }
    }

    private Object allgatherArray(Object mine, Object all, int elementBytes) {
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
                send(right, slice(all, sb * len, (sb + 1) * len));
                System.arraycopy(recv(left), 0, all, rb * len, len);
            }
        } else {
            // Binomial gather of contiguous blocks to 0, then a binomial broadcast.
            int have = 1;
            for (int mask = 1; mask < size; mask <<= 1) {
                if ((rank & mask) != 0) {
                    send(rank - mask, slice(all, rank * len, (rank + have) * len));
                    break;
                }
                if (rank + mask < size) {
                    Object part = recv(rank + mask);
                    int n = Array.getLength(part);
                    System.arraycopy(part, 0, all, (rank + mask) * len, n);
                    have += len == 0 ? Math.min(mask, size - rank - mask) : n / len;
                }
            }
            binomialBroadcast(all, 0);
        }
        return all;
    }

    /** Linear: the root sends each member its part, which is all the data a scatter must move. */
    private void scatterArray(Object all, Object mine, int root) {
        int len = Array.getLength(mine);
        if (rank == root) {
            if (Array.getLength(all) != len * size) {
                throw new IllegalArgumentException("scatter in " + name + ": the root has "
                        + Array.getLength(all) + " elements for " + size + " members of " + len);
            }
            for (int r = 0; r < size; r++) {
                if (r != root) {
                    send(r, slice(all, r * len, (r + 1) * len));
                }
            }
            System.arraycopy(all, root * len, mine, 0, len);
        } else {
            copyInto(recv(root), mine);
        }
    }

    // ---- messages --------------------------------------------------------------------------

    private static Object slice(Object a, int from, int to) {
        Object s = Array.newInstance(a.getClass().getComponentType(), to - from);
        System.arraycopy(a, from, s, 0, to - from);
        return s;
    }

    private void copyInto(Object from, Object buf) {
        int n = Array.getLength(from);
        if (n != Array.getLength(buf)) {
            throw new IllegalArgumentException("collectives " + name + ": a member passed " + n
                    + " elements, this one " + Array.getLength(buf) + "; all must pass the same length");
        }
        System.arraycopy(from, 0, buf, 0, n);
    }

    private void send(int dest, Object payload) {
        try {
            to[dest].put(rank, sendSeq[dest]++, payload);
        } catch (RuntimeException e) {
            abortOthers(e);
            throw e;
        }
    }

    private Object recv(int from) {
        try {
            return mailbox.take(from, recvSeq[from]++, "collectives " + name);
        } catch (RuntimeException e) {
            if (!mailbox.aborted()) {
                abortOthers(e);
            }
            throw e;
        }
    }

    /**
     * This member saw a failure (a member gone): tells every other member, so that members waiting
     * for a member that is alive but gave up fail too instead of hanging. Best effort: a member that
     * cannot be told is gone itself, which its waiters see anyway.
     */
    private void abortOthers(RuntimeException cause) {
        LOG.debug("collectives {}: member {} aborts: {}", name, rank, cause.toString());
        mailbox.put(rank, Mailbox.ABORT, cause.getMessage());
        for (int r = 0; r < size; r++) {
            if (r != rank) {
                try {
                    to[r].put(rank, Mailbox.ABORT, cause.getMessage());
                } catch (RuntimeException e) {
                    LOG.debug("collectives {}: cannot tell member {} of the abort: {}", name, r, e.toString());
                }
            }
        }
    }

    @Override
    public String toString() {
        return "Collectives " + name + " " + rank + "/" + size;
    }
}
