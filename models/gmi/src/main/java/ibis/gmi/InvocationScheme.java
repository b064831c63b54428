package ibis.gmi;

/**
 * How a group method's invocation is forwarded: to one member ({@link SingleInvocation}), to all or
 * some members with the same parameters ({@link GroupInvocation}), to all members with parameters
 * per member ({@link PersonalizedInvocation}), or first combined over several invokers
 * ({@link CombinedInvocation}).
 */
public class InvocationScheme {

    /** Forwarded to one member. */
    public final static int I_SINGLE = 0;
    /** Forwarded to all (or a subset of the) members. */
    public final static int I_GROUP = 1;
    /** Forwarded to all members with personalized parameters. */
    public final static int I_PERSONAL = 2;
    /** Combined invocation, parameters combined at invoker 0. */
    public final static int I_COMBINED_FLAT = 16;
    /** Combined invocation, parameters combined in a binomial tree. */
    public final static int I_COMBINED_BINOMIAL = 32;
    /** The same as {@link #I_COMBINED_FLAT}. */
    public final static int I_COMBINED = I_COMBINED_FLAT;
    /** Flat combined, then single. */
    public final static int I_COMBINED_FLAT_SINGLE = I_COMBINED_FLAT + I_SINGLE;
    /** Flat combined, then group. */
    public final static int I_COMBINED_FLAT_GROUP = I_COMBINED_FLAT + I_GROUP;
    /** Flat combined, then personalized. */
    public final static int I_COMBINED_FLAT_PERSONAL = I_COMBINED_FLAT + I_PERSONAL;
    /** Binomial combined, then single. */
    public final static int I_COMBINED_BINOMIAL_SINGLE = I_COMBINED_BINOMIAL + I_SINGLE;
    /** Binomial combined, then group. */
    public final static int I_COMBINED_BINOMIAL_GROUP = I_COMBINED_BINOMIAL + I_GROUP;
    /** Binomial combined, then personalized. */
    public final static int I_COMBINED_BINOMIAL_PERSONAL = I_COMBINED_BINOMIAL + I_PERSONAL;

    private final int mode;

    InvocationScheme(int mode) {
        this.mode = mode;
    }

    /**
     * @return which scheme this is, one of the {@code I_} constants
     */
    public int mode() {
        return mode;
    }
}
