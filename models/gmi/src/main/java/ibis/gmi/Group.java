package ibis.gmi;

import ibis.gmi.impl.GmiRuntime;

/**
 * Creating, joining and finding groups, and this process's place in the pool. GMI starts on first
 * use: one Ibis instance per process, in the pool given by the {@code ibis.*} properties (as
 * {@code ibis-run} sets them); the pool must have a fixed size ({@code ibis.pool.size}).
 * Failures (no pool, a timeout, a name used twice) throw {@link RuntimeException}s that say what
 * went wrong.
 */
public final class Group {

    /** Not instantiated. */
    protected Group() {
    }

    /**
     * Defines a group: its name, the group interface its members implement, and its size. Any one
     * process creates a group; members may join before or after.
     *
     * @param nm the group name, unique in the pool
     * @param type the group interface
     * @param size the number of members
     * @throws RuntimeException when the name is taken or the arguments are wrong
     */
    public static void create(String nm, Class<?> type, int size) throws RuntimeException {
        GmiRuntime.get().create(nm, type, size);
    }

    /**
     * Adds {@code o} to group {@code nm} with the given rank (or the next free one when negative),
     * waits until the group is complete, sets the member's rank and size and runs its
     * {@link GroupMember#groupInit()}. A process holds at most one member of each group.
     *
     * @param nm the group name
     * @param o the member; it must implement the group interface
     * @param rank the wanted rank, or -1 for any
     * @param timeout milliseconds to wait for the group to be complete (0: no limit)
     * @throws RuntimeException when the rank is taken or out of range, the member does not fit, or
     *         the time is up
     */
    public static void join(String nm, GroupMember o, int rank, long timeout) throws RuntimeException {
        GmiRuntime.get().join(nm, o, rank, timeout);
    }

    /**
     * {@link #join(String, GroupMember, int, long)} with any rank and no time limit.
     *
     * @param nm the group name
     * @param o the member
     * @throws RuntimeException as there
     */
    public static void join(String nm, GroupMember o) throws RuntimeException {
        join(nm, o, -1, 0);
    }

    /**
     * {@link #join(String, GroupMember, int, long)} without time limit.
     *
     * @param nm the group name
     * @param o the member
     * @param rank the wanted rank
     * @throws RuntimeException as there
     */
    public static void join(String nm, GroupMember o, int rank) throws RuntimeException {
        join(nm, o, rank, 0);
    }

    /**
     * Returns a new stub of a group once the group is complete. Each stub has its own method
     * configurations.
     *
     * @param nm the group name
     * @return a stub implementing the group interface
     * @throws RuntimeException when the stub cannot be made
     */
    public static GroupInterface lookup(String nm) throws RuntimeException {
        return lookup(nm, 0);
    }

    /**
     * {@link #lookup(String)} giving up after a time.
     *
     * @param nm the group name
     * @param timeout milliseconds to wait for the group (0: no limit)
     * @return a stub implementing the group interface
     * @throws RuntimeException when the time is up or the stub cannot be made
     */
    public static GroupInterface lookup(String nm, long timeout) throws RuntimeException {
        return GmiRuntime.get().lookup(nm, timeout);
    }

    /** @return this process's rank in the pool, 0..size()-1 */
    public static int rank() {
        return GmiRuntime.get().processRank();
    }

    /** @return the number of processes in the pool */
    public static int size() {
        return GmiRuntime.get().processCount();
    }

    /**
     * Ends GMI in this process: waits until every process of the pool has called {@code exit()} (or
     * is gone), then its Ibis instance leaves the pool. Every process calls it once, at its end; a
     * process that is done keeps serving its group members until all are done.
     */
    public static void exit() {
        GmiRuntime.exit();
    }

    /**
     * Finds a method of a stub by its source signature, for example {@code "int getLoad()"} or
     * {@code "void put(int, double[])"} (return type, name and parameter types as written in Java,
     * with simple or qualified class names).
     *
     * @param i a stub from {@link #lookup}
     * @param desc the signature
     * @return the method of that stub
     * @throws NoSuchMethodException when the stub's interface has no such method
     */
    public static GroupMethod findMethod(GroupInterface i, String desc) throws NoSuchMethodException {
        return GmiRuntime.findMethod(i, desc);
    }
}
