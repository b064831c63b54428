package ibis.rmi.impl;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.rmi.Remote;
import java.rmi.RemoteException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The remote interfaces of a class and the numbering of their methods, shared by stubs and
 * skeletons: the methods of all remote interfaces, one entry per name and descriptor, sorted by
 * name then descriptor. Both ends compute the table from the same interface list, so a method
 * number means the same method on both sides.
 */
public final class RemoteInterfaces {

    private final List<Class<?>> interfaces;
    private final Method[] methods;

    private RemoteInterfaces(List<Class<?>> interfaces) {
        this.interfaces = List.copyOf(interfaces);
        Map<String, Method> byKey = new LinkedHashMap<>();
        for (Class<?> i : interfaces) {
            for (Method m : i.getMethods()) {
                if (Modifier.isStatic(m.getModifiers()) || !Modifier.isAbstract(m.getModifiers())) {
                    continue;
                }
                String key = m.getName() + descriptor(m);
                if (!byKey.containsKey(key)) {
                    checkThrowsRemoteException(m);
                    byKey.put(key, m);
                }
            }
        }
        Method[] sorted = byKey.values().toArray(new Method[0]);
        Arrays.sort(sorted, Comparator.comparing(Method::getName).thenComparing(RemoteInterfaces::descriptor));
        this.methods = sorted;
    }

    /**
     * Finds the remote interfaces (those extending {@link Remote}, other than {@code Remote}
     * itself) implemented by a class or its superclasses.
     *
     * @param type the class of a remote object
     * @return the interfaces and their method table
     * @throws IllegalArgumentException when the class implements no remote interface, or a remote
     *         method does not declare {@link RemoteException}
     */
    public static RemoteInterfaces of(Class<?> type) {
        Set<Class<?>> found = new LinkedHashSet<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            collect(c.getInterfaces(), found);
        }
        if (found.isEmpty()) {
            throw new IllegalArgumentException(type.getName() + " implements no remote interface (one extending java.rmi.Remote)");
        }
        return new RemoteInterfaces(new ArrayList<>(found));
    }

    /**
     * The table for an explicit list of interfaces (as named in a stub's serialized form).
     *
     * @param interfaces the remote interfaces, in the order of the remote object's class
     * @return the table
     */
    public static RemoteInterfaces ofInterfaces(List<Class<?>> interfaces) {
        for (Class<?> i : interfaces) {
            if (!i.isInterface() || !Remote.class.isAssignableFrom(i)) {
                throw new IllegalArgumentException(i.getName() + " is not a remote interface");
            }
        }
        return new RemoteInterfaces(interfaces);
    }

    private static void collect(Class<?>[] candidates, Set<Class<?>> found) {
        for (Class<?> i : candidates) {
            if (i != Remote.class && Remote.class.isAssignableFrom(i)) {
                if (!Modifier.isPublic(i.getModifiers())) {
                    throw new IllegalArgumentException("remote interface " + i.getName()
                            + " is not public; Ibis RMI generates stubs for public interfaces only");
                }
                found.add(i);
            }
        }
    }

    private static void checkThrowsRemoteException(Method m) {
        for (Class<?> e : m.getExceptionTypes()) {
            if (e.isAssignableFrom(RemoteException.class)) {
                return;
            }
        }
        throw new IllegalArgumentException("remote method " + m.getDeclaringClass().getName() + "." + m.getName()
                + " does not declare java.rmi.RemoteException (or a superclass of it)");
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

    /** @return the remote methods; the index is the method number */
    public Method[] methods() {
        return methods.clone();
    }

    int methodCount() {
        return methods.length;
    }

    Method method(int number) {
        return methods[number];
    }
}
