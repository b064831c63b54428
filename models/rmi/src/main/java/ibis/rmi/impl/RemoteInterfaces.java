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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The remote interfaces of a loaded class and the numbering of their methods, shared by stubs and
 * skeletons; the rules are those of {@link RemoteMethodTable} (which the build-time rewriter pass
 * applies to class files), so a method number means the same method on both sides and in
 * build-time and run-time generated code.
 */
public final class RemoteInterfaces {

    private static final Logger LOG = LoggerFactory.getLogger(RemoteInterfaces.class);

    private final List<Class<?>> interfaces;
    private final RemoteMethodTable table;
    private final Method[] methods;
    private final Class<?> host;

    private RemoteInterfaces(List<Class<?>> interfaces) {
        this.interfaces = List.copyOf(interfaces);
        Class<?> interfaceHost = hostOf(interfaces);
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
        this.host = interfaceHost != null ? interfaceHost : typeHost(methods);
    }

    /**
     * With public remote interfaces: a non-public parameter or result class of the remote methods,
     * or null. The stub casts results and the skeleton parameters to their declared classes, which
     * only code of their run-time package may name when they are not public (a remote class's
     * build-time stub, like the earlier Ibis RMI's rmic stub, is in its package and can). Non-public
     * classes of two packages cannot both be named by one class: the first is taken, and a call of a
     * method using the other fails with an {@code IllegalAccessError} (logged once here).
     */
    private static Class<?> typeHost(Method[] methods) {
        Class<?> host = null;
        for (Method m : methods) {
            List<Class<?>> types = new ArrayList<>(Arrays.asList(m.getParameterTypes()));
            types.add(m.getReturnType());
            for (Class<?> t : types) {
                while (t.isArray()) {
                    t = t.getComponentType();
                }
                if (t.isPrimitive() || Modifier.isPublic(t.getModifiers())) {
                    continue;
                }
                if (host == null) {
                    host = t;
                } else if (!host.getPackageName().equals(t.getPackageName())
                        || host.getClassLoader() != t.getClassLoader()) {
                    LOG.warn("ibis rmi: remote methods use non-public classes {} and {} of different packages; the"
                            + " generated stub and skeleton can name only the first", host.getName(), t.getName());
                    return host;
                }
            }
        }
        return host;
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
     *         else a non-public parameter or result class of the remote methods: the generated
     *         stub and skeleton must share its run-time package; null when all are public
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
