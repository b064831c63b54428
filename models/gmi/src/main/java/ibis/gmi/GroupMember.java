package ibis.gmi;

/**
 * The base class of the objects that form a group: a member implements the group's interface and
 * joins a group with {@link Group#join}. When all members have joined, each learns its rank and the
 * group size (the public fields, for compatibility with earlier GMI programs) and its
 * {@link #groupInit()} runs.
 */
public class GroupMember {

    /** This member's rank in its group, set before {@link #groupInit()} runs; 0 before. */
    public int myGroupRank;

    /** The size of this member's group, set before {@link #groupInit()} runs; 0 before. */
    public int groupSize;

    /** A member that has not joined a group yet. */
    public GroupMember() {
    }

    /** @return this member's rank, 0 before it joined a group */
    public int getRank() {
        return myGroupRank;
    }

    /** @return the size of this member's group, 0 before it joined a group */
    public int getSize() {
        return groupSize;
    }

    /** Called once, in the thread that joined, when the group is complete; does nothing unless overridden. */
    public void groupInit() {
    }
}
