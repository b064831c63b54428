package ibis.gmi;

/**
 * An MPI-style collective invocation: {@code size} invokers (stubs, usually one per process) each
 * call the method with the same {@code identifier} and their own {@code rank}; their parameters are
 * combined into one set (flat at invoker 0, or in a binomial tree), invoker 0 performs the call with
 * the inner scheme, and the reply reaches every invoker: the same result for all, or one each with
 * a {@link PersonalizeReply}. Every invoker blocks until the reply arrives (with a
 * {@link DiscardReply}, until the call was sent).
 */
public class CombinedInvocation extends InvocationScheme {

    private final String identifier;
    private final int rank;
    private final int size;
    private final FlatInvocationCombiner flatCombiner;
    private final BinomialInvocationCombiner binomialCombiner;
    private final InvocationScheme inner;

    /**
     * Parameters combined all at once by invoker 0.
     *
     * @param identifier names this collective among all combined invocations of the group
     * @param rank this invoker's rank, 0..size-1
     * @param size the number of invokers
     * @param combiner the parameter combiner
     * @param inv how the combined invocation is forwarded (single, group or personalized)
     * @throws ConfigurationException when an argument is missing or out of range, or {@code inv} is
     *         itself combined
     */
    public CombinedInvocation(String identifier, int rank, int size, FlatInvocationCombiner combiner,
            InvocationScheme inv) throws ConfigurationException {
        this(I_COMBINED_FLAT, identifier, rank, size, combiner, null, combiner, inv);
    }

    /**
     * Parameters combined pairwise in a binomial tree of the invokers.
     *
     * @param identifier names this collective among all combined invocations of the group
     * @param rank this invoker's rank, 0..size-1
     * @param size the number of invokers
     * @param combiner the parameter combiner
     * @param inv how the combined invocation is forwarded (single, group or personalized)
     * @throws ConfigurationException when an argument is missing or out of range, or {@code inv} is
     *         itself combined
     */
    public CombinedInvocation(String identifier, int rank, int size, BinomialInvocationCombiner combiner,
            InvocationScheme inv) throws ConfigurationException {
        this(I_COMBINED_BINOMIAL, identifier, rank, size, null, combiner, combiner, inv);
    }

    private CombinedInvocation(int kind, String identifier, int rank, int size, FlatInvocationCombiner flat,
            BinomialInvocationCombiner binomial, Object combiner, InvocationScheme inv)
            throws ConfigurationException {
        super(kind + checkedInner(inv));
        if (identifier == null || identifier.isEmpty()) {
            throw new ConfigurationException("CombinedInvocation: no identifier");
        }
        if (size < 1 || rank < 0 || rank >= size) {
            throw new ConfigurationException("CombinedInvocation " + identifier + ": rank " + rank
                    + " is not in 0.." + (size - 1));
        }
        if (combiner == null) {
            throw new ConfigurationException("CombinedInvocation " + identifier + ": no invocation combiner");
        }
        this.identifier = identifier;
        this.rank = rank;
        this.size = size;
        this.flatCombiner = flat;
        this.binomialCombiner = binomial;
        this.inner = inv;
    }

    private static int checkedInner(InvocationScheme inv) throws ConfigurationException {
        if (inv == null) {
            throw new ConfigurationException("CombinedInvocation: no inner invocation scheme");
        }
        if (inv instanceof CombinedInvocation) {
            throw new ConfigurationException("CombinedInvocation: the inner scheme cannot be combined itself");
        }
        return inv.mode();
    }

    /** @return the identifier of the collective */
    public String identifier() {
        return identifier;
    }

    /** @return this invoker's rank */
    public int rank() {
        return rank;
    }

    /** @return the number of invokers */
    public int size() {
        return size;
    }

    /** @return the flat combiner, or null when binomial */
    public FlatInvocationCombiner flatCombiner() {
        return flatCombiner;
    }

    /** @return the binomial combiner, or null when flat */
    public BinomialInvocationCombiner binomialCombiner() {
        return binomialCombiner;
    }

    /** @return the scheme that forwards the combined invocation */
    public InvocationScheme inner() {
        return inner;
    }
}
