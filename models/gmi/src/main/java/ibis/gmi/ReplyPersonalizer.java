package ibis.gmi;

/**
 * Splits the result of a combined invocation into one result per invoker ({@link PersonalizeReply}):
 * the invoker that performed the call personalizes the result, and each invoker receives its own
 * element. Subclasses override the overloads of the types they split; an overload called without
 * being overridden throws {@link UnsupportedOperationException} naming the class and the overload.
 */
public class ReplyPersonalizer implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    /** For subclasses. */
    public ReplyPersonalizer() {
    }

    /**
     * Splits one boolean result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank
     */
    public void personalize(boolean in, boolean[] out) {
        throw Overloads.notOverridden(this, "void personalize(boolean, boolean[])");
    }

    /**
     * Splits one byte result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank
     */
    public void personalize(byte in, byte[] out) {
        throw Overloads.notOverridden(this, "void personalize(byte, byte[])");
    }

    /**
     * Splits one char result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank
     */
    public void personalize(char in, char[] out) {
        throw Overloads.notOverridden(this, "void personalize(char, char[])");
    }

    /**
     * Splits one short result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank
     */
    public void personalize(short in, short[] out) {
        throw Overloads.notOverridden(this, "void personalize(short, short[])");
    }

    /**
     * Splits one int result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank
     */
    public void personalize(int in, int[] out) {
        throw Overloads.notOverridden(this, "void personalize(int, int[])");
    }

    /**
     * Splits one long result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank
     */
    public void personalize(long in, long[] out) {
        throw Overloads.notOverridden(this, "void personalize(long, long[])");
    }

    /**
     * Splits one float result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank
     */
    public void personalize(float in, float[] out) {
        throw Overloads.notOverridden(this, "void personalize(float, float[])");
    }

    /**
     * Splits one double result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank
     */
    public void personalize(double in, double[] out) {
        throw Overloads.notOverridden(this, "void personalize(double, double[])");
    }

    /**
     * Splits one Object result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank
     */
    public void personalize(Object in, Object[] out) {
        throw Overloads.notOverridden(this, "void personalize(Object, Object[])");
    }

    /**
     * Splits one Exception exception into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank
     */
    public void personalize(Exception in, Exception[] out) {
        throw Overloads.notOverridden(this, "void personalize(Exception, Exception[])");
    }
}
