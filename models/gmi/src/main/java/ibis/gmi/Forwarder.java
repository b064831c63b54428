package ibis.gmi;

/**
 * Receives the results of a group method configured with {@link ForwardReply}: the invoker does
 * not wait, and each invoked member's result (or exception) is handed to this object in the
 * invoker's process, one call per member, as replies arrive (from an Ibis thread, so
 * implementations synchronize themselves). Subclasses override the overloads of the types they
 * receive; an overload called without being overridden throws {@link UnsupportedOperationException}
 * naming the class and the overload.
 */
public class Forwarder {

    /** For subclasses. */
    protected Forwarder() {
    }

    /**
     * A member finished a method without result normally.
     *
     * @param rank the member's rank
     * @param size the number of results this call forwards: the members it invoked (1 for a
     *        {@link SingleInvocation}, the group size for a {@link GroupInvocation} of all members)
     */
    public void forward(int rank, int size) {
        throw Overloads.notOverridden(this, "void forward(int, int)");
    }

    /**
     * Receives a boolean result of a member.
     *
     * @param rank the member's rank
     * @param size the number of results this call forwards: the members it invoked (1 for a
     *        {@link SingleInvocation}, the group size for a {@link GroupInvocation} of all members)
     * @param result the result
     */
    public void forward(int rank, int size, boolean result) {
        throw Overloads.notOverridden(this, "void forward(int, int, boolean)");
    }

    /**
     * Receives a byte result of a member.
     *
     * @param rank the member's rank
     * @param size the number of results this call forwards: the members it invoked (1 for a
     *        {@link SingleInvocation}, the group size for a {@link GroupInvocation} of all members)
     * @param result the result
     */
    public void forward(int rank, int size, byte result) {
        throw Overloads.notOverridden(this, "void forward(int, int, byte)");
    }

    /**
     * Receives a char result of a member.
     *
     * @param rank the member's rank
     * @param size the number of results this call forwards: the members it invoked (1 for a
     *        {@link SingleInvocation}, the group size for a {@link GroupInvocation} of all members)
     * @param result the result
     */
    public void forward(int rank, int size, char result) {
        throw Overloads.notOverridden(this, "void forward(int, int, char)");
    }

    /**
     * Receives a short result of a member.
     *
     * @param rank the member's rank
     * @param size the number of results this call forwards: the members it invoked (1 for a
     *        {@link SingleInvocation}, the group size for a {@link GroupInvocation} of all members)
     * @param result the result
     */
    public void forward(int rank, int size, short result) {
        throw Overloads.notOverridden(this, "void forward(int, int, short)");
    }

    /**
     * Receives a int result of a member.
     *
     * @param rank the member's rank
     * @param size the number of results this call forwards: the members it invoked (1 for a
     *        {@link SingleInvocation}, the group size for a {@link GroupInvocation} of all members)
     * @param result the result
     */
    public void forward(int rank, int size, int result) {
        throw Overloads.notOverridden(this, "void forward(int, int, int)");
    }

    /**
     * Receives a long result of a member.
     *
     * @param rank the member's rank
     * @param size the number of results this call forwards: the members it invoked (1 for a
     *        {@link SingleInvocation}, the group size for a {@link GroupInvocation} of all members)
     * @param result the result
     */
    public void forward(int rank, int size, long result) {
        throw Overloads.notOverridden(this, "void forward(int, int, long)");
    }

    /**
     * Receives a float result of a member.
     *
     * @param rank the member's rank
     * @param size the number of results this call forwards: the members it invoked (1 for a
     *        {@link SingleInvocation}, the group size for a {@link GroupInvocation} of all members)
     * @param result the result
     */
    public void forward(int rank, int size, float result) {
        throw Overloads.notOverridden(this, "void forward(int, int, float)");
    }

    /**
     * Receives a double result of a member.
     *
     * @param rank the member's rank
     * @param size the number of results this call forwards: the members it invoked (1 for a
     *        {@link SingleInvocation}, the group size for a {@link GroupInvocation} of all members)
     * @param result the result
     */
    public void forward(int rank, int size, double result) {
        throw Overloads.notOverridden(this, "void forward(int, int, double)");
    }

    /**
     * Receives a Object result of a member.
     *
     * @param rank the member's rank
     * @param size the number of results this call forwards: the members it invoked (1 for a
     *        {@link SingleInvocation}, the group size for a {@link GroupInvocation} of all members)
     * @param result the result
     */
    public void forward(int rank, int size, Object result) {
        throw Overloads.notOverridden(this, "void forward(int, int, Object)");
    }

    /**
     * Receives the exception a member threw.
     *
     * @param rank the member's rank
     * @param size the number of results this call forwards: the members it invoked (1 for a
     *        {@link SingleInvocation}, the group size for a {@link GroupInvocation} of all members)
     * @param result the exception
     */
    public void forward(int rank, int size, Exception result) {
        throw Overloads.notOverridden(this, "void forward(int, int, Exception)");
    }
}
