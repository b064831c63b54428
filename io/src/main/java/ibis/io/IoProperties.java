package ibis.io;

import ibis.io.config.Property;
import ibis.io.config.PropertyTable;

import java.util.List;
import java.util.Properties;

/**
 * The configuration properties of the io layer, in one table (name, default, meaning) so that a
 * launcher's {@code --help-properties} can print them. Each value is taken from the
 * {@link Properties} passed by the caller when it contains the key, else from the system property
 * of the same name, else the default.
 */
public final class IoProperties implements PropertyTable {

    /** Largest block payload (bytes) a {@link BlockInputStream} accepts. */
    public static final String BLOCK_MAX = "ibis.io.block.max";
    /** Largest string length (chars) the data and byte serializations accept. */
    public static final String STRING_MAX = "ibis.io.string.max";
    /** Class filter pattern for object deserialization, {@code jdk.serialFilter} syntax. */
    public static final String CLASS_FILTER = "ibis.io.class.filter";
    /** Largest array length (elements) object deserialization accepts. */
    public static final String OBJECT_ARRAY_MAX = "ibis.io.object.array.max";
    /** Deepest object nesting object deserialization accepts. */
    public static final String OBJECT_DEPTH_MAX = "ibis.io.object.depth.max";
    /**
     * Deepest object nesting the sun serialization writes and reads on a large stack, for graphs
     * too deep for the caller's.
     */
    public static final String SUN_DEEP_DEPTH_MAX = "ibis.io.sun.deep.depth.max";
    /** When true, the ibis serialization logs each class whose serializer it had to generate at run time. */
    public static final String REWRITER_WARN = "ibis.io.rewriter.warn";

    /** Default of {@link #BLOCK_MAX}: 16 MiB. */
    public static final int DEFAULT_BLOCK_MAX = 16 << 20;
    /** Default of {@link #STRING_MAX}: 64 Mi chars. */
    public static final int DEFAULT_STRING_MAX = 64 << 20;
    /** Default of {@link #OBJECT_ARRAY_MAX}: 16 Mi elements. */
    public static final int DEFAULT_OBJECT_ARRAY_MAX = 16 << 20;
    /** Default of {@link #OBJECT_DEPTH_MAX}. */
    public static final int DEFAULT_OBJECT_DEPTH_MAX = 1000;

    /** Default of {@link #SUN_DEEP_DEPTH_MAX}. */
    public static final int DEFAULT_SUN_DEEP_DEPTH_MAX = 250_000;

    /** {@link #BLOCK_MAX}. */
    public static final Property<Integer> BLOCK_MAX_PROPERTY = Property.ofInt(BLOCK_MAX, DEFAULT_BLOCK_MAX, 1,
            Integer.MAX_VALUE, "largest block payload in bytes accepted from a peer; a larger block length is a"
                    + " corrupt stream (StreamCorruptedException) and nothing is allocated from it");
    /** {@link #STRING_MAX}. */
    public static final Property<Integer> STRING_MAX_PROPERTY = Property.ofInt(STRING_MAX, DEFAULT_STRING_MAX, 1,
            Integer.MAX_VALUE, "largest string length in chars accepted by the data, byte and ibis serializations");
    /** {@link #CLASS_FILTER}. */
    public static final Property<String> CLASS_FILTER_PROPERTY = Property.ofText(CLASS_FILTER, "",
            "classes that object deserialization may instantiate, as a jdk.serialFilter pattern"
                    + " (e.g. \"java.util.*;java.lang.*;my.app.**;!*\"); empty: no class restriction"
                    + " beyond jdk.serialFilter");
    /** {@link #OBJECT_ARRAY_MAX}. */
    public static final Property<Integer> OBJECT_ARRAY_MAX_PROPERTY = Property.ofInt(OBJECT_ARRAY_MAX,
            DEFAULT_OBJECT_ARRAY_MAX, 1, Integer.MAX_VALUE,
            "largest array length in elements accepted by object deserialization");
    /** {@link #OBJECT_DEPTH_MAX}. */
    public static final Property<Integer> OBJECT_DEPTH_MAX_PROPERTY = Property.ofInt(OBJECT_DEPTH_MAX,
            DEFAULT_OBJECT_DEPTH_MAX, 1, Integer.MAX_VALUE,
            "deepest object nesting accepted by object deserialization (ibis: nesting that cannot be"
                    + " deferred, i.e. through classes with hooks, Externalizable or records; also the"
                    + " writer's limit)");
    /** {@link #SUN_DEEP_DEPTH_MAX}. */
    public static final Property<Integer> SUN_DEEP_DEPTH_MAX_PROPERTY = Property.ofInt(SUN_DEEP_DEPTH_MAX,
            DEFAULT_SUN_DEEP_DEPTH_MAX, 1, Integer.MAX_VALUE,
            "sun serialization: a message whose object graph is too deep for the writer's thread stack"
                    + " (a long linked list) is written and read on threads with a stack for this many levels"
                    + " (about 2 KiB each), and read with this depth limit instead of " + OBJECT_DEPTH_MAX);
    /** {@link #REWRITER_WARN}. */
    public static final Property<Boolean> REWRITER_WARN_PROPERTY = Property.ofBoolean(REWRITER_WARN, false,
            "log one line per class whose ibis serializer had to be generated at run time (not rewritten)");

    /** All io properties, in the order they should be listed. */
    public static final List<Property<?>> ALL = List.of(BLOCK_MAX_PROPERTY, STRING_MAX_PROPERTY,
            CLASS_FILTER_PROPERTY, OBJECT_ARRAY_MAX_PROPERTY, OBJECT_DEPTH_MAX_PROPERTY, SUN_DEEP_DEPTH_MAX_PROPERTY,
            REWRITER_WARN_PROPERTY);

    /** Creates the table (used by {@link java.util.ServiceLoader}). */
    public IoProperties() {
    }

    @Override
    public String subsystem() {
        return "io";
    }

    @Override
    public List<Property<?>> properties() {
        return ALL;
    }

    /** The value of {@code name}: from {@code properties} (may be null), else the system property, else null. */
    public static String value(Properties properties, String name) {
        if (properties != null) {
            String value = properties.getProperty(name);
            if (value != null) {
                return value;
            }
        }
        return System.getProperty(name);
    }

    /** {@link #BLOCK_MAX} as configured. */
    public static int blockMax(Properties properties) {
        return BLOCK_MAX_PROPERTY.get(properties);
    }

    /** {@link #STRING_MAX} as configured. */
    public static int stringMax(Properties properties) {
        return STRING_MAX_PROPERTY.get(properties);
    }

    /** {@link #OBJECT_ARRAY_MAX} as configured. */
    public static int objectArrayMax(Properties properties) {
        return OBJECT_ARRAY_MAX_PROPERTY.get(properties);
    }

    /** {@link #OBJECT_DEPTH_MAX} as configured. */
    public static int objectDepthMax(Properties properties) {
        return OBJECT_DEPTH_MAX_PROPERTY.get(properties);
    }

    /** {@link #SUN_DEEP_DEPTH_MAX} as configured. */
    public static int sunDeepDepthMax(Properties properties) {
        return SUN_DEEP_DEPTH_MAX_PROPERTY.get(properties);
    }

    /** {@link #CLASS_FILTER} as configured; null when not set or blank. */
    public static String classFilter(Properties properties) {
        String value = CLASS_FILTER_PROPERTY.get(properties);
        return value == null || value.isEmpty() ? null : value;
    }
}
