package ibis.benchmarks.serialization;

import java.util.Arrays;
import java.util.Random;

/**
 * The workloads of the serialization suite (BENCHMARKS.md, "serialization"; Tables 1 and 2 of
 * the Ibis paper, Table 2 of "More Efficient Serialization and RMI for Java"). Throughput workloads
 * report MB/s (10^6 bytes per second) of their user payload; per-object workloads report µs per
 * object (one object, or one whole tree, per message).
 */
enum Workload {
    BYTES("bytes", "byte[] 100 KB", true, Workload.ARRAY_BYTES),
    INTS("ints", "int[] 100 KB", true, Workload.ARRAY_BYTES),
    DOUBLES("doubles", "double[] 100 KB", true, Workload.ARRAY_BYTES),
    TREE1023("tree1023", "tree, 1023 nodes", true, 1023 * 16),
    INTS32("ints32", "object, 32 ints", false, 32 * 4),
    INTS4NULL2("ints4null2", "object, 4 ints + 2 null", false, 4 * 4),
    TREE15("tree15", "tree, 15 nodes", false, 15 * 16);

    /** 100 KB. */
    static final int ARRAY_BYTES = 100 * 1024;

    /** The name used as the JMH parameter value. */
    final String key;
    /** The name in the report. */
    final String label;
    /** True: reported as MB/s of user payload; false: as µs per object. */
    final boolean throughput;
    /** User payload bytes per message (the arrays' contents, or 16 bytes of ints per tree node). */
    final int payloadBytes;

    Workload(String key, String label, boolean throughput, int payloadBytes) {
        this.key = key;
        this.label = label;
        this.throughput = throughput;
        this.payloadBytes = payloadBytes;
    }

    /** Whether the value contains objects of application classes (so the rewritten and run-time paths differ). */
    boolean hasClasses() {
        return this != BYTES && this != INTS && this != DOUBLES;
    }

    /**
     * A new value of this workload (same contents every time). {@code plain}: built from the classes
     * of package {@code plain} (never rewritten) instead of package {@code shapes} (rewritten).
     */
    Object create(boolean plain) {
        Random random = new Random(42);
        switch (this) {
            case BYTES: {
                byte[] a = new byte[ARRAY_BYTES];
                random.nextBytes(a);
                return a;
            }
            case INTS: {
                int[] a = new int[ARRAY_BYTES / 4];
                Arrays.setAll(a, i -> random.nextInt());
                return a;
            }
            case DOUBLES: {
                double[] a = new double[ARRAY_BYTES / 8];
                Arrays.setAll(a, i -> random.nextDouble());
                return a;
            }
            case TREE1023:
                return plain ? ibis.benchmarks.serialization.plain.Tree.build(1023)
                        : ibis.benchmarks.serialization.shapes.Tree.build(1023);
            case TREE15:
                return plain ? ibis.benchmarks.serialization.plain.Tree.build(15)
                        : ibis.benchmarks.serialization.shapes.Tree.build(15);
            case INTS32:
                return plain ? ibis.benchmarks.serialization.plain.Ints32.create(7)
                        : ibis.benchmarks.serialization.shapes.Ints32.create(7);
            case INTS4NULL2:
                return plain ? ibis.benchmarks.serialization.plain.Ints4Null2.create(3)
                        : ibis.benchmarks.serialization.shapes.Ints4Null2.create(3);
            default:
                throw new AssertionError(this);
        }
    }

    /** Deep equality of two values of this workload (arrays by contents, objects by equals). */
    static boolean sameValue(Object a, Object b) {
        if (a instanceof byte[] x && b instanceof byte[] y) {
            return Arrays.equals(x, y);
        }
        if (a instanceof int[] x && b instanceof int[] y) {
            return Arrays.equals(x, y);
        }
        if (a instanceof double[] x && b instanceof double[] y) {
            return Arrays.equals(x, y);
        }
        return a != null && a.equals(b);
    }

    /** The workload with JMH parameter value {@code key}. */
    static Workload of(String key) {
        for (Workload w : values()) {
            if (w.key.equals(key)) {
                return w;
            }
        }
        throw new IllegalArgumentException("unknown workload " + key);
    }
}
