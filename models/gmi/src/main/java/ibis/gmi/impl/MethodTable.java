package ibis.gmi.impl;

import ibis.gmi.GroupInterface;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.objectweb.asm.Type;

/**
 * The methods of a group interface in one order that every process computes alike (by name and
 * descriptor), so that a method travels as its index; with each method's parameter and result
 * kinds.
 */
final class MethodTable {

    private static final Map<Class<?>, MethodTable> TABLES = new ConcurrentHashMap<>();

    final Class<?> type;
    final Method[] methods;
    final Class<?>[][] parameterTypes;
    final ValueKind[][] parameterKinds;
    final ValueKind[] resultKinds;

    private MethodTable(Class<?> type) {
        if (!type.isInterface() || !GroupInterface.class.isAssignableFrom(type) || type == GroupInterface.class) {
            throw new IllegalArgumentException(type.getName() + " is not a group interface (an interface extending "
                    + GroupInterface.class.getName() + ")");
        }
        this.type = type;
        List<Method> list = new ArrayList<>();
        for (Method m : type.getMethods()) {
            if (!Modifier.isStatic(m.getModifiers()) && !m.isDefault()) {
                list.add(m);
            }
        }
        list.sort(Comparator.comparing(MethodTable::key));
        methods = list.toArray(new Method[0]);
        parameterTypes = new Class<?>[methods.length][];
        parameterKinds = new ValueKind[methods.length][];
        resultKinds = new ValueKind[methods.length];
        for (int i = 0; i < methods.length; i++) {
            parameterTypes[i] = methods[i].getParameterTypes();
            parameterKinds[i] = new ValueKind[parameterTypes[i].length];
            for (int p = 0; p < parameterTypes[i].length; p++) {
                parameterKinds[i][p] = ValueKind.of(parameterTypes[i][p]);
            }
            resultKinds[i] = ValueKind.of(methods[i].getReturnType());
        }
    }

    static MethodTable of(Class<?> type) {
        MethodTable t = TABLES.get(type);
        return t != null ? t : TABLES.computeIfAbsent(type, MethodTable::new);
    }

    /** The order of methods: by name and descriptor, computable from class files too ({@link GroupCode}). */
    private static String key(Method m) {
        return GroupCode.orderKey(m.getName(), Type.getMethodDescriptor(m));
    }

    /** The methods as {@link GroupCode} describes them, in table order. */
    List<GroupCode.MethodSig> signatures() {
        List<GroupCode.MethodSig> sigs = new ArrayList<>();
        for (Method m : methods) {
            Class<?>[] ex = m.getExceptionTypes();
            String[] names = new String[ex.length];
            for (int e = 0; e < ex.length; e++) {
                names[e] = Type.getInternalName(ex[e]);
            }
            sigs.add(new GroupCode.MethodSig(m.getName(), Type.getMethodDescriptor(m), names));
        }
        return sigs;
    }

    /**
     * The index of the method with source signature {@code desc} ("int getLoad()", "void put(int,
     * double[])"; the return type may be left out).
     */
    int find(String desc) throws NoSuchMethodException {
        String d = normalize(desc);
        int open = d.indexOf('(');
        int close = d.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new NoSuchMethodException("not a method signature: \"" + desc + "\"");
        }
        String[] head = d.substring(0, open).trim().split("\\s+");
        String name = head[head.length - 1];
        String ret = head.length > 1 ? head[head.length - 2] : null;
        String inside = d.substring(open + 1, close).trim();
        String[] params = inside.isEmpty() ? new String[0] : inside.split(",");
        for (int p = 0; p < params.length; p++) {
            params[p] = parameterType(params[p]);
        }
        for (int i = 0; i < methods.length; i++) {
            Method m = methods[i];
            if (!m.getName().equals(name) || m.getParameterCount() != params.length) {
                continue;
            }
            if (ret != null && !sameType(ret, m.getReturnType())) {
                continue;
            }
            boolean all = true;
            for (int p = 0; p < params.length && all; p++) {
                all = sameType(params[p], parameterTypes[i][p]);
            }
            if (all) {
                return i;
            }
        }
        throw new NoSuchMethodException("group interface " + type.getName() + " has no method \"" + desc + "\"");
    }

    /**
     * A signature as Java source may write it, reduced to what {@link #find} compares: type
     * arguments dropped ({@code List<String>}, nested ones too: erasure), varargs as arrays
     * ({@code int...}), no space before or inside brackets ({@code int [ ]}).
     */
    private static String normalize(String desc) {
        StringBuilder b = new StringBuilder(desc.length());
        int depth = 0;
        for (int i = 0; i < desc.length(); i++) {
            char c = desc.charAt(i);
            if (c == '<') {
                depth++;
            } else if (c == '>') {
                depth = Math.max(0, depth - 1);
            } else if (depth == 0) {
                b.append(c);
            }
        }
        return b.toString().replace("...", "[]").replaceAll("\\s*\\[\\s*\\]", "[]").trim();
    }

    /** The type of a parameter written with or without its name (and {@code final}). */
    private static String parameterType(String written) {
        String[] words = written.trim().split("\\s+");
        return words.length >= 2 ? words[words.length - 2] : words[0];
    }

    private static boolean sameType(String written, Class<?> type) {
        String w = written.replaceAll("\\s+", "");
        String canonical = type.getCanonicalName();
        if (w.equals(canonical) || w.equals(type.getSimpleName())) {
            return true;
        }
        // A nested class written as Outer.Inner, or a qualified name with '$'.
        return canonical != null && (canonical.endsWith("." + w) || type.getName().equals(w));
    }

    /** The source signature of method {@code i}, for messages. */
    String signature(int i) {
        Method m = methods[i];
        StringBuilder b = new StringBuilder(m.getReturnType().getSimpleName()).append(' ').append(m.getName())
                .append('(');
        for (int p = 0; p < parameterTypes[i].length; p++) {
            b.append(p > 0 ? ", " : "").append(parameterTypes[i][p].getSimpleName());
        }
        return b.append(')').toString();
    }
}
