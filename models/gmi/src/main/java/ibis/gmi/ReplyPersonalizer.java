package ibis.gmi;

import java.util.Arrays;

/**
 * Splits the result of a combined invocation into one result per invoker ({@link PersonalizeReply}):
 * the invoker that performed the call personalizes the result, and each invoker receives its own
 * element. Used as it is ({@code new ReplyPersonalizer()}) it gives every invoker the whole result,
 * as the earlier GMI's did. Subclasses override the overloads of the types they split; an overload a
 * subclass is called with but did not override throws {@link UnsupportedOperationException} naming
 * the class and the overload (a subclass that splits ints is not meant for doubles).
 */
public class ReplyPersonalizer implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    /** A personalizer that gives every invoker the whole result; or one for subclasses. */
    public ReplyPersonalizer() {
    }

    /**
     * Splits one boolean result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank (here: the whole result)
     */
    public void personalize(boolean in, boolean[] out) {
        wholeResultOrNotOverridden("void personalize(boolean, boolean[])");
        Arrays.fill(out, in);
    }

    /**
     * Splits one byte result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank (here: the whole result)
     */
    public void personalize(byte in, byte[] out) {
        wholeResultOrNotOverridden("void personalize(byte, byte[])");
        Arrays.fill(out, in);
    }

    /**
     * Splits one char result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank (here: the whole result)
     */
    public void personalize(char in, char[] out) {
        wholeResultOrNotOverridden("void personalize(char, char[])");
        Arrays.fill(out, in);
    }

    /**
     * Splits one short result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank (here: the whole result)
     */
    public void personalize(short in, short[] out) {
        wholeResultOrNotOverridden("void personalize(short, short[])");
        Arrays.fill(out, in);
    }

    /**
     * Splits one int result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank (here: the whole result)
     */
    public void personalize(int in, int[] out) {
        wholeResultOrNotOverridden("void personalize(int, int[])");
        Arrays.fill(out, in);
    }

    /**
     * Splits one long result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank (here: the whole result)
     */
    public void personalize(long in, long[] out) {
        wholeResultOrNotOverridden("void personalize(long, long[])");
        Arrays.fill(out, in);
    }

    /**
     * Splits one float result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank (here: the whole result)
     */
    public void personalize(float in, float[] out) {
        wholeResultOrNotOverridden("void personalize(float, float[])");
        Arrays.fill(out, in);
    }

    /**
     * Splits one double result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank (here: the whole result)
     */
    public void personalize(double in, double[] out) {
        wholeResultOrNotOverridden("void personalize(double, double[])");
        Arrays.fill(out, in);
    }

    /**
     * Splits one Object result into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank (here: the whole result)
     */
    public void personalize(Object in, Object[] out) {
        wholeResultOrNotOverridden("void personalize(Object, Object[])");
        Arrays.fill(out, in);
    }

    /**
     * Splits one Exception exception into one per invoker of a combined invocation.
     *
     * @param in the result of the call
     * @param out filled with the result for each invoker, indexed by invoker rank (here: the whole result)
     */
    public void personalize(Exception in, Exception[] out) {
        wholeResultOrNotOverridden("void personalize(Exception, Exception[])");
        Arrays.fill(out, in);
    }

    /**
     * The base class itself gives every invoker the whole result; a subclass that did not override
     * the overload called is told so.
     */
    private void wholeResultOrNotOverridden(String overload) {
        if (getClass() != ReplyPersonalizer.class) {
            throw Overloads.notOverridden(this, overload);
        }
    }
}
