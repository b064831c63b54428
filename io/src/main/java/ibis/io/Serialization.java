package ibis.io;

import java.io.IOException;
import java.io.ObjectInputFilter;
import java.util.Properties;

/**
 * Creates the serialization streams by name: "byte", "data", "sun", "ibis".
 *
 * <p>"ibis" (and its alias "object") is the fast Ibis object serialization
 * ({@link IbisSerializationOutput}, {@link IbisSerializationInput}); "sun" is the JDK's object
 * streams. Both ends of a connection pick the implementation from the same name. "byte" is the
 * same implementation as "data": a superset of IPL 2.x's byte serialization, which allowed only
 * bytes. Wire formats: io/README.md.
 */
public final class Serialization {

    /** Capability names, most capable first, and the serialization each selects. */
    private static final String[][] CAPABILITIES = {
        {"serialization.object.ibis", "ibis"},
        {"serialization.object.sun", "sun"},
        {"serialization.object", "ibis"},
        {"serialization.data", "data"},
        {"serialization.byte", "byte"},
    };

    private Serialization() {
    }

    /**
     * The serialization name that a port type's capabilities ask for: the most capable of
     * {@code serialization.object.ibis} ("ibis"), {@code serialization.object.sun} ("sun"),
     * {@code serialization.object} ("ibis"), {@code serialization.data} ("data"),
     * {@code serialization.byte} ("byte"); null when none is present.
     */
    public static String nameFor(String[] capabilities) {
        if (capabilities == null) {
            return null;
        }
        for (String[] entry : CAPABILITIES) {
            for (String capability : capabilities) {
                if (entry[0].equals(capability)) {
                    return entry[1];
                }
            }
        }
        return null;
    }

    /**
     * Creates the write side of serialization {@code name} over {@code out}. Writes nothing: an
     * object stream writes its stream header just before its first content, in whichever message
     * that is.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static SerializationOutput createOutput(String name, DataOutput out) throws IOException {
        switch (canonical(name)) {
            case "byte":
                return new DataSerializationOutput("byte", out);
            case "data":
                return new DataSerializationOutput("data", out);
            case "ibis":
                return new IbisSerializationOutput(out);
            default:
                return new SunSerializationOutput(out);
        }
    }

    /**
     * Creates the read side of serialization {@code name} over {@code in}, configured from the system
     * properties (see {@link IoProperties}). Reads nothing: an object stream reads its header at the
     * first read (or at {@code endMessage()}), so this never blocks.
     *
     * @throws IllegalArgumentException for an unknown name or an invalid property value
     */
    public static SerializationInput createInput(String name, DataInput in) throws IOException {
        return createInput(name, in, null, null);
    }

    /**
     * As {@link #createInput(String, DataInput)}, with an extra class filter for object
     * deserialization: a class is accepted only if no filter rejects it (this filter, the
     * {@code ibis.io.class.filter} pattern, the JVM-wide {@code jdk.serialFilter}, and the array
     * length and depth limits). A rejected class makes the read throw
     * {@link java.io.InvalidClassException}.
     *
     * @param filter may be null
     */
    public static SerializationInput createInput(String name, DataInput in, ObjectInputFilter filter)
            throws IOException {
        return createInput(name, in, null, filter);
    }

    /**
     * As {@link #createInput(String, DataInput, ObjectInputFilter)}, taking the io properties from
     * {@code properties} first (may be null) and then from the system properties.
     */
    public static SerializationInput createInput(String name, DataInput in, Properties properties,
            ObjectInputFilter filter) throws IOException {
        switch (canonical(name)) {
            case "byte":
                return new DataSerializationInput("byte", in, IoProperties.stringMax(properties));
            case "data":
                return new DataSerializationInput("data", in, IoProperties.stringMax(properties));
            case "ibis":
                return new IbisSerializationInput(in, properties, objectInputFilter(properties, filter),
                        needsClassFilter(properties, filter));
            default: {
                int deepDepth = IoProperties.sunDeepDepthMax(properties);
                return new SunSerializationInput(in, objectInputFilter(properties, filter),
                        objectInputFilter(properties, filter, deepDepth), LargeStackExecutor.stackSizeFor(deepDepth));
            }
        }
    }

    /**
     * The filter object deserialization applies: rejects a class or array when any of these rejects
     * it: {@code extra} (may be null), the pattern in {@code ibis.io.class.filter}, the JVM-wide
     * filter ({@code jdk.serialFilter}), and the limits {@code ibis.io.object.array.max} and
     * {@code ibis.io.object.depth.max}.
     *
     * @throws IllegalArgumentException when the configured pattern is invalid
     */
    public static ObjectInputFilter objectInputFilter(Properties properties, ObjectInputFilter extra) {
        return objectInputFilter(properties, extra, IoProperties.objectDepthMax(properties));
    }

    /** {@link #objectInputFilter(Properties, ObjectInputFilter)} with the depth limit {@code depthMax}. */
    private static ObjectInputFilter objectInputFilter(Properties properties, ObjectInputFilter extra, int depthMax) {
        ObjectInputFilter result = ObjectInputFilter.Config.createFilter(
                "maxarray=" + IoProperties.objectArrayMax(properties) + ";maxdepth=" + depthMax);
        String pattern = IoProperties.classFilter(properties);
        if (pattern != null) {
            ObjectInputFilter classes;
            try {
                classes = ObjectInputFilter.Config.createFilter(pattern);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("invalid " + IoProperties.CLASS_FILTER + " pattern \"" + pattern
                        + "\": " + e.getMessage(), e);
            }
            result = ObjectInputFilter.merge(classes, result);
        }
        if (extra != null) {
            result = ObjectInputFilter.merge(extra, result);
        }
        ObjectInputFilter global = ObjectInputFilter.Config.getSerialFilter();
        if (global != null) {
            result = ObjectInputFilter.merge(global, result);
        }
        return result;
    }

    /**
     * Whether the ibis serialization must consult the filter for its own classes and arrays: only
     * when a class pattern, an extra filter or a JVM-wide filter is configured (it enforces the
     * array and depth limits itself, so it otherwise skips a filter call per array; JDK classes'
     * readObject hooks always see the full filter).
     */
    static boolean needsClassFilter(Properties properties, ObjectInputFilter extra) {
        return extra != null || IoProperties.classFilter(properties) != null
                || ObjectInputFilter.Config.getSerialFilter() != null;
    }

    private static String canonical(String name) {
        if (name != null) {
            switch (name) {
                case "byte":
                case "data":
                case "sun":
                    return name;
                case "ibis":
                case "object":
                    return "ibis";
                default:
                    break;
            }
        }
        throw new IllegalArgumentException(
                "unknown serialization \"" + name + "\"; known: byte, data, sun, ibis (object)");
    }
}
