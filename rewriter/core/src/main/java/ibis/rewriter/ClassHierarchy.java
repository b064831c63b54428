package ibis.rewriter;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.objectweb.asm.Opcodes;

/**
 * The classes the rewriter can see, as bytes: the input classes, then the user's class path
 * (directories and jars), then the JDK's own modules (the system image of the JVM running the
 * rewriter). Nothing is ever loaded into the JVM: each class file is parsed with ASM into a
 * {@link ClassInfo}, cached by name. Answers the type questions the serialization rules need
 * (is a class Serializable, which is the common superclass of two classes).
 */
final class ClassHierarchy implements Closeable {

    static final String OBJECT = "java/lang/Object";

    /** A class the rules needed but could not find. */
    static final class MissingClassException extends Exception {
        private static final long serialVersionUID = 1L;
        final String className; // internal name

        MissingClassException(String className) {
            super(className.replace('/', '.'), null, false, false);
            this.className = className;
        }
    }

    private final Map<String, ClassInfo> inputClasses = new HashMap<>();
    private final List<Path> classPath;
    private final Map<Path, ZipFile> openJars = new HashMap<>();
    private final Map<String, Optional<ClassInfo>> cache = new HashMap<>();
    private Map<String, ModuleReference> jdkPackages;
    private final Map<String, ModuleReader> openModules = new HashMap<>();

    ClassHierarchy(List<Path> classPath) {
        this.classPath = List.copyOf(classPath);
    }

    /** Makes an input class visible (the first class of a name wins). */
    void addInput(ClassInfo info) {
        inputClasses.putIfAbsent(info.name, info);
    }

    /** The class with this internal name, or null when it is nowhere to be found. */
    ClassInfo find(String name) {
        ClassInfo input = inputClasses.get(name);
        if (input != null) {
            return input;
        }
        Optional<ClassInfo> cached = cache.get(name);
        if (cached == null) {
            cached = Optional.ofNullable(load(name));
            cache.put(name, cached);
        }
        return cached.orElse(null);
    }

    /** The class with this internal name; throws when it cannot be found. */
    ClassInfo get(String name) throws MissingClassException {
        ClassInfo info = find(name);
        if (info == null) {
            throw new MissingClassException(name);
        }
        return info;
    }

    /**
     * Whether {@code name} is {@code target} or has it among its superclasses or (transitively)
     * interfaces. Throws only when the answer depends on a class that cannot be found.
     */
    boolean isSubtypeOf(String name, String target) throws MissingClassException {
        Deque<String> todo = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        todo.add(name);
        String missing = null;
        while (!todo.isEmpty()) {
            String current = todo.poll();
            if (!seen.add(current)) {
                continue;
            }
            if (current.equals(target)) {
                return true;
            }
            ClassInfo info = find(current);
            if (info == null) {
                if (missing == null) {
                    missing = current;
                }
                continue;
            }
            if (info.superName != null) {
                todo.add(info.superName);
            }
            todo.addAll(info.interfaces);
        }
        if (missing != null) {
            throw new MissingClassException(missing);
        }
        return false;
    }

    /**
     * The nearest common superclass of two classes, as ASM's frame computation needs it
     * (java/lang/Object when either is an interface).
     */
    String commonSuperClass(String a, String b) throws MissingClassException {
        if (a.equals(b)) {
            return a;
        }
        ClassInfo infoA = get(a);
        ClassInfo infoB = get(b);
        if (infoA.isInterface() || infoB.isInterface()) {
            return OBJECT;
        }
        Set<String> chainA = new HashSet<>();
        for (String c = a; c != null; c = get(c).superName) {
            chainA.add(c);
        }
        for (String c = b; c != null; c = get(c).superName) {
            if (chainA.contains(c)) {
                return c;
            }
        }
        return OBJECT;
    }

    private ClassInfo load(String name) {
        byte[] bytes;
        try {
            bytes = readBytes(name + ".class");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read class " + name.replace('/', '.') + ": " + e.getMessage(), e);
        }
        if (bytes == null) {
            return builtIn(name);
        }
        try {
            return ClassInfo.read(bytes);
        } catch (RuntimeException e) {
            // A class file ASM cannot parse (e.g. a newer class file version) is as good as absent.
            return null;
        }
    }

    /** The ibis.io types generated code refers to, as the contract defines them, when ibis-io is not visible. */
    private static ClassInfo builtIn(String name) {
        switch (name) {
            case SerialRules.IBIS_SERIALIZABLE:
                return ClassInfo.builtIn(name, Opcodes.ACC_PUBLIC | Opcodes.ACC_INTERFACE | Opcodes.ACC_ABSTRACT,
                        Opcodes.V17);
            case SerialRules.IBIS_GENERATOR:
                return ClassInfo.builtIn(name, Opcodes.ACC_PUBLIC | Opcodes.ACC_ABSTRACT | Opcodes.ACC_SUPER,
                        Opcodes.V17);
            default:
                return null;
        }
    }

    private byte[] readBytes(String resource) throws IOException {
        for (Path entry : classPath) {
            if (Files.isDirectory(entry)) {
                Path file = entry.resolve(resource);
                if (Files.isRegularFile(file)) {
                    return Files.readAllBytes(file);
                }
            } else if (Files.isRegularFile(entry)) {
                ZipFile zip = openJars.get(entry);
                if (zip == null) {
                    zip = new ZipFile(entry.toFile());
                    openJars.put(entry, zip);
                }
                ZipEntry e = zip.getEntry(resource);
                if (e != null) {
                    try (InputStream in = zip.getInputStream(e)) {
                        return in.readAllBytes();
                    }
                }
            }
        }
        return readJdk(resource);
    }

    /** Reads a class file of the JDK's system modules (never the application class path). */
    private byte[] readJdk(String resource) throws IOException {
        if (jdkPackages == null) {
            jdkPackages = new HashMap<>();
            for (ModuleReference ref : ModuleFinder.ofSystem().findAll()) {
                for (String pkg : ref.descriptor().packages()) {
                    jdkPackages.putIfAbsent(pkg.replace('.', '/'), ref);
                }
            }
        }
        int slash = resource.lastIndexOf('/');
        if (slash < 0) {
            return null;
        }
        ModuleReference ref = jdkPackages.get(resource.substring(0, slash));
        if (ref == null) {
            return null;
        }
        String module = ref.descriptor().name();
        ModuleReader reader = openModules.get(module);
        if (reader == null) {
            reader = ref.open();
            openModules.put(module, reader);
        }
        Optional<InputStream> in = reader.open(resource);
        if (in.isEmpty()) {
            return null;
        }
        try (InputStream stream = in.get()) {
            return stream.readAllBytes();
        }
    }

    @Override
    public void close() throws IOException {
        List<Closeable> all = new ArrayList<>(openJars.values());
        all.addAll(openModules.values());
        openJars.clear();
        openModules.clear();
        IOException first = null;
        for (Closeable c : all) {
            try {
                c.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
