package ibis.benchmarks.rmi.apps;

import java.rmi.RemoteException;
import java.util.Arrays;

/**
 * Hamming's problem ("More Efficient Serialization and RMI for Java", section 6.1): all numbers up
 * to a limit whose prime factors are among a set of primes (every second prime: 2, 5, 11, 17, ...),
 * in increasing order without duplicates. A pipeline with one stage per prime: stage k turns the
 * sorted stream S(k-1) into S(k) = S(k-1) merged with p(k) * S(k). The stages are split over the
 * ranks (rank 0 the first ones, every other rank one of the last, largest stages); each rank
 * streams its output to the next rank in chunks of longs (RMIs with primitive arguments only), and
 * the last rank streams the final result back to rank 0, which compares it with a sorted recursive
 * enumeration.
 */
public final class Hamming extends AppNode implements HammingPeer {

    private static final long serialVersionUID = 1L;
    private static final long END = -1;
    private static final long NONE = -2;
    private static final int CHUNK = 8192;
    /** Stream ids: a rank's input, and the final result at rank 0. */
    private static final int INPUT = 0;
    private static final int RESULT = 1;

    /** A sorted stream of positive longs; {@code END} after the last. */
    interface LongStream {
        long next() throws Exception;
    }

    /** One pipeline stage: S = in merged with p * S, up to the limit. */
    static final class Stage implements LongStream {
        private final long p;
        private final long limit;
        private final LongStream in;
        private long[] out = new long[1024];
        private int count;
        private int index;
        private long peeked = NONE;

        Stage(long p, long limit, LongStream in) {
            this.p = p;
            this.limit = limit;
            this.in = in;
        }

        @Override
        public long next() throws Exception {
            if (peeked == NONE) {
                peeked = in.next();
            }
            long multiple = index < count && p * out[index] <= limit ? p * out[index] : END;
            long v;
            if (peeked != END && (multiple == END || peeked < multiple)) {
                v = peeked;
                peeked = NONE;
            } else if (multiple != END) {
                v = multiple;
                index++;
            } else {
                return END;
            }
            if (count == out.length) {
                if (index >= out.length / 2) {
                    // Values below index will never be multiplied again: drop them.
                    System.arraycopy(out, index, out, 0, count - index);
                    count -= index;
                    index = 0;
                } else {
                    out = Arrays.copyOf(out, 2 * count);
                }
            }
            out[count++] = v;
            return v;
        }
    }

    private final long limit;
    private final long[] primes;
    private final int first;
    private final int end;
    private transient long[] result;
    private transient HammingPeer[] peers;

    Hamming(int rank, int size, Problem problem) throws RemoteException {
        super(rank, size);
        primes = everySecondPrime(problem.pick(8, 16, 16));
        limit = problem == Problem.TEST ? 1_000_000L
                : problem == Problem.QUICK ? 10_000_000_000_000L : 1_000_000_000_000_000L;
        first = firstStage(rank, size, primes.length);
        end = rank == size - 1 ? primes.length : firstStage(rank + 1, size, primes.length);
    }

    /** Rank 0 runs the first stages, every other rank one of the last (the longest streams). */
    private static int firstStage(int rank, int size, int stages) {
        return rank == 0 ? 0 : Math.max(0, stages - size + rank);
    }

    /** 2, 5, 11, 17, ...: every second prime, count of them. */
    static long[] everySecondPrime(int count) {
        long[] out = new long[count];
        int found = 0;
        for (long c = 2; found < 2 * count; c++) {
            boolean prime = true;
            for (long d = 2; d * d <= c && prime; d++) {
                prime = c % d != 0;
            }
            if (prime) {
                if (found % 2 == 0) {
                    out[found / 2] = c;
                }
                found++;
            }
        }
        return out;
    }

    /** The pipeline in one process (the stages only, no RMI): the sorted result. */
    static long[] pipeline(long[] primes, long limit) throws Exception {
        LongStream s = one();
        for (long p : primes) {
            s = new Stage(p, limit, s);
        }
        return drain(s);
    }

    /** The independent sequential reference: every product by recursion, then sorted. */
    static long[] sequential(long[] primes, long limit) {
        long[][] acc = {new long[1024]};
        int[] count = {0};
        enumerate(primes, 0, 1, limit, acc, count);
        long[] all = Arrays.copyOf(acc[0], count[0]);
        Arrays.sort(all);
        return all;
    }

    private static void enumerate(long[] primes, int k, long value, long limit, long[][] acc, int[] count) {
        if (k == primes.length) {
            if (count[0] == acc[0].length) {
                acc[0] = Arrays.copyOf(acc[0], 2 * count[0]);
            }
            acc[0][count[0]++] = value;
            return;
        }
        for (long v = value; v <= limit; v *= primes[k]) {
            enumerate(primes, k + 1, v, limit, acc, count);
            if (v > limit / primes[k]) {
                break;
            }
        }
    }

    private static LongStream one() {
        boolean[] given = {false};
        return () -> {
            if (given[0]) {
                return END;
            }
            given[0] = true;
            return 1;
        };
    }

    private static long[] drain(LongStream s) throws Exception {
        long[] all = new long[1024];
        int count = 0;
        for (long v = s.next(); v != END; v = s.next()) {
            if (count == all.length) {
                all = Arrays.copyOf(all, 2 * count);
            }
            all[count++] = v;
        }
        return Arrays.copyOf(all, count);
    }

    /** A stream arriving in chunks from a peer. */
    private LongStream incoming(int stream) {
        return new LongStream() {
            private long[] chunk = new long[0];
            private int at;
            private int sequence;
            private boolean last;

            @Override
            public long next() throws Exception {
                while (at == chunk.length) {
                    if (last) {
                        return END;
                    }
                    Object[] got = (Object[]) mailbox.take(Mailbox.key(stream, sequence++));
                    chunk = (long[]) got[0];
                    last = (Boolean) got[1];
                    at = 0;
                }
                return chunk[at++];
            }
        };
    }

    @Override
    protected void connect(AppPeer[] stubs) {
        peers = new HammingPeer[stubs.length];
        for (int r = 0; r < stubs.length; r++) {
            peers[r] = (HammingPeer) stubs[r];
        }
    }

    @Override
    public void putChunk(int stream, int sequence, long[] values, boolean last) throws RemoteException {
        mailbox.put(Mailbox.key(stream, sequence), new Object[] {values, last});
    }

    @Override
    protected void run() throws Exception {
        LongStream s = rank == 0 ? one() : incoming(INPUT);
        for (int k = first; k < end; k++) {
            s = new Stage(primes[k], limit, s);
        }
        if (size == 1) {
            result = drain(s);
            return;
        }
        HammingPeer next = peers[(rank + 1) % size];
        int stream = rank == size - 1 ? RESULT : INPUT;
        long[] buffer = new long[CHUNK];
        int count = 0;
        int sequence = 0;
        for (long v = s.next(); ; v = s.next()) {
            if (v != END) {
                buffer[count++] = v;
            }
            if (count == CHUNK || v == END) {
                next.putChunk(stream, sequence++, Arrays.copyOf(buffer, count), v == END);
                count = 0;
            }
            if (v == END) {
                break;
            }
        }
        if (rank == 0) {
            result = drain(incoming(RESULT));
        }
    }

    @Override
    protected boolean verify() {
        return Arrays.equals(sequential(primes, limit), result);
    }
}
