package ibis.gmi;

/**
 * Combines all results of a group method at the invoker ({@link CombineReply} with a flat
 * combiner): the stub collects the result or exception of every invoked member and calls the
 * overload for the method's result type once. Inputs are indexed in ascending rank order of the
 * invoked members (for a whole group, index equals rank), so floating-point combining is
 * reproducible. Subclasses override the overloads of the types they combine; an overload that is
 * called without being overridden throws {@link UnsupportedOperationException} naming the class and
 * the overload.
 */
public class FlatCombiner {

    /** For subclasses. */
    protected FlatCombiner() {
    }

    /**
     * Combines the exceptions of a method without result (all null when every member returned
     * normally); throwing an exception makes it the outcome of the call.
     *
     * @param exceptions per invoked member, in rank order
     */
    public void combine(Exception[] exceptions) {
        throw Overloads.notOverridden(this, "void combine(Exception[])");
    }

    /**
     * Combines the boolean results of the invoked members into one.
     *
     * @param results per invoked member, in rank order (the type's default where that member threw)
     * @param exceptions per invoked member, in rank order, null where it returned normally
     * @return the combined result
     */
    public boolean combine(boolean[] results, Exception[] exceptions) {
        throw Overloads.notOverridden(this, "boolean combine(boolean[], Exception[])");
    }

    /**
     * Combines the byte results of the invoked members into one.
     *
     * @param results per invoked member, in rank order (the type's default where that member threw)
     * @param exceptions per invoked member, in rank order, null where it returned normally
     * @return the combined result
     */
    public byte combine(byte[] results, Exception[] exceptions) {
        throw Overloads.notOverridden(this, "byte combine(byte[], Exception[])");
    }

    /**
     * Combines the char results of the invoked members into one.
     *
     * @param results per invoked member, in rank order (the type's default where that member threw)
     * @param exceptions per invoked member, in rank order, null where it returned normally
     * @return the combined result
     */
    public char combine(char[] results, Exception[] exceptions) {
        throw Overloads.notOverridden(this, "char combine(char[], Exception[])");
    }

    /**
     * Combines the short results of the invoked members into one.
     *
     * @param results per invoked member, in rank order (the type's default where that member threw)
     * @param exceptions per invoked member, in rank order, null where it returned normally
     * @return the combined result
     */
    public short combine(short[] results, Exception[] exceptions) {
        throw Overloads.notOverridden(this, "short combine(short[], Exception[])");
    }

    /**
     * Combines the int results of the invoked members into one.
     *
     * @param results per invoked member, in rank order (the type's default where that member threw)
     * @param exceptions per invoked member, in rank order, null where it returned normally
     * @return the combined result
     */
    public int combine(int[] results, Exception[] exceptions) {
        throw Overloads.notOverridden(this, "int combine(int[], Exception[])");
    }

    /**
     * Combines the long results of the invoked members into one.
     *
     * @param results per invoked member, in rank order (the type's default where that member threw)
     * @param exceptions per invoked member, in rank order, null where it returned normally
     * @return the combined result
     */
    public long combine(long[] results, Exception[] exceptions) {
        throw Overloads.notOverridden(this, "long combine(long[], Exception[])");
    }

    /**
     * Combines the float results of the invoked members into one.
     *
     * @param results per invoked member, in rank order (the type's default where that member threw)
     * @param exceptions per invoked member, in rank order, null where it returned normally
     * @return the combined result
     */
    public float combine(float[] results, Exception[] exceptions) {
        throw Overloads.notOverridden(this, "float combine(float[], Exception[])");
    }

    /**
     * Combines the double results of the invoked members into one.
     *
     * @param results per invoked member, in rank order (the type's default where that member threw)
     * @param exceptions per invoked member, in rank order, null where it returned normally
     * @return the combined result
     */
    public double combine(double[] results, Exception[] exceptions) {
        throw Overloads.notOverridden(this, "double combine(double[], Exception[])");
    }

    /**
     * Combines the Object results of the invoked members into one.
     *
     * @param results per invoked member, in rank order (the type's default where that member threw)
     * @param exceptions per invoked member, in rank order, null where it returned normally
     * @return the combined result
     */
    public Object combine(Object[] results, Exception[] exceptions) {
        throw Overloads.notOverridden(this, "Object combine(Object[], Exception[])");
    }
}
