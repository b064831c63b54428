package ibis.gmi;

/**
 * One method of one group stub, found with {@link Group#findMethod}: how its invocations are
 * forwarded and how its results are handled, which may be changed at any time (calls already under
 * way finish with the configuration they started with).
 */
public class GroupMethod {

    /** For the runtime. */
    protected GroupMethod() {
    }

    /**
     * Sets how this method behaves from its next invocation on.
     *
     * @param invscheme how invocations are forwarded
     * @param repscheme how results are handled
     * @throws ConfigurationException when a scheme is missing, or the combination is not possible
     *         for this group and method (for example a rank outside the group, a {@link ReturnReply}
     *         of a member that is not invoked, or a {@link PersonalizeReply} without a
     *         {@link CombinedInvocation})
     */
    public void configure(InvocationScheme invscheme, ReplyScheme repscheme) throws ConfigurationException {
        if (invscheme == null || repscheme == null) {
            throw new ConfigurationException("configure: an invocation scheme and a reply scheme are both needed");
        }
        apply(invscheme, repscheme);
    }

    /**
     * Checks and installs a configuration; the runtime's subclass does the work.
     *
     * @param invscheme the invocation scheme, not null
     * @param repscheme the reply scheme, not null
     * @throws ConfigurationException when the combination is not possible
     */
    protected void apply(InvocationScheme invscheme, ReplyScheme repscheme) throws ConfigurationException {
        throw new ConfigurationException(getClass().getName() + " is not a method of a group stub");
    }
}
