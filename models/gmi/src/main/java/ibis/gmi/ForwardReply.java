package ibis.gmi;

/**
 * The invoker returns at once (with the default value of the result type); each invoked member's
 * result or exception is delivered to a {@link Forwarder} in the invoker's process when it arrives.
 */
public class ForwardReply extends ReplyScheme {

    private final Forwarder forwarder;

    /**
     * @param f the forwarder
     * @throws ConfigurationException when {@code f} is null
     */
    public ForwardReply(Forwarder f) throws ConfigurationException {
        super(R_FORWARD);
        if (f == null) {
            throw new ConfigurationException("ForwardReply: no forwarder");
        }
        forwarder = f;
    }

    /** @return the forwarder */
    public Forwarder forwarder() {
        return forwarder;
    }
}
