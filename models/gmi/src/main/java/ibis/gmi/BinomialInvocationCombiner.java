package ibis.gmi;

/**
 * Combines the parameters of the invokers of a {@link CombinedInvocation} pairwise, in a binomial
 * tree among the invokers; invoker 0 performs the call with the final parameters.
 */
public abstract class BinomialInvocationCombiner {

    /** For subclasses. */
    protected BinomialInvocationCombiner() {
    }

    /**
     * @param in1 the parameters of the lower-ranked invoker (or subtree)
     * @param in2 the parameters of the higher-ranked invoker (or subtree)
     * @param out the combined parameters, to be written
     */
    public abstract void combine(ParameterVector in1, ParameterVector in2, ParameterVector out);
}
