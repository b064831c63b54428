package ibis.rmi.impl;

import ibis.rmi.server.RemoteStub;

import java.lang.reflect.Constructor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Defines and caches the generated stub and skeleton classes: one pair per list of remote
 * interfaces. The classes are defined in a class loader whose parent is the loader of the first
 * interface, so they see the application's types; names under {@code ibis.} that the parent does
 * not know are taken from Ibis RMI's own loader.
 */
final class GeneratedCode {

    private static final Map<List<Class<?>>, Constructor<?>> STUBS = new ConcurrentHashMap<>();
    private static final Map<List<Class<?>>, Skeleton> SKELETONS = new ConcurrentHashMap<>();
    private static final Map<ClassLoader, DefiningLoader> LOADERS = new ConcurrentHashMap<>();

    private GeneratedCode() {
    }

    /** A new stub of the generated class for the interfaces. */
    static RemoteStub newStub(RemoteInterfaces remote, RemoteReference ref) throws ReflectiveOperationException {
        Constructor<?> c = STUBS.get(remote.interfaces());
        if (c == null) {
            synchronized (STUBS) {
                c = STUBS.get(remote.interfaces());
                if (c == null) {
                    String name = StubGenerator.newClassName("Stub", remote.interfaces().get(0));
                    Class<?> type = loaderFor(remote).define(name, StubGenerator.stubBytes(name, remote));
                    c = type.getConstructor(RemoteReference.class);
                    STUBS.put(remote.interfaces(), c);
                }
            }
        }
        return (RemoteStub) c.newInstance(ref);
    }

    /** The (stateless, shared) skeleton for the interfaces. */
    static Skeleton skeleton(RemoteInterfaces remote) throws ReflectiveOperationException {
        Skeleton s = SKELETONS.get(remote.interfaces());
        if (s == null) {
            synchronized (SKELETONS) {
                s = SKELETONS.get(remote.interfaces());
                if (s == null) {
                    String name = StubGenerator.newClassName("Skeleton", remote.interfaces().get(0));
                    Class<?> type = loaderFor(remote).define(name, StubGenerator.skeletonBytes(name, remote));
                    s = (Skeleton) type.getConstructor().newInstance();
                    SKELETONS.put(remote.interfaces(), s);
                }
            }
        }
        return s;
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
