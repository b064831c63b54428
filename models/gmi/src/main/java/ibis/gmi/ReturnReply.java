package ibis.gmi;

/**
 * The invoker waits for the result of one member, chosen in advance by rank; only that member
 * replies. Its exception is thrown at the invoker.
 */
public class ReturnReply extends ReplyScheme {

    private final int rank;

    /**
     * @param rank the member whose result is returned
     * @throws ConfigurationException when the rank is negative (one that is not invoked fails at
     *         {@link GroupMethod#configure})
     */
    public ReturnReply(int rank) throws ConfigurationException {
        super(R_RETURN);
        if (rank < 0) {
            throw new ConfigurationException("ReturnReply: negative rank " + rank);
        }
        this.rank = rank;
    }

    /** @return the rank whose result is returned */
    public int rank() {
        return rank;
    }
}
