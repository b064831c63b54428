package ibis.gmi;

/**
 * How the results of a group method are handled: discarded ({@link DiscardReply}), one returned
 * ({@link ReturnReply}), all handed to a {@link Forwarder} ({@link ForwardReply}), combined into one
 * ({@link CombineReply}), or, for a {@link CombinedInvocation}, split per invoker
 * ({@link PersonalizeReply}). Exceptions are results too.
 */
public class ReplyScheme {

    /** No result; the invoker does not wait. */
    public static final int R_DISCARD = 0;
    /** The result of one member is returned. */
    public static final int R_RETURN = 1;
    /** Every result goes to a forwarder. */
    public static final int R_FORWARD = 2;
    /** Results combined by the invoker. */
    public static final int R_COMBINE_FLAT = 3;
    /** Results combined in a binomial tree of the members. */
    public static final int R_COMBINE_BINOMIAL = 4;
    /** Personalized per invoker of a combined invocation. */
    public static final int R_PERSONALIZED = 16;
    /** Personalized return. */
    public static final int R_PERSONALIZED_RETURN = R_PERSONALIZED + R_RETURN;
    /** Personalized forward. */
    public static final int R_PERSONALIZED_FORWARD = R_PERSONALIZED + R_FORWARD;
    /** Personalized flat combine. */
    public static final int R_PERSONALIZED_COMBINE_FLAT = R_PERSONALIZED + R_COMBINE_FLAT;
    /** Personalized binomial combine. */
    public static final int R_PERSONALIZED_COMBINE_BINOMIAL = R_PERSONALIZED + R_COMBINE_BINOMIAL;

    private final int mode;

    ReplyScheme(int mode) {
        this.mode = mode;
    }

    /**
     * @return which scheme this is, one of the {@code R_} constants
     */
    public int mode() {
        return mode;
    }
}
