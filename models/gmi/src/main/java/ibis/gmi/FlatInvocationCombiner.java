package ibis.gmi;

/**
 * Combines the parameters of all invokers of a {@link CombinedInvocation} at once, at the invoker
 * of rank 0, which then performs the call.
 */
public abstract class FlatInvocationCombiner {

    /** For subclasses. */
    protected FlatInvocationCombiner() {
    }

    /**
     * @param in the parameters of every invoker, indexed by invoker rank
     * @param out the parameters of the call, to be written
     */
    public abstract void combine(ParameterVector[] in, ParameterVector out);
}
