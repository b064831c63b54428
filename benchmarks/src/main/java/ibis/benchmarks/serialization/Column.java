package ibis.benchmarks.serialization;

import java.io.IOException;

/**
 * The columns of the serialization suite: Ibis on its two code paths, and the peers. Kryo and Fory
 * appear twice: in their default mode without reference tracking (faster, but shared objects are
 * duplicated and a cycle never ends), and with reference tracking, which gives the guarantees that
 * Ibis and JDK serialization always give (identity of shared objects and cycles within a message).
 */
enum Column {
    IBIS_REWRITTEN("ibis-rewritten", "Ibis (rewritten)", false),
    IBIS_RUNTIME("ibis-runtime", "Ibis (run-time)", true),
    JDK("jdk", "JDK", false),
    KRYO("kryo", "Kryo 5", false),
    FORY("fory", "Fory", false),
    KRYO_REFS("kryo-refs", "Kryo 5 +refs", false),
    FORY_REFS("fory-refs", "Fory +refs", false);

    /** The name used as the JMH parameter value. */
    final String key;
    /** The name in the report. */
    final String label;
    /** Uses the classes of package {@code plain} (never rewritten): Ibis's run-time generated serializers. */
    final boolean plainClasses;

    Column(String key, String label, boolean plainClasses) {
        this.key = key;
        this.label = label;
        this.plainClasses = plainClasses;
    }

    /** A new, independent codec of this column. */
    Codec open() throws IOException {
        switch (this) {
            case IBIS_REWRITTEN:
            case IBIS_RUNTIME:
                return new IbisCodec();
            case JDK:
                return new JdkCodec();
            case KRYO:
                return new KryoCodec(false);
            case FORY:
                return new ForyCodec(false);
            case KRYO_REFS:
                return new KryoCodec(true);
            case FORY_REFS:
                return new ForyCodec(true);
            default:
                throw new AssertionError(this);
        }
    }

    /** Whether this column is measured on {@code w} (the run-time path differs only for class instances). */
    boolean measures(Workload w) {
        return !plainClasses || w.hasClasses();
    }

    /** The column with JMH parameter value {@code key}. */
    static Column of(String key) {
        for (Column c : values()) {
            if (c.key.equals(key)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown column " + key);
    }
}
