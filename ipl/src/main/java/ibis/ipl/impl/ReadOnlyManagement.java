package ibis.ipl.impl;

import ibis.ipl.NoSuchPropertyException;

import java.io.PrintStream;
import java.util.Map;

/**
 * The shared part of {@link ibis.ipl.Manageable} for Ibis instances and ports, whose management
 * properties are all read-only counters: lookups in the current map, and a refusal to set anything.
 */
final class ReadOnlyManagement {

    private ReadOnlyManagement() {
    }

    static String get(Map<String, String> current, String key) throws NoSuchPropertyException {
        String value = current.get(key);
        if (value == null) {
            throw new NoSuchPropertyException("no management property '" + key + "' (known: " + current.keySet()
                    + ")");
        }
        return value;
    }

    static void set(Map<String, String> current, String key) throws NoSuchPropertyException {
        if (current.containsKey(key)) {
            throw new NoSuchPropertyException("management property '" + key + "' is read-only");
        }
        throw new NoSuchPropertyException("no management property '" + key + "' (known: " + current.keySet()
                + ")");
    }

    static void print(Map<String, String> current, PrintStream stream) {
        for (Map.Entry<String, String> e : current.entrySet()) {
            stream.println(e.getKey() + " = " + e.getValue());
        }
    }
}
