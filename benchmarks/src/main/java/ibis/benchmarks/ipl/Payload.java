package ibis.benchmarks.ipl;

/**
 * What one throughput message carries: a 100 KB array ({@link ArrayKind}) or the 1023-node tree
 * ({@link TreeNode}). Knows its user payload (the bytes that count for MB/s), its wire code (the
 * {@code what} byte of {@link BenchPorts}) and how to checksum a received value.
 */
enum Payload {
    BYTES(ArrayKind.BYTE),
    INTS(ArrayKind.INT),
    DOUBLES(ArrayKind.DOUBLE),
    TREE(null);

    /** The array kind, or null for the tree. */
    final ArrayKind kind;

    Payload(ArrayKind kind) {
        this.kind = kind;
    }

    /** The code in a stream message's {@code what} byte. */
    byte code() {
        return kind == null ? BenchPorts.TREE : (byte) kind.ordinal();
    }

    /** The payload for a code, or null when the code is unknown. */
    static Payload of(byte code) {
        if (code == BenchPorts.TREE) {
            return TREE;
        }
        return code >= 0 && code < ArrayKind.values().length ? values()[code] : null;
    }

    /** User payload bytes of one message. */
    int userBytes() {
        return kind == null ? TreeNode.PAYLOAD_BYTES : ArrayKind.MESSAGE_BYTES;
    }

    /** A new value to send. */
    Object newValue() {
        return kind == null ? TreeNode.benchmarkTree() : kind.newArray();
    }

    /**
     * The checksum of a received value.
     *
     * @throws IllegalArgumentException when the value is not of this payload's type and size
     */
    long checksum(Object value) {
        if (kind == null) {
            if (!(value instanceof TreeNode t)) {
                throw new IllegalArgumentException("expected a TreeNode, got " + describe(value));
            }
            return TreeNode.checksum(t);
        }
        if (!kind.fits(value)) {
            throw new IllegalArgumentException("expected " + kind.javaName() + " of " + kind.elements()
                    + " elements, got " + describe(value));
        }
        return kind.checksum(value);
    }

    private static String describe(Object value) {
        return value == null ? "null" : value.getClass().getSimpleName();
    }

    /** Display name, e.g. {@code int[]} or {@code tree(1023)}. */
    String displayName() {
        return kind == null ? "tree(" + TreeNode.NODES + ")" : kind.javaName();
    }
}
