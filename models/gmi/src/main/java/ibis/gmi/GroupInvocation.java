package ibis.gmi;

import java.util.Arrays;

/**
 * Forwards each invocation, with the same parameters, to every member of the group or to a given
 * subset. The parameters are serialized once and sent as one multicast message.
 */
public class GroupInvocation extends InvocationScheme {

    private final int[] targets;

    /** Every member of the group. */
    public GroupInvocation() {
        super(I_GROUP);
        targets = null;
    }

    /**
     * A subset of the members.
     *
     * @param targets the ranks of the members that get the invocations (any order, each once)
     * @throws ConfigurationException when the set is empty, or holds a negative or repeated rank
     */
    public GroupInvocation(int[] targets) throws ConfigurationException {
        super(I_GROUP);
        if (targets == null || targets.length == 0) {
            throw new ConfigurationException("GroupInvocation: no target ranks");
        }
        int[] sorted = targets.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < sorted.length; i++) {
            if (sorted[i] < 0) {
                throw new ConfigurationException("GroupInvocation: negative target rank " + sorted[i]);
            }
            if (i > 0 && sorted[i] == sorted[i - 1]) {
                throw new ConfigurationException("GroupInvocation: target rank " + sorted[i] + " given twice");
            }
        }
        this.targets = sorted;
    }

    /**
     * @return the target ranks in ascending order, or null for the whole group
     */
    public int[] targets() {
        return targets == null ? null : targets.clone();
    }
}
