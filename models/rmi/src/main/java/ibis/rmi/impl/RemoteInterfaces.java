package ibis.rmi.impl;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.rmi.Remote;
import java.rmi.RemoteException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The remote interfaces of a loaded class and the numbering of their methods, shared by stubs and
 * skeletons; the rules are those of {@link RemoteMethodTable} (which the build-time rewriter pass
 * applies to class files), so a method number means the same method on both sides and in
 * build-time and run-time generated code.
 */
public final class RemoteInterfaces {

    private final List<Class<?>> interfaces;
    private final RemoteMethodTable table;
    private final Method[] methods;
    private final Class<?> host;

    private RemoteInterfaces(List<Class<?>> interfaces) {
        this.interfaces = List.copyOf(interfaces);
        this.host = hostOf(interfaces);
        List<String> names = new ArrayList<>();
        for (Class<?> i : interfaces) {
            names.add(RemoteMethodTable.internalName(i));
        }
        this.table = RemoteMethodTable.of(names, RemoteMethodTable.ofClasses(interfaces));
        Map<String, Class<?>> byName = new HashMap<>();
        collectAll(interfaces, byName);
        List<RemoteMethodTable.RemoteMethod> list = table.methods();
        this.methods = new Method[list.size()];
        for (int n = 0; n < methods.length; n++) {
            RemoteMethodTable.RemoteMethod rm = list.get(n);
            Class<?> owner = byName.get(rm.owner());
            for (Method m : owner.getDeclaredMethods()) {
                if (m.getName().equals(rm.name()) && descriptor(m).equals(rm.descriptor())) {
                    methods[n] = m;
                    break;
                }
            }
        }
    }

    /**
     * A non-public interface among the interfaces and the interfaces they extend, or null: the
     * generated stub and skeleton must be in its run-time package (package and class loader).
     */
    private static Class<?> hostOf(List<Class<?>> interfaces) {
        Class<?> host = null;
        List<Class<?>> todo = new ArrayList<>(interfaces);
        java.util.Set<Class<?>> seen = new java.util.HashSet<>();
        while (!todo.isEmpty()) {
            Class<?> i = todo.remove(todo.size() - 1);
            if (!seen.add(i)) {
                continue;
            }
            if (!Modifier.isPublic(i.getModifiers())) {
                if (host == null) {
                    host = i;
                } else if (!host.getPackageName().equals(i.getPackageName())
                        || host.getClassLoader() != i.getClassLoader()) {
                    throw new IllegalArgumentException("non-public remote interfaces " + host.getName() + " and "
                            + i.getName() + " are in different packages or class loaders; no stub can implement both");
                }
            }
            todo.addAll(Arrays.asList(i.getInterfaces()));
        }
        return host;
    }

    private static void collectAll(List<Class<?>> types, Map<String, Class<?>> byName) {
        for (Class<?> c : types) {
            if (byName.putIfAbsent(RemoteMethodTable.internalName(c), c) == null) {
                collectAll(Arrays.asList(c.getInterfaces()), byName);
            }
        }
    }

    /**
     * Finds the remote interfaces (those extending {@link Remote}, other than {@code Remote}
     * itself) implemented by a class or its superclasses.
     *
     * @param type the class of a remote object
     * @return the interfaces and their method table
     * @throws IllegalArgumentException when the class implements no remote interface, non-public
     *         remote interfaces are in different packages, or a remote method does not declare {@link RemoteException}
     */
    public static RemoteInterfaces of(Class<?> type) {
        List<String> names = RemoteMethodTable.remoteInterfacesOf(RemoteMethodTable.internalName(type),
                RemoteMethodTable.ofClasses(List.of(type)));
        if (names.isEmpty()) {
            throw new IllegalArgumentException(
                    type.getName() + " implements no remote interface (one extending java.rmi.Remote)");
        }
        Map<String, Class<?>> listed = new HashMap<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Class<?> i : c.getInterfaces()) {
                listed.putIfAbsent(RemoteMethodTable.internalName(i), i);
            }
        }
        List<Class<?>> found = new ArrayList<>();
        for (String n : names) {
            found.add(listed.get(n));
        }
        return new RemoteInterfaces(found);
    }

    /**
     * The table for an explicit list of interfaces (as named in a stub's serialized form).
     *
     * @param interfaces the remote interfaces, in the order of the remote object's class
     * @return the table
     */
    public static RemoteInterfaces ofInterfaces(List<Class<?>> interfaces) {
        for (Class<?> i : interfaces) {
            if (!i.isInterface() || !Remote.class.isAssignableFrom(i) || i == Remote.class) {
                throw new IllegalArgumentException(i.getName() + " is not a remote interface");
            }
        }
        return new RemoteInterfaces(interfaces);
    }

    /** The JVM descriptor of a method, e.g. {@code (ILjava/lang/String;)V}. */
    static String descriptor(Method m) {
        StringBuilder b = new StringBuilder("(");
        for (Class<?> p : m.getParameterTypes()) {
            b.append(typeDescriptor(p));
        }
        return b.append(')').append(typeDescriptor(m.getReturnType())).toString();
    }

    static String typeDescriptor(Class<?> c) {
        if (c.isArray()) {
            return c.getName().replace('.', '/');
        }
        if (c == void.class) return "V";
        if (c == boolean.class) return "Z";
        if (c == byte.class) return "B";
        if (c == char.class) return "C";
        if (c == short.class) return "S";
        if (c == int.class) return "I";
        if (c == long.class) return "J";
        if (c == float.class) return "F";
        if (c == double.class) return "D";
        return "L" + c.getName().replace('.', '/') + ";";
    }

    /** @return the remote interfaces, in a stable order */
    public List<Class<?>> interfaces() {
        return interfaces;
    }

    /** @return the names of the remote interfaces */
    public String[] interfaceNames() {
        String[] names = new String[interfaces.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = interfaces.get(i).getName();
        }
        return names;
    }

    /**
     * @return a non-public interface among the remote interfaces and the interfaces they extend,
     *         whose run-time package the generated stub and skeleton must share; null when all are
     *         public
     */
    public Class<?> host() {
        return host;
    }

    /** @return the remote methods; the index is the method number */
    public Method[] methods() {
        return methods.clone();
    }

    /** @return the description the stub and skeleton are generated from */
    public RemoteMethodTable table() {
        return table;
    }

    Method method(int number) {
        return methods[number];
    }
}
