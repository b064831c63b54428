package ibis.benchmarks.serialization.shapes;

import java.util.Objects;

/**
 * A node of a balanced binary tree holding four {@code int}s (the papers' tree workload).
 * Rewritten by the Ibis rewriter at build time (ibis-maven-plugin); the same class, never
 * rewritten, is {@link ibis.benchmarks.serialization.plain.Tree}.
 */
public class Tree implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    public Tree left;
    public Tree right;
    public int i0;
    public int i1;
    public int i2;
    public int i3;

    /** An empty node. */
    public Tree() {
    }

    /** A balanced tree of {@code nodes} nodes (2^k - 1 gives a complete tree), numbered in pre-order. */
    public static Tree build(int nodes) {
        return build(nodes, new int[1]);
    }

    private static Tree build(int nodes, int[] counter) {
        if (nodes <= 0) {
            return null;
        }
        Tree t = new Tree();
        int n = counter[0]++;
        t.i0 = n;
        t.i1 = n * 3 + 1;
        t.i2 = -n;
        t.i3 = n ^ 0x5a5a5a5a;
        int rest = nodes - 1;
        t.left = build(rest - rest / 2, counter);
        t.right = build(rest / 2, counter);
        return t;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Tree t) || o.getClass() != getClass()) {
            return false;
        }
        return i0 == t.i0 && i1 == t.i1 && i2 == t.i2 && i3 == t.i3 && Objects.equals(left, t.left)
                && Objects.equals(right, t.right);
    }

    @Override
    public int hashCode() {
        return Objects.hash(i0, i1, i2, i3, left, right);
    }
}
