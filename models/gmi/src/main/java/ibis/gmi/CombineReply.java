package ibis.gmi;

/**
 * The results of all invoked members are combined into the one result the invoker gets: by the
 * invoker with a {@link FlatCombiner} (gather style), or by the members in a binomial tree with a
 * {@link BinomialCombiner} (reduce style).
 */
public class CombineReply extends ReplyScheme {

    private final FlatCombiner flatCombiner;
    private final BinomialCombiner binomialCombiner;

    /**
     * @param flatCombiner combines at the invoker
     * @throws ConfigurationException when the combiner is null
     */
    public CombineReply(FlatCombiner flatCombiner) throws ConfigurationException {
        super(R_COMBINE_FLAT);
        if (flatCombiner == null) {
            throw new ConfigurationException("CombineReply: no flat combiner");
        }
        this.flatCombiner = flatCombiner;
        this.binomialCombiner = null;
    }

    /**
     * @param binCombiner combines in a tree of the members
     * @throws ConfigurationException when the combiner is null
     */
    public CombineReply(BinomialCombiner binCombiner) throws ConfigurationException {
        super(R_COMBINE_BINOMIAL);
        if (binCombiner == null) {
            throw new ConfigurationException("CombineReply: no binomial combiner");
        }
        this.flatCombiner = null;
        this.binomialCombiner = binCombiner;
    }

    /** @return the flat combiner, or null */
    public FlatCombiner flatCombiner() {
        return flatCombiner;
    }

    /** @return the binomial combiner, or null */
    public BinomialCombiner binomialCombiner() {
        return binomialCombiner;
    }
}
