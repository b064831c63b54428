package ibis.rmi.impl;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The remote interfaces of a remote class and the numbering of their methods, computed from a
 * description of the types (names, access flags, declared methods) that can come from loaded
 * {@code Class} objects (at run time) or from class files read with ASM (at build time, by the
 * rewriter). Both sources go through the same rules, so a build-time stub and a run-time stub of
 * the same interfaces number the methods identically:
 *
 * <ul>
 * <li>The remote interfaces of a class are the interfaces listed by the class and its
 * superclasses (superclass chain from the class up, each in declaration order, duplicates
 * dropped) that are subtypes of {@code java.rmi.Remote} other than {@code Remote} itself.</li>
 * <li>The methods of the interfaces are visited depth first: each remote interface in order, then
 * its super-interfaces in declaration order. The first declaration of a name and descriptor seen
 * decides: it is a remote method when it is abstract (a default or bridge method hides the
 * same method of the interfaces visited after it). Static and private methods are ignored.</li>
 * <li>The remote methods, sorted by name then descriptor, are numbered from 0.</li>
 * </ul>
 */
public final class RemoteMethodTable {

    /** Internal name of {@code java.rmi.Remote}. */
    public static final String REMOTE = "java/rmi/Remote";

    /** Bumped whenever the generated code changes, so older build-time classes are not used. */
    static final int FORMAT = 1;

    private static final int PUBLIC = 0x0001;
    private static final int PRIVATE = 0x0002;
    private static final int STATIC = 0x0008;
    private static final int INTERFACE = 0x0200;
    private static final int ABSTRACT = 0x0400;

    /** The exception types a remote method must declare one of (RemoteException or a supertype). */
    private static final Set<String> REMOTE_EXCEPTION_OR_SUPER = Set.of("java/rmi/RemoteException",
            "java/io/IOException", "java/lang/Exception", "java/lang/Throwable");

    /**
     * What stub generation needs to know about a class or interface.
     *
     * @param name internal name, e.g. {@code p/Outer$Inner}
     * @param modifiers access flags as {@code Class.getModifiers()} reports them (for a member
     *        class those of its InnerClasses entry), including the interface flag
     * @param superName internal name of the superclass, null for interfaces and {@code Object}
     * @param interfaces internal names of the directly listed interfaces, in declaration order
     * @param methods the declared methods (any order)
     */
    public record TypeInfo(String name, int modifiers, String superName, List<String> interfaces,
            List<MethodInfo> methods) {
    }

    /**
     * A declared method.
     *
     * @param name the name
     * @param descriptor the JVM descriptor
     * @param access the access flags (only public, private, static and abstract matter)
     * @param exceptions internal names of the declared exception types
     */
    public record MethodInfo(String name, String descriptor, int access, List<String> exceptions) {
    }

    /** Finds the description of a type by internal name; null when the type is unknown. */
    public interface TypeSource {
        /**
         * @param internalName the internal name
         * @return the description, or null when the type cannot be found
         */
        TypeInfo find(String internalName);
    }

    /**
     * One remote method.
     *
     * @param owner internal name of the remote interface declaring it (the target of the skeleton's call)
     * @param name the name
     * @param descriptor the JVM descriptor
     * @param exceptions internal names of the declared exception types (the stub method's throws clause)
     */
    public record RemoteMethod(String owner, String name, String descriptor, List<String> exceptions) {
    }

    private final List<String> interfaces;
    private final List<RemoteMethod> methods;
    private final long hash;

    private RemoteMethodTable(List<String> interfaces, List<RemoteMethod> methods) {
        this.interfaces = List.copyOf(interfaces);
        this.methods = List.copyOf(methods);
        this.hash = computeHash();
    }

    /**
     * The remote interfaces of a class: see the class description.
     *
     * @param className internal name of the class
     * @param source where types are looked up
     * @return the internal names of the remote interfaces (empty when there are none)
     * @throws IllegalArgumentException when non-public remote interfaces are in different packages
     *         (see {@link #hostPackage})
     */
    public static List<String> remoteInterfacesOf(String className, TypeSource source) {
        Set<String> found = new LinkedHashSet<>();
        Set<String> chain = new HashSet<>();
        for (TypeInfo c = source.find(className); c != null && chain.add(c.name());
                c = c.superName() == null ? null : source.find(c.superName())) {
            for (String i : c.interfaces()) {
                if (!i.equals(REMOTE) && !found.contains(i) && isRemote(i, source)) {
                    found.add(i);
                }
            }
        }
        List<String> result = new ArrayList<>(found);
        hostPackage(result, source);
        return result;
    }

