package ibis.gmi;

/**
 * Combines the results of a group method pairwise in a binomial tree among the invoked members
 * ({@link CombineReply} with a binomial combiner): each member combines its result with those of
 * its subtrees, and the root sends one result to the invoker. The combiner is serialized to the
 * members once per call. The first argument pair always belongs to the lower rank. An exception
 * thrown by {@code combine} becomes the outcome of that pair. Subclasses override the overloads of
 * the types they combine; an overload called without being overridden throws
 * {@link UnsupportedOperationException} naming the class and the overload.
 */
public class BinomialCombiner implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    /** For subclasses. */
    protected BinomialCombiner() {
    }

    /**
     * Combines the outcomes of two members (or subtrees) of a method without result; throwing an
     * exception makes it the outcome of the pair.
     *
     * @param rank1 the lower rank
     * @param ex1 its exception, or null
     * @param rank2 the higher rank
     * @param ex2 its exception, or null
     * @param size the number of invoked members
     */
    public void combine(int rank1, Exception ex1, int rank2, Exception ex2, int size) {
        throw Overloads.notOverridden(this, "void combine(int, Exception, int, Exception, int)");
    }

    /**
     * Combines two boolean results (of two members, or of two subtrees) into one.
     *
     * @param rank1 the rank of the first (lower) member or subtree root
     * @param result1 its result
     * @param e1 its exception, or null
     * @param rank2 the rank of the second (higher) member or subtree root
     * @param result2 its result
     * @param e2 its exception, or null
     * @param size the number of invoked members
     * @return the combined result
     */
    public boolean combine(int rank1, boolean result1, Exception e1, int rank2, boolean result2,
            Exception e2, int size) {
        throw Overloads.notOverridden(this, "boolean combine(int, boolean, Exception, int, boolean, Exception, int)");
    }

    /**
     * Combines two byte results (of two members, or of two subtrees) into one.
     *
     * @param rank1 the rank of the first (lower) member or subtree root
     * @param result1 its result
     * @param e1 its exception, or null
     * @param rank2 the rank of the second (higher) member or subtree root
     * @param result2 its result
     * @param e2 its exception, or null
     * @param size the number of invoked members
     * @return the combined result
     */
    public byte combine(int rank1, byte result1, Exception e1, int rank2, byte result2,
            Exception e2, int size) {
        throw Overloads.notOverridden(this, "byte combine(int, byte, Exception, int, byte, Exception, int)");
    }

    /**
     * Combines two char results (of two members, or of two subtrees) into one.
     *
     * @param rank1 the rank of the first (lower) member or subtree root
     * @param result1 its result
     * @param e1 its exception, or null
     * @param rank2 the rank of the second (higher) member or subtree root
     * @param result2 its result
     * @param e2 its exception, or null
     * @param size the number of invoked members
     * @return the combined result
     */
    public char combine(int rank1, char result1, Exception e1, int rank2, char result2,
            Exception e2, int size) {
        throw Overloads.notOverridden(this, "char combine(int, char, Exception, int, char, Exception, int)");
    }

    /**
     * Combines two short results (of two members, or of two subtrees) into one.
     *
     * @param rank1 the rank of the first (lower) member or subtree root
     * @param result1 its result
     * @param e1 its exception, or null
     * @param rank2 the rank of the second (higher) member or subtree root
     * @param result2 its result
     * @param e2 its exception, or null
     * @param size the number of invoked members
     * @return the combined result
     */
    public short combine(int rank1, short result1, Exception e1, int rank2, short result2,
            Exception e2, int size) {
        throw Overloads.notOverridden(this, "short combine(int, short, Exception, int, short, Exception, int)");
    }

    /**
     * Combines two int results (of two members, or of two subtrees) into one.
     *
     * @param rank1 the rank of the first (lower) member or subtree root
     * @param result1 its result
     * @param e1 its exception, or null
     * @param rank2 the rank of the second (higher) member or subtree root
     * @param result2 its result
     * @param e2 its exception, or null
     * @param size the number of invoked members
     * @return the combined result
     */
    public int combine(int rank1, int result1, Exception e1, int rank2, int result2,
            Exception e2, int size) {
        throw Overloads.notOverridden(this, "int combine(int, int, Exception, int, int, Exception, int)");
    }

    /**
     * Combines two long results (of two members, or of two subtrees) into one.
     *
     * @param rank1 the rank of the first (lower) member or subtree root
     * @param result1 its result
     * @param e1 its exception, or null
     * @param rank2 the rank of the second (higher) member or subtree root
     * @param result2 its result
     * @param e2 its exception, or null
     * @param size the number of invoked members
     * @return the combined result
     */
    public long combine(int rank1, long result1, Exception e1, int rank2, long result2,
            Exception e2, int size) {
        throw Overloads.notOverridden(this, "long combine(int, long, Exception, int, long, Exception, int)");
    }

    /**
     * Combines two float results (of two members, or of two subtrees) into one.
     *
     * @param rank1 the rank of the first (lower) member or subtree root
     * @param result1 its result
     * @param e1 its exception, or null
     * @param rank2 the rank of the second (higher) member or subtree root
     * @param result2 its result
     * @param e2 its exception, or null
     * @param size the number of invoked members
     * @return the combined result
     */
    public float combine(int rank1, float result1, Exception e1, int rank2, float result2,
            Exception e2, int size) {
        throw Overloads.notOverridden(this, "float combine(int, float, Exception, int, float, Exception, int)");
    }

    /**
     * Combines two double results (of two members, or of two subtrees) into one.
     *
     * @param rank1 the rank of the first (lower) member or subtree root
     * @param result1 its result
     * @param e1 its exception, or null
     * @param rank2 the rank of the second (higher) member or subtree root
     * @param result2 its result
     * @param e2 its exception, or null
     * @param size the number of invoked members
     * @return the combined result
     */
    public double combine(int rank1, double result1, Exception e1, int rank2, double result2,
            Exception e2, int size) {
        throw Overloads.notOverridden(this, "double combine(int, double, Exception, int, double, Exception, int)");
    }

    /**
     * Combines two Object results (of two members, or of two subtrees) into one.
     *
     * @param rank1 the rank of the first (lower) member or subtree root
     * @param result1 its result
     * @param e1 its exception, or null
     * @param rank2 the rank of the second (higher) member or subtree root
     * @param result2 its result
     * @param e2 its exception, or null
     * @param size the number of invoked members
     * @return the combined result
     */
    public Object combine(int rank1, Object result1, Exception e1, int rank2, Object result2,
            Exception e2, int size) {
        throw Overloads.notOverridden(this, "Object combine(int, Object, Exception, int, Object, Exception, int)");
    }
}
