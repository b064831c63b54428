package ibis.io;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Compares a deserialized object graph with the original: deep equality of every serial field
 * (fields of serializable classes that are not static or transient), element by element for
 * arrays, lists and maps, and the same identity structure: two references to one original object
 * must be two references to one copy, and two different originals must not become one copy. Values
 * (strings, boxed primitives, enum constants, classes) compare with equals. Iterative, so 100,000-
 * node lists compare without deep recursion.
 */
final class GraphAssert {

    private final IdentityHashMap<Object, Object> copyOf = new IdentityHashMap<>();
    private final IdentityHashMap<Object, Object> originalOf = new IdentityHashMap<>();
    private final ArrayDeque<Object[]> work = new ArrayDeque<>(); // {expected, actual, Path}

    /** Where in the graph: built into a string only when a check fails (long lists would make it quadratic). */
    private record Path(Path parent, String step) {
        @Override
        public String toString() {
            StringBuilder b = new StringBuilder();
            int hops = 0;
            for (Path p = this; p != null; p = p.parent) {
                if (hops++ < 12) {
                    b.insert(0, p.step);
                } else if (p.parent == null) {
                    b.insert(0, p.step + "...(" + (hops - 12) + " more)");
                }
            }
            return b.toString();
        }
    }

    /** The serial fields of user classes (JDK superclass state is covered by the collection/equals checks). */
    private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> c) {
            List<Field> fields = new java.util.ArrayList<>();
            for (Class<?> k = c; k != null && java.io.Serializable.class.isAssignableFrom(k); k = k.getSuperclass()) {
                if (k.getName().startsWith("java.")) {
                    break;
                }
                for (Field f : k.getDeclaredFields()) {
                    int m = f.getModifiers();
                    if (!Modifier.isStatic(m) && !Modifier.isTransient(m)) {
                        f.setAccessible(true);
                        fields.add(f);
                    }
                }
            }
            return fields;
        }
    };

    private GraphAssert() {
    }

    /** Fails with a path to the first difference. */
    static void assertGraphEquals(Object actual, Object expected) {
        GraphAssert g = new GraphAssert();
        g.work.add(new Object[] {expected, actual, new Path(null, "root")});
        while (!g.work.isEmpty()) {
            Object[] item = g.work.poll();
            g.compare(item[0], item[1], (Path) item[2]);
        }
    }

    private static boolean isValue(Object o) {
        return o instanceof String || o instanceof Number && o.getClass().getName().startsWith("java.lang.")
                || o instanceof Boolean || o instanceof Character || o instanceof Enum || o instanceof Class;
    }

    private static AssertionError fail(Object path, String message) {
        return new AssertionError(path + ": " + message);
    }

    private void compare(Object expected, Object actual, Path path) {
        if (expected == null || actual == null) {
            if (expected != actual) {
                throw fail(path, "expected " + describe(expected) + " but was " + describe(actual));
            }
            return;
        }
        if (isValue(expected)) {
            if (!expected.equals(actual)) {
                throw fail(path, "expected " + describe(expected) + " but was " + describe(actual));
            }
            return;
        }
        Object seen = copyOf.get(expected);
        if (seen != null) {
            if (seen != actual) {
                throw fail(path, "a shared reference became two objects (" + describe(expected) + ")");
            }
            return;
        }
        Object other = originalOf.get(actual);
        if (other != null && other != expected) {
            throw fail(path, "two different objects became one (" + describe(expected) + ")");
        }
        if (actual == expected) {
            if (hasReadResolve(expected.getClass())) {
                return; // a canonical instance (readResolve), like an enum constant
            }
            throw fail(path, "the copy is the original object itself");
        }
        copyOf.put(expected, actual);
        originalOf.put(actual, expected);
        if (expected.getClass() != actual.getClass()) {
            throw fail(path,
                    "expected class " + expected.getClass().getName() + " but was " + actual.getClass().getName());
        }
        Class<?> c = expected.getClass();
        if (c.isArray()) {
            int n = Array.getLength(expected);
            if (n != Array.getLength(actual)) {
                throw fail(path, "array length " + Array.getLength(actual) + ", expected " + n);
            }
            for (int i = 0; i < n; i++) {
                Object e = Array.get(expected, i);
                Object a = Array.get(actual, i);
                if (c.getComponentType().isPrimitive()) {
                    if (!e.equals(a)) {
                        throw fail(new Path(path, "[" + i + "]"), "expected " + e + " but was " + a);
                    }
                } else {
                    work.add(new Object[] {e, a, new Path(path, "[" + i + "]")});
                }
            }
            return;
        }
        if (c.isRecord()) {
            for (RecordComponent rc : c.getRecordComponents()) {
                try {
                    rc.getAccessor().setAccessible(true);
                    work.add(new Object[] {rc.getAccessor().invoke(expected), rc.getAccessor().invoke(actual),
                            new Path(path, "." + rc.getName())});
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
            }
            return;
        }
        if (expected instanceof List<?> le) {
            List<?> la = (List<?>) actual;
            if (le.size() != la.size()) {
                throw fail(path, "list size " + la.size() + ", expected " + le.size());
            }
            Iterator<?> ia = la.iterator();
            int i = 0;
            for (Object e : le) {
                work.add(new Object[] {e, ia.next(), new Path(path, "<" + i++ + ">")});
            }
        } else if (expected instanceof Map<?, ?> me) {
            Map<?, ?> ma = (Map<?, ?>) actual;
            if (me.size() != ma.size()) {
                throw fail(path, "map size " + ma.size() + ", expected " + me.size());
            }
            for (Map.Entry<?, ?> entry : me.entrySet()) {
                if (!ma.containsKey(entry.getKey())) {
                    throw fail(path, "missing key " + entry.getKey());
                }
                work.add(new Object[] {entry.getValue(), ma.get(entry.getKey()),
                        new Path(path, "{" + entry.getKey() + "}")});
            }
        } else if (expected instanceof Set<?> || expected instanceof Collection<?> && !(expected instanceof List<?>)) {
            Collection<?> ce = (Collection<?>) expected;
            Collection<?> ca = (Collection<?>) actual;
            if (ce.size() != ca.size()) {
                throw fail(path, "collection size " + ca.size() + ", expected " + ce.size());
            }
            if (expected instanceof Set<?>) {
                if (!ce.equals(ca)) {
                    throw fail(path, "sets differ: " + ca + ", expected " + ce);
                }
            } else {
                Iterator<?> ia = ca.iterator();
                int i = 0;
                for (Object e : ce) {
                    work.add(new Object[] {e, ia.next(), new Path(path, "<" + i++ + ">")});
                }
            }
        }
        if (c.getName().startsWith("java.") || c.getName().startsWith("javax.")) {
            if (!(expected instanceof Collection<?>) && !(expected instanceof Map<?, ?>) && !expected.equals(actual)) {
                throw fail(path, "expected " + expected + " but was " + actual);
            }
            return;
        }
        for (Field f : FIELDS.get(c)) {
            {
                try {
                    Object e = f.get(expected);
                    Object a = f.get(actual);
                    if (f.getType().isPrimitive()) {
                        if (!Objects.equals(e, a)) {
                            throw fail(new Path(path, "." + f.getName()), "expected " + e + " but was " + a);
                        }
                    } else {
                        work.add(new Object[] {e, a, new Path(path, "." + f.getName())});
                    }
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
    }

    private static boolean hasReadResolve(Class<?> c) {
        try {
            c.getDeclaredMethod("readResolve");
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static String describe(Object o) {
        if (o == null) {
            return "null";
        }
        String s = o.getClass().isArray() ? o.getClass().getTypeName() : String.valueOf(o);
        return (s.length() > 80 ? s.substring(0, 80) + "..." : s) + " (" + o.getClass().getName() + ")";
    }
}
