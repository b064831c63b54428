package ibis.gmi.impl;

/**
 * The base class of generated group skeletons ({@link SkeletonGenerator}): calls method number
 * {@code method} of a group interface on a member directly (no reflection), with unpacked
 * arguments; what the method throws comes out unchanged.
 */
public abstract class GroupSkeleton {

    /** For generated subclasses. */
    protected GroupSkeleton() {
    }

    /**
     * Runs a method on a member.
     *
     * @param member the member (it implements the group interface)
     * @param method the method's number in the interface's method table
     * @param args the arguments, boxed
     * @return the result, boxed (null for void)
     * @throws Throwable what the method threw
     */
    public abstract Object dispatch(Object member, int method, Object[] args) throws Throwable;

    /**
     * @param method a method number the interface does not have
     * @return the exception to throw
     */
    protected static RuntimeException noMethod(int method) {
        return new IllegalArgumentException("no group method number " + method);
    }
}
