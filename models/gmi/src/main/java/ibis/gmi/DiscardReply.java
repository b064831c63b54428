package ibis.gmi;

/**
 * Results and exceptions are dropped by the members; the invoker returns at once with the default
 * value of the result type (asynchronous invocation).
 */
public class DiscardReply extends ReplyScheme {

    /** The scheme. */
    public DiscardReply() {
        super(R_DISCARD);
    }
}
