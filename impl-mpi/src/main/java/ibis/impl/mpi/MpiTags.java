package ibis.impl.mpi;

/**
 * The layout of Ibis' MPI tags: a kind field at the top of the tag range and an id below it. MPI
 * matches on (communicator, source, tag) and keeps the order of the messages from one source with
 * one tag, so everything that must stay in order shares a tag.
 *
 * <p>The layout adapts to {@code MPI_TAG_UB}: with {@code bits = floor(log2(MPI_TAG_UB + 1))} (31 in
 * Open MPI, 28 in MPICH; at least 28 is required), a tag is
 *
 * <table>
 * <caption>tag bits</caption>
 * <tr><th>bits</th><th>field</th></tr>
 * <tr><td>{@code bits - 1} .. {@code bits - 3}</td><td>kind (3 bits: {@link #CONTROL} .. {@link #BULK},
 * 6 and 7 reserved)</td></tr>
 * <tr><td>{@code bits - 4} .. 0</td><td>id ({@link #idBits()} bits: 2^25 ids with MPICH, 2^28 with
 * Open MPI)</td></tr>
 * </table>
 *
 * <p>What the id means is up to the kind's user: the transport uses the receiving side's connection id
 * (or, for {@link #CONTROL}, the receiving instance); the registry its own message types. Every user
 * receives its kinds through {@link MpiProcess#register}, so users never take each other's messages.
 */
public final class MpiTags {

    /** Kind: connection set-up and tear-down between transport instances; id: the receiving instance. */
    public static final int CONTROL = 0;
    /** Kind: a connection's bytes and its close; id: the receiving connection. */
    public static final int DATA = 1;
    /** Kind: credit returned from a receiver to a sender; id: the sending connection. */
    public static final int CREDIT = 2;
    /** Kind: a zero-byte message a process sends itself to end a blocking wait in MPI. */
    public static final int WAKE = 3;
    /** Kind: the registry over MPI ({@code ibis.registry.implementation=mpi}); id: the registry's choice. */
    public static final int REGISTRY = 4;
    /**
     * Kind: the announcement of a bulk message, a message longer than a landing receive holds
     * ({@link MpiLanding}): its body is the message's tag and length (two native-order ints), its bytes
     * follow on the bulk communicator ({@link MpiBackend#isendBulkTest}); id 0. Sent and taken by
     * {@link MpiProcess} itself, never handed to a receiver.
     */
    public static final int BULK = 5;
    /** The number of kinds the tag layout has room for (3 bits); 6 and 7 are free. */
    public static final int KINDS = 8;

    /** The fewest tag bits Ibis works with: MPICH's {@code MPI_TAG_UB} is {@code 2^28 - 1}. */
    public static final int MIN_BITS = 28;

    private static final int KIND_BITS = 3;

    private final int idBits;
    private final int idMask;

    /**
     * The layout for a tag upper bound.
     *
     * @param tagUpperBound {@code MPI_TAG_UB}
     * @throws IllegalArgumentException when it is below {@code 2^28 - 1}
     */
    public MpiTags(int tagUpperBound) {
        // floor(log2(bound + 1)): every tag of that many bits is <= the bound.
        int bits = tagUpperBound == Integer.MAX_VALUE ? 31 : 31 - Integer.numberOfLeadingZeros(tagUpperBound + 1);
        if (bits < MIN_BITS) {
            throw new IllegalArgumentException("MPI_TAG_UB is " + tagUpperBound + ": Ibis needs at least 2^"
                    + MIN_BITS + " - 1 (an MPI with larger tags)");
        }
        this.idBits = bits - KIND_BITS;
        this.idMask = (1 << idBits) - 1;
    }

    /** The number of id bits. */
    public int idBits() {
        return idBits;
    }

    /** The largest id. */
    public int maxId() {
        return idMask;
    }

    /**
     * The tag of a kind and an id.
     *
     * @throws IllegalArgumentException when either is out of range
     */
    public int tag(int kind, int id) {
        if (kind < 0 || kind >= KINDS || id < 0 || id > idMask) {
            throw new IllegalArgumentException("kind " + kind + " id " + id + " do not fit " + idBits + " id bits");
        }
        return kind << idBits | id;
    }

    /** The kind of a tag. */
    public int kind(int tag) {
        return tag >>> idBits;
    }

    /** The id of a tag. */
    public int id(int tag) {
        return tag & idMask;
    }

    @Override
    public String toString() {
        return "MPI tags: 3 kind bits, " + idBits + " id bits";
    }
}
