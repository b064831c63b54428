package ibis.gmi;

/** Forwards each invocation to one member, given by rank (RMI-style). */
public class SingleInvocation extends InvocationScheme {

    private final int destination;

    /**
     * @param destination the rank of the member that gets the invocation
     * @throws ConfigurationException when the rank is negative (a rank beyond the group fails at
     *         {@link GroupMethod#configure})
     */
    public SingleInvocation(int destination) throws ConfigurationException {
        super(I_SINGLE);
        if (destination < 0) {
            throw new ConfigurationException("SingleInvocation: negative destination rank " + destination);
        }
        this.destination = destination;
    }

    /**
     * @return the rank of the member that gets the invocations
     */
    public int destination() {
        return destination;
    }
}
