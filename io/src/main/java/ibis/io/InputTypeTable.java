package ibis.io;

import java.util.Arrays;

/**
 * The types defined on one "ibis" input stream, by type id: the local class, the name of a class
 * that could not be loaded here, and for an enum the map from the writer's ordinals to the local
 * constants. Definitions outlive messages; the table only grows, up to the type ids the stream
 * used.
 */
final class InputTypeTable {

    private SerialClass[] types = new SerialClass[64];          // by type id
    private String[] missing = new String[0];                   // by type id: class name that could not be loaded
    private Object[][] enumMaps = new Object[0][];               // by type id: writer's ordinal -> our constant

    /** @return the class of type id {@code t}, or null when no class was defined for it */
    SerialClass get(int t) {
        return t < 0 || t >= types.length ? null : types[t];
    }

    /** @return the name of the class of type id {@code t} that could not be loaded, or null */
    String missing(int t) {
        return t >= 0 && t < missing.length ? missing[t] : null;
    }

    /** Type id {@code id} names a class that could not be loaded here. */
    void markMissing(int id, String name) {
        if (id >= missing.length) {
            missing = Arrays.copyOf(missing, Math.max(2 * missing.length, id + 1));
        }
        missing[id] = name;
    }

    /**
     * Defines type id {@code id} as {@code sc}; for an enum, {@code constantNames} are the writer's
     * constants in ordinal order (a name the local enum lacks maps to null), else null.
     */
    void define(int id, SerialClass sc, String[] constantNames) {
        if (constantNames != null) {
            Object[] map = new Object[constantNames.length];
            for (int i = 0; i < constantNames.length; i++) {
                for (Object constant : sc.enumConstants) {
                    if (((Enum<?>) constant).name().equals(constantNames[i])) {
                        map[i] = constant;
                    }
                }
            }
            if (id >= enumMaps.length) {
                enumMaps = Arrays.copyOf(enumMaps, Math.max(2 * enumMaps.length, id + 1));
            }
            enumMaps[id] = map;
        }
        if (id >= types.length) {
            types = Arrays.copyOf(types, Math.max(2 * types.length, id + 1));
        }
        types[id] = sc;
    }

    /** @return the writer's ordinal -> local constant map of enum type id {@code t} */
    Object[] enumMap(int t) {
        return enumMaps[t];
    }
}
