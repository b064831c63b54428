package ibis.gmi;

/**
 * For a {@link CombinedInvocation}: the reply of the call, handled by an inner return, forward or
 * combine scheme at invoker 0, is split by a {@link ReplyPersonalizer} into one result per invoker.
 * With a forward scheme, each result is split, and each invoker's forwarder gets its part.
 */
public class PersonalizeReply extends ReplyScheme {

    private final ReplyPersonalizer personalizer;
    private final ReplyScheme inner;

    /**
     * @param rp the personalizer
     * @param rs the inner scheme: a return, forward or combine reply
     * @throws ConfigurationException when an argument is null, or {@code rs} discards or is
     *         personalized itself
     */
    public PersonalizeReply(ReplyPersonalizer rp, ReplyScheme rs) throws ConfigurationException {
        super(R_PERSONALIZED + checkedInner(rs));
        if (rp == null) {
            throw new ConfigurationException("PersonalizeReply: no reply personalizer");
        }
        personalizer = rp;
        inner = rs;
    }

    private static int checkedInner(ReplyScheme rs) throws ConfigurationException {
        if (rs == null) {
            throw new ConfigurationException("PersonalizeReply: no inner reply scheme");
        }
        if (rs.mode() == R_DISCARD) {
            throw new ConfigurationException("PersonalizeReply: a discarded reply cannot be personalized");
        }
        if (rs instanceof PersonalizeReply) {
            throw new ConfigurationException("PersonalizeReply: the inner scheme cannot be personalized itself");
        }
        return rs.mode();
    }

    /** @return the personalizer */
    public ReplyPersonalizer personalizer() {
        return personalizer;
    }

    /** @return the inner reply scheme */
    public ReplyScheme inner() {
        return inner;
    }
}
