package ibis.benchmarks.rmi;

/**
 * A node of a balanced binary tree of four-{@code int} nodes: {@code tree(15)} is a parameter of
 * the {@code ping(obj)} figures, {@code tree(1023)} the throughput payload ("Ibis: an Efficient
 * Java-based Grid Programming Environment"). Plain {@code java.io.Serializable}, rewritten on the
 * Ibis side.
 */
public final class Tree implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    int i0;
    int i1;
    int i2;
    int i3;
    Tree left;
    Tree right;

    private Tree(int index) {
        i0 = index;
        i1 = index * 3;
        i2 = index ^ 0x5a5a;
        i3 = -index;
    }

    /**
     * A balanced tree of {@code nodes} nodes.
     *
     * @param nodes 2^d - 1 for some depth d >= 1
     * @return the root
     */
    public static Tree of(int nodes) {
        int depth = Integer.numberOfTrailingZeros(nodes + 1);
        if (nodes < 1 || (nodes + 1) != (1 << depth)) {
            throw new IllegalArgumentException("a balanced tree has 2^d - 1 nodes, not " + nodes);
        }
        return build(depth, 1);
    }

    private static Tree build(int depth, int index) {
        Tree n = new Tree(index);
        if (depth > 1) {
            n.left = build(depth - 1, 2 * index);
            n.right = build(depth - 1, 2 * index + 1);
        }
        return n;
    }

    /** A checksum over shape and values; iterative, so deep trees do not overflow the stack. */
    long checksum() {
        long sum = 0;
        long count = 0;
        java.util.ArrayDeque<Tree> stack = new java.util.ArrayDeque<>();
        java.util.ArrayDeque<Long> position = new java.util.ArrayDeque<>();
        stack.push(this);
        position.push(1L);
        while (!stack.isEmpty()) {
            Tree n = stack.pop();
            long p = position.pop();
            count++;
            sum = sum * 31 + p * (n.i0 + 3L * n.i1 + 5L * n.i2 + 7L * n.i3);
            if (n.right != null) {
                stack.push(n.right);
                position.push(2 * p + 1);
            }
            if (n.left != null) {
                stack.push(n.left);
                position.push(2 * p);
            }
        }
        return sum * 1_000_003L + count;
    }
}
