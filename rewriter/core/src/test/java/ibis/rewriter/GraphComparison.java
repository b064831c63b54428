package ibis.rewriter;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Deep comparison of two object graphs that may live in different class loaders (so classes are
 * compared by name): the serial fields of every serializable class level, arrays element by
 * element, collections and maps by their contents, values (strings, boxes, enums, classes) by
 * value or name; and the same identity structure (a shared or cyclic reference in one graph is
 * the same in the other). Iterative, so long linked lists do not recurse.
 */
final class GraphComparison {

    /** Where in the graph; made into a string only for a failure (long lists would make it quadratic). */
    private static final class Where {
        final Where parent;
        final String step;

        Where(Where parent, String step) {
            this.parent = parent;
            this.step = step;
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder();
            int hops = 0;
            for (Where w = this; w != null; w = w.parent, hops++) {
                if (hops < 20) {
                    b.insert(0, w.step);
                }
            }
            return hops > 20 ? "..." + b + " (" + hops + " steps)" : b.toString();
        }
    }

    private final IdentityHashMap<Object, Object> matched = new IdentityHashMap<>();
    private final IdentityHashMap<Object, Object> matchedBack = new IdentityHashMap<>();
    private final ArrayDeque<Object[]> work = new ArrayDeque<>();

    private final Map<Class<?>, Map<Class<?>, Field[][]>> fieldCache = new java.util.HashMap<>();

    private GraphComparison() {
    }

    /** Matching serial fields (expected, actual) of two same-named classes, or null when they differ. */
    private Field[][] fieldPairs(Class<?> expectedClass, Class<?> actualClass) {
        return fieldCache.computeIfAbsent(expectedClass, k -> new java.util.HashMap<>())
                .computeIfAbsent(actualClass, k -> {
                    List<Field[]> pairs = new ArrayList<>();
                    for (Class<?> ec = expectedClass, ac = actualClass;
                            ec != null && java.io.Serializable.class.isAssignableFrom(ec);
                            ec = ec.getSuperclass(), ac = ac.getSuperclass()) {
                        if (ec.getName().startsWith("java.")) {
                            break;
                        }
                        for (Field f : ec.getDeclaredFields()) {
                            int m = f.getModifiers();
                            if (Modifier.isStatic(m) || Modifier.isTransient(m)) {
                                continue;
                            }
                            try {
                                Field g = ac.getDeclaredField(f.getName());
                                f.setAccessible(true);
                                g.setAccessible(true);
                                pairs.add(new Field[] {f, g});
                            } catch (NoSuchFieldException x) {
                                return null;
                            }
                        }
                    }
                    return pairs.toArray(new Field[0][]);
                });
    }

    /** Null when equal, else where and how the graphs differ. */
    static String difference(Object expected, Object actual) {
        GraphComparison g = new GraphComparison();
        g.work.add(new Object[] {expected, actual, new Where(null, "root")});
        while (!g.work.isEmpty()) {
            Object[] item = g.work.poll();
            String d = g.compare(item[0], item[1], (Where) item[2]);
            if (d != null) {
                return d;
            }
        }
        return null;
    }

    private static boolean isValue(Object o) {
        return o instanceof String || o instanceof Number || o instanceof Boolean || o instanceof Character
                || o instanceof Enum || o instanceof Class;
    }

    private String compare(Object e, Object a, Where path) {
        if (e == null || a == null) {
            return e == a ? null : path + ": expected " + e + " but was " + a;
        }
        if (!e.getClass().getName().equals(a.getClass().getName())) {
            return path + ": expected class " + e.getClass().getName() + " but was " + a.getClass().getName();
        }
        if (isValue(e)) {
            String es = e instanceof Class ? ((Class<?>) e).getName()
                    : e instanceof Enum ? ((Enum<?>) e).name() : e.toString();
            String as = a instanceof Class ? ((Class<?>) a).getName()
                    : a instanceof Enum ? ((Enum<?>) a).name() : a.toString();
            return es.equals(as) ? null : path + ": expected " + es + " but was " + as;
        }
        Object seen = matched.get(e);
        if (seen != null) {
            return seen == a ? null : path + ": identity structure differs (a shared object became two)";
        }
        if (matchedBack.containsKey(a)) {
            return path + ": identity structure differs (two objects became one)";
        }
        matched.put(e, a);
        matchedBack.put(a, e);
        if (e.getClass().isArray()) {
            int n = Array.getLength(e);
            if (n != Array.getLength(a)) {
                return path + ": array length " + n + " vs " + Array.getLength(a);
            }
            for (int i = 0; i < n; i++) {
                work.add(new Object[] {Array.get(e, i), Array.get(a, i), new Where(path, "[" + i + "]")});
            }
            return null;
        }
        if (e instanceof Map) {
            Map<?, ?> em = (Map<?, ?>) e;
            Map<?, ?> am = (Map<?, ?>) a;
            if (em.size() != am.size() || !em.toString().equals(am.toString())) {
                return path + ": map " + em + " vs " + am;
            }
            return null;
        }
        if (e instanceof Collection) {
            List<Object> el = new ArrayList<>((Collection<?>) e);
            List<Object> al = new ArrayList<>((Collection<?>) a);
            if (el.size() != al.size()) {
                return path + ": collection size " + el.size() + " vs " + al.size();
            }
            Iterator<Object> ai = al.iterator();
            int i = 0;
            for (Object x : el) {
                work.add(new Object[] {x, ai.next(), new Where(path, "<" + i++ + ">")});
            }
            return null;
        }
        Field[][] pairs = fieldPairs(e.getClass(), a.getClass());
        if (pairs == null) {
            return path + ": classes " + e.getClass().getName() + " have different serial fields in the two graphs";
        }
        try {
            for (Field[] pair : pairs) {
                Field f = pair[0];
                if (f.getType().isPrimitive()) {
                    Object ev = f.get(e);
                    Object av = pair[1].get(a);
                    if (!ev.equals(av)) {
                        return path + "." + f.getName() + ": expected " + ev + " but was " + av;
                    }
                } else {
                    work.add(new Object[] {f.get(e), pair[1].get(a), new Where(path, "." + f.getName())});
                }
            }
        } catch (ReflectiveOperationException x) {
            return path + ": " + x;
        }
        return null;
    }
}
