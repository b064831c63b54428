package ibis.benchmarks.ipl;

import java.io.Serializable;

/**
 * A node of the balanced binary tree of the throughput benchmark ("Ibis: an Efficient Java-based
 * Grid Programming Environment", Table 3): four {@code int}s of user payload and two children. The
 * benchmark tree has {@link #NODES} nodes, so a message carries {@link #PAYLOAD_BYTES} bytes of
 * user payload; what a serialization adds on top (type information, handles, references) is its
 * overhead.
 */
public final class TreeNode implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Depth of the benchmark tree: 2^10 - 1 = 1023 nodes. */
    static final int DEPTH = 10;

    /** Nodes of the benchmark tree. */
    static final int NODES = (1 << DEPTH) - 1;

    /** User payload of one tree: four ints per node. */
    static final int PAYLOAD_BYTES = NODES * 4 * Integer.BYTES;

    int i0;
    int i1;
    int i2;
    int i3;
    TreeNode left;
    TreeNode right;

    /** Creates a leaf with the given values. */
    public TreeNode(int i0, int i1, int i2, int i3) {
        this.i0 = i0;
        this.i1 = i1;
        this.i2 = i2;
        this.i3 = i3;
    }

    /** The benchmark tree: balanced, {@link #NODES} nodes, values depending on the node's position. */
    static TreeNode benchmarkTree() {
        return build(DEPTH, 1);
    }

    private static TreeNode build(int depth, int index) {
        TreeNode n = new TreeNode(index, index * 3, index ^ 0x5a5a, -index);
        if (depth > 1) {
            n.left = build(depth - 1, 2 * index);
            n.right = build(depth - 1, 2 * index + 1);
        }
        return n;
    }

    /**
     * A checksum over the shape and the values of the tree under {@code root}: equal trees have
     * equal checksums, and a missing node or a changed value changes it (for all practical purposes).
     * Iterative, so deep trees do not overflow the stack.
     */
    static long checksum(TreeNode root) {
        long sum = 0;
        long count = 0;
        TreeNode[] stack = new TreeNode[64];
        long[] position = new long[64];
        int top = 0;
        if (root != null) {
            stack[top] = root;
            position[top++] = 1;
        }
        while (top > 0) {
            TreeNode n = stack[--top];
            long p = position[top];
            count++;
            sum = sum * 31 + p * (n.i0 + 3L * n.i1 + 5L * n.i2 + 7L * n.i3);
            if (top + 2 > stack.length) {
                stack = java.util.Arrays.copyOf(stack, stack.length * 2);
                position = java.util.Arrays.copyOf(position, position.length * 2);
            }
            if (n.right != null) {
                stack[top] = n.right;
                position[top++] = 2 * p + 1;
            }
            if (n.left != null) {
                stack[top] = n.left;
                position[top++] = 2 * p;
            }
        }
        return sum * 1_000_003L + count;
    }
}