    /**
     * The package the stub and skeleton of remote interfaces must be in. Remote interfaces need not
     * be public (as with {@code java.rmi}, whose proxies of package-private interfaces live in the
     * interfaces' package): the generated classes implement and call them, so when one of them,
     * or an interface it extends, is not public, the generated classes go into that interface's
     * package. Non-public interfaces of different packages cannot be implemented by one class.
     *
     * @param interfaces internal names of the remote interfaces
     * @param source where types are looked up
     * @return the internal name of the package of the non-public interfaces ({@code ""} for the
     *         unnamed package), or null when all of them are public
     * @throws IllegalArgumentException when non-public interfaces are in different packages
     */
    public static String hostPackage(List<String> interfaces, TypeSource source) {
        String host = null;
        String hostInterface = null;
        List<String> todo = new ArrayList<>(interfaces);
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            String i = todo.remove(todo.size() - 1);
            TypeInfo info = source.find(i);
            if (!seen.add(i) || info == null) {
                continue;
            }
            if ((info.modifiers() & PUBLIC) == 0) {
                String pkg = packageOf(i);
                if (host == null) {
                    host = pkg;
                    hostInterface = i;
                } else if (!host.equals(pkg)) {
                    throw new IllegalArgumentException("non-public remote interfaces " + javaName(hostInterface)
                            + " and " + javaName(i) + " are in different packages; no stub can implement both");
                }
            }
            todo.addAll(info.interfaces());
        }
        return host;
    }

    /**
     * @param internalName internal name of a class
     * @return the internal name of its package, {@code ""} for the unnamed package
     */
    public static String packageOf(String internalName) {
        int slash = internalName.lastIndexOf('/');
        return slash < 0 ? "" : internalName.substring(0, slash);
    }

    /**
     * Whether a type is a subtype of {@code java.rmi.Remote} (types that cannot be found count as
     * not remote).
     *
     * @param name internal name
     * @param source where types are looked up
     * @return true for {@code Remote} and its subtypes
     */
    public static boolean isRemote(String name, TypeSource source) {
        List<String> todo = new ArrayList<>(List.of(name));
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            String n = todo.remove(todo.size() - 1);
            if (n.equals(REMOTE)) {
                return true;
            }
            if (!seen.add(n)) {
                continue;
            }
            TypeInfo info = source.find(n);
            if (info != null) {
                todo.addAll(info.interfaces());
                if (info.superName() != null) {
                    todo.add(info.superName());
                }
            }
        }
        return false;
    }

    /**
     * The method table of a list of remote interfaces.
     *
     * @param interfaces internal names of the remote interfaces, in the remote class's order
     * @param source where types are looked up
     * @return the table
     * @throws IllegalArgumentException when an interface cannot be found, is not a remote
     *         interface, or a remote method does not declare {@code java.rmi.RemoteException} (or a
     *         supertype of it)
     */
    public static RemoteMethodTable of(List<String> interfaces, TypeSource source) {
        Map<String, MethodInfo> firstSeen = new HashMap<>();
        Map<String, String> owners = new HashMap<>();
        Set<String> visited = new HashSet<>();
        for (String i : interfaces) {
            TypeInfo info = source.find(i);
            if (info == null) {
                throw new IllegalArgumentException("remote interface " + javaName(i) + " not found");
            }
            if ((info.modifiers() & INTERFACE) == 0 || i.equals(REMOTE) || !isRemote(i, source)) {
                throw new IllegalArgumentException(javaName(i) + " is not a remote interface");
            }
            visit(info, source, visited, firstSeen, owners);
        }
        List<RemoteMethod> methods = new ArrayList<>();
        for (Map.Entry<String, MethodInfo> e : firstSeen.entrySet()) {
            MethodInfo m = e.getValue();
            if ((m.access() & ABSTRACT) == 0) {
                continue;
            }
            String owner = owners.get(e.getKey());
            if (m.exceptions().stream().noneMatch(REMOTE_EXCEPTION_OR_SUPER::contains)) {
                throw new IllegalArgumentException("remote method " + javaName(owner) + "." + m.name()
                        + " does not declare java.rmi.RemoteException (or a superclass of it)");
            }
            methods.add(new RemoteMethod(owner, m.name(), m.descriptor(), List.copyOf(m.exceptions())));
        }
        methods.sort(Comparator.comparing(RemoteMethod::name).thenComparing(RemoteMethod::descriptor));
        return new RemoteMethodTable(interfaces, methods);
    }

    private static void visit(TypeInfo info, TypeSource source, Set<String> visited, Map<String, MethodInfo> firstSeen,
            Map<String, String> owners) {
        if (!visited.add(info.name())) {
            return;
        }
        for (MethodInfo m : info.methods()) {
            if ((m.access() & (STATIC | PRIVATE)) != 0 || m.name().startsWith("<")) {
                continue;
            }
            String key = m.name() + m.descriptor();
            if (!firstSeen.containsKey(key)) {
                firstSeen.put(key, m);
                owners.put(key, info.name());
            }
        }
        for (String s : info.interfaces()) {
            TypeInfo superInfo = source.find(s);
            if (superInfo == null) {
                throw new IllegalArgumentException("interface " + javaName(s) + " (extended by " + javaName(info.name())
                        + ") not found");
            }
            visit(superInfo, source, visited, firstSeen, owners);
        }
    }

    private long computeHash() {
        StringBuilder b = new StringBuilder("ibis-rmi-stubs ").append(FORMAT).append('\n');
        for (String i : interfaces) {
            b.append(i).append('\n');
        }
        for (RemoteMethod m : methods) {
            b.append(m.owner()).append(' ').append(m.name()).append(m.descriptor()).append('\n');
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(b.toString().getBytes(StandardCharsets.UTF_8));
            long h = 0;
            for (int i = 0; i < 8; i++) {
                h = (h << 8) | (digest[i] & 0xff);
            }
            return h;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static String javaName(String internalName) {
        return internalName.replace('/', '.');
    }

    /** @return internal names of the remote interfaces, in order */
    public List<String> interfaces() {
        return interfaces;
    }

    /** @return the remote methods; the index is the method number */
    public List<RemoteMethod> methods() {
        return methods;
    }

    /**
     * A fingerprint of the interfaces, the method table and the generated code's format; stored
     * in build-time stubs and skeletons so that the run time uses them only when they match.
     *
     * @return the fingerprint
     */
    public long hash() {
        return hash;
    }

    /**
     * The binary name of the build-time stub of a remote class: its name followed by
     * {@value #STUB_SUFFIX}, in the same package.
     *
     * @param remoteClass the binary (or internal) name of the remote class
     * @return the stub's name, in the same form
     */
    public static String stubName(String remoteClass) {
        return remoteClass + STUB_SUFFIX;
    }

    /**
     * The binary name of the build-time skeleton of a remote class: its name followed by
     * {@value #SKELETON_SUFFIX}, in the same package.
     *
     * @param remoteClass the binary (or internal) name of the remote class
     * @return the skeleton's name, in the same form
     */
    public static String skeletonName(String remoteClass) {
        return remoteClass + SKELETON_SUFFIX;
    }

    /** Suffix of build-time stub class names. */
    public static final String STUB_SUFFIX = "_IbisStub";

    /** Suffix of build-time skeleton class names. */
    public static final String SKELETON_SUFFIX = "_IbisSkeleton";

    /** Name of the static long field holding {@link #hash()} in generated stubs and skeletons. */
    public static final String HASH_FIELD = "IBIS_RMI_TABLE";

    /**
     * Describes loaded classes: a {@link TypeSource} over the classes reachable from the given
     * ones (their superclasses and interfaces).
     *
     * @param roots the classes to start from
     * @return the source
     */
    static TypeSource ofClasses(List<Class<?>> roots) {
        Map<String, Class<?>> known = new HashMap<>();
        for (Class<?> c : roots) {
            known.put(internalName(c), c);
        }
        Map<String, TypeInfo> described = new HashMap<>();
        return name -> {
            TypeInfo cached = described.get(name);
            if (cached != null) {
                return cached;
            }
            Class<?> c = known.get(name);
            if (c == null) {
                return null;
            }
            List<String> interfaces = new ArrayList<>();
            for (Class<?> i : c.getInterfaces()) {
                known.put(internalName(i), i);
                interfaces.add(internalName(i));
            }
            String superName = null;
            if (c.getSuperclass() != null) {
                known.put(internalName(c.getSuperclass()), c.getSuperclass());
                superName = internalName(c.getSuperclass());
            }
            List<MethodInfo> methods = new ArrayList<>();
            if (c.isInterface()) {
                for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
                    List<String> exceptions = new ArrayList<>();
                    for (Class<?> e : m.getExceptionTypes()) {
                        exceptions.add(internalName(e));
                    }
                    int access = m.getModifiers() & (PUBLIC | PRIVATE | STATIC | ABSTRACT);
                    methods.add(new MethodInfo(m.getName(), RemoteInterfaces.descriptor(m), access, exceptions));
                }
            }
            TypeInfo info = new TypeInfo(name, c.getModifiers(), superName, interfaces, methods);
            described.put(name, info);
            return info;
        };
    }

    static String internalName(Class<?> c) {
        return c.getName().replace('.', '/');
    }
}
