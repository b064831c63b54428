package ibis.rmi.impl;

import ibis.rmi.server.RemoteStub;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds, defines and caches the stub and skeleton classes.
 *
 * <p>First choice is the build-time class the rewriter ({@code ibisc}, Maven goal
 * {@code rewrite}) wrote next to the remote class: {@code <remote class>_IbisStub} and
 * {@code <remote class>_IbisSkeleton} (see {@link RemoteMethodTable#stubName}), loaded by name
 * from the remote class's loader (on the server) or from the first remote interface's loader (in
 * a JVM that only got a serialized stub naming the remote class). It is used only when it
 * implements exactly the remote interfaces and its {@value RemoteMethodTable#HASH_FIELD} matches
 * the table computed now; a stale one is ignored with a warning.
 *
 * <p>Otherwise one pair is generated per list of remote interfaces and defined in a class loader
 * whose parent is the loader of the first interface, so it sees the application's types; names
 * under {@code ibis.} that the parent does not know are taken from Ibis RMI's own loader. When a
 * remote interface (or one it extends) is not public, the pair is defined in that interface's
 * package and class loader instead ({@code MethodHandles.Lookup.defineClass}), named
 * {@code p.I_IbisRtStubN} and {@code p.I_IbisRtSkeletonN}. With
 * property {@value #WARN_PROPERTY} set to true (system property or Ibis property) each class
 * generated at run time is logged (one line, at info level).
 */
public final class GeneratedCode {

    /** Property: log one line per stub or skeleton class generated at run time. */
    public static final String WARN_PROPERTY = "ibis.rmi.rewriter.warn";

    private static final Logger LOG = LoggerFactory.getLogger(GeneratedCode.class);

    /** A build-time class lookup: remote class name, interfaces, the loader asked. */
    private record BuildKey(String remoteClass, List<Class<?>> interfaces, ClassLoader loader) {
    }

    private static final Map<List<Class<?>>, Constructor<?>> STUBS = new ConcurrentHashMap<>();
    private static final Map<List<Class<?>>, Skeleton> SKELETONS = new ConcurrentHashMap<>();
    private static final Map<BuildKey, Optional<Constructor<?>>> BUILT_STUBS = new ConcurrentHashMap<>();
    private static final Map<BuildKey, Optional<Skeleton>> BUILT_SKELETONS = new ConcurrentHashMap<>();
    private static final Map<ClassLoader, DefiningLoader> LOADERS = new ConcurrentHashMap<>();
    private static final List<String> RUNTIME_GENERATED = new ArrayList<>();

    private GeneratedCode() {
    }

    /**
     * The names of the stub and skeleton classes generated at run time in this JVM so far, in
     * order (for diagnostics and tests).
     *
     * @return a copy of the list
     */
    public static List<String> runtimeGenerated() {
        synchronized (RUNTIME_GENERATED) {
            return List.copyOf(RUNTIME_GENERATED);
        }
    }

    /**
     * A new stub for the interfaces.
     *
     * @param remote the remote interfaces
     * @param remoteClass binary name of the remote object's class, or null when unknown
     * @param loader where the build-time stub is looked for (null: the first interface's loader)
     * @param ref the remote object
     */
    static RemoteStub newStub(RemoteInterfaces remote, String remoteClass, ClassLoader loader, RemoteReference ref)
            throws ReflectiveOperationException {
        Constructor<?> c = null;
        if (remoteClass != null) {
            BuildKey key = new BuildKey(remoteClass, remote.interfaces(), loaderOf(remote, loader));
            c = BUILT_STUBS.computeIfAbsent(key, k -> Optional.ofNullable(buildTimeStub(k, remote))).orElse(null);
        }
        if (c == null) {
            c = STUBS.get(remote.interfaces());
            if (c == null) {
                synchronized (STUBS) {
                    c = STUBS.get(remote.interfaces());
                    if (c == null) {
                        String name = newName("Stub", remote);
                        Class<?> type = define(remote, name, StubGenerator.stubBytes(name, remote.table()));
                        c = type.getConstructor(RemoteReference.class);
                        generated(name, remote, remoteClass);
                        STUBS.put(remote.interfaces(), c);
                    }
                }
            }
        }
        return (RemoteStub) c.newInstance(ref);
    }

    /**
     * The (stateless, shared) skeleton for the interfaces of a remote class.
     *
     * @param remote the remote interfaces
     * @param remoteClass the remote object's class (its loader is searched for the build-time skeleton)
     */
    static Skeleton skeleton(RemoteInterfaces remote, Class<?> remoteClass) throws ReflectiveOperationException {
        BuildKey key = new BuildKey(remoteClass.getName(), remote.interfaces(), loaderOf(remote,
                remoteClass.getClassLoader()));
        Skeleton built = BUILT_SKELETONS.computeIfAbsent(key, k -> Optional.ofNullable(buildTimeSkeleton(k, remote)))
                .orElse(null);
        if (built != null) {
            return built;
        }
        Skeleton s = SKELETONS.get(remote.interfaces());
        if (s == null) {
            synchronized (SKELETONS) {
                s = SKELETONS.get(remote.interfaces());
                if (s == null) {
                    String name = newName("Skeleton", remote);
                    Class<?> type = define(remote, name, StubGenerator.skeletonBytes(name, remote.table()));
                    s = (Skeleton) type.getConstructor().newInstance();
                    generated(name, remote, remoteClass.getName());
                    SKELETONS.put(remote.interfaces(), s);
                }
            }
        }
        return s;
    }

    private static void generated(String name, RemoteInterfaces remote, String remoteClass) {
        synchronized (RUNTIME_GENERATED) {
            RUNTIME_GENERATED.add(name);
        }
        if (RmiRuntime.warnGenerated || RmiPropertyTable.WARN_GENERATED_PROPERTY.get(null)) {
            LOG.info("ibis rmi: generated {} at run time for {} (remote class {}: no usable build-time class "
                    + "from ibisc)",
                    name, Arrays.toString(remote.interfaceNames()), remoteClass == null ? "unknown" : remoteClass);
        }
    }

    private static ClassLoader loaderOf(RemoteInterfaces remote, ClassLoader preferred) {
        if (preferred != null) {
            return preferred;
        }
        ClassLoader l = remote.interfaces().get(0).getClassLoader();
        return l != null ? l : GeneratedCode.class.getClassLoader();
    }

    /** The constructor of the usable build-time stub, or null. */
    private static Constructor<?> buildTimeStub(BuildKey key, RemoteInterfaces remote) {
        Class<?> type = buildTimeClass(RemoteMethodTable.stubName(key.remoteClass()), key.loader(), remote);
        if (type == null) {
            return null;
        }
        if (!RemoteStub.class.isAssignableFrom(type)
                || !Arrays.asList(type.getInterfaces()).equals(remote.interfaces())) {
            stale(type, "does not extend RemoteStub with exactly the remote interfaces " + remote.interfaces());
            return null;
        }
        try {
            return type.getConstructor(RemoteReference.class);
        } catch (NoSuchMethodException e) {
            stale(type, "has no constructor taking this Ibis RMI's RemoteReference");
            return null;
        }
    }

    /** The usable build-time skeleton, or null. */
    private static Skeleton buildTimeSkeleton(BuildKey key, RemoteInterfaces remote) {
        Class<?> type = buildTimeClass(RemoteMethodTable.skeletonName(key.remoteClass()), key.loader(), remote);
        if (type == null) {
            return null;
        }
        if (!Skeleton.class.isAssignableFrom(type)) {
            stale(type, "does not extend this Ibis RMI's Skeleton");
            return null;
        }
        try {
            return (Skeleton) type.getConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            stale(type, "cannot be instantiated: " + e);
            return null;
        }
    }

    /** Loads a build-time class and checks its fingerprint; null when absent or stale. */
    private static Class<?> buildTimeClass(String name, ClassLoader loader, RemoteInterfaces remote) {
        Class<?> type;
        try {
            type = Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            return null;
        } catch (LinkageError e) {
            LOG.warn("ibis rmi: build-time class {} cannot be loaded ({}); generating one at run time", name,
                    e.toString());
            return null;
        }
        try {
            Field f = type.getDeclaredField(RemoteMethodTable.HASH_FIELD);
            if (!Modifier.isStatic(f.getModifiers()) || f.getType() != long.class) {
                stale(type, "has a malformed " + RemoteMethodTable.HASH_FIELD);
                return null;
            }
            f.setAccessible(true);
            if (f.getLong(null) != remote.table().hash()) {
                stale(type, "was generated for other remote interfaces or methods (rerun ibisc)");
                return null;
            }
        } catch (NoSuchFieldException | IllegalAccessException | RuntimeException | LinkageError e) {
            stale(type, "carries no usable " + RemoteMethodTable.HASH_FIELD + " (" + e + ")");
            return null;
        }
        LOG.debug("ibis rmi: using build-time class {}", name);
        return type;
    }

    private static void stale(Class<?> type, String why) {
        LOG.warn("ibis rmi: ignoring build-time class {}: it {}; generating one at run time", type.getName(), why);
    }

    private static String newName(String kind, RemoteInterfaces remote) {
        Class<?> first = remote.interfaces().get(0);
        return remote.host() == null ? StubGenerator.newClassName(kind, first)
                : StubGenerator.newClassName(kind, first, remote.host());
    }

    /**
     * Defines a generated class: in a loader of its own when every remote interface is public;
     * else in the package and class loader of the non-public interface, which only code of that
     * run-time package may implement and call (as the JDK's proxies of such interfaces).
     */
    private static Class<?> define(RemoteInterfaces remote, String name, byte[] bytes)
            throws IllegalAccessException {
        Class<?> host = remote.host();
        if (host == null) {
            return loaderFor(remote).define(name, bytes);
        }
        try {
            return MethodHandles.privateLookupIn(host, MethodHandles.lookup()).defineClass(bytes);
        } catch (IllegalAccessException e) {
            IllegalAccessException x = new IllegalAccessException("cannot define " + name + " next to the non-public"
                    + " remote interface " + host.getName() + " (its module must open package "
                    + host.getPackageName() + " to Ibis RMI): " + e.getMessage());
            x.initCause(e);
            throw x;
        }
    }

    private static DefiningLoader loaderFor(RemoteInterfaces remote) {
        ClassLoader parent = remote.interfaces().get(0).getClassLoader();
        if (parent == null) {
            parent = GeneratedCode.class.getClassLoader();
        }
        return LOADERS.computeIfAbsent(parent, DefiningLoader::new);
    }

    /** The loader of the generated classes for one application loader. */
    private static final class DefiningLoader extends ClassLoader {
        static {
            registerAsParallelCapable();
        }

        DefiningLoader(ClassLoader parent) {
            super(parent);
        }

        Class<?> define(String name, byte[] bytes) {
            return defineClass(name, bytes, 0, bytes.length);
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            if (name.startsWith("ibis.")) {
                return Class.forName(name, false, GeneratedCode.class.getClassLoader());
            }
            throw new ClassNotFoundException(name);
        }
    }
}
