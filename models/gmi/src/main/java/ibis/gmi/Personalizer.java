package ibis.gmi;

/**
 * Makes the parameters of each invoked member of a {@link PersonalizedInvocation}: called once per
 * call at the invoker with the caller's parameters; {@code out[rank]} is what member {@code rank}
 * receives (every parameter of every element must be written).
 */
public abstract class Personalizer {

    /** For subclasses. */
    protected Personalizer() {
    }

    /**
     * @param in the parameters the method was called with
     * @param out one empty vector per group member, indexed by rank
     */
    public abstract void personalize(ParameterVector in, ParameterVector[] out);
}
