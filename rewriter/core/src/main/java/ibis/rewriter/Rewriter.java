package ibis.rewriter;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Ibis bytecode rewriter: adds generated serializers to the plain Serializable classes of its
 * inputs (directories of class files and jars), in place. What is generated and which classes
 * qualify is specified in io/README.md, "Generated serializers: the contract for the rewriter".
 * Unless {@link #rmiStubs(boolean) turned off}, it also writes the Ibis RMI stub and skeleton of
 * every remote class next to it ({@link RmiStubPass}), and always the GMI group stub and parameter
 * vectors of every group interface next to it ({@link GmiStubPass}).
 *
 * <p>All input classes are read first (so the rules see the whole input), decided superclasses
 * first, generated in memory, and only then written: a directory's files one by one (each
 * generator class before the class that needs it, each through a temporary file), a jar as a new
 * file that replaces the old one. Multi-release variants ({@code META-INF/versions/}) and
 * {@code module-info} classes are left alone, and so are classes that have multi-release variants
 * and all classes of a signed jar. Running the rewriter on its own output changes nothing: a class
 * that already implements {@code ibis.io.Serializable} is never touched, and a jar or file with
 * nothing to rewrite is not written.
 *
 * <p>Not thread-safe; one instance per run is simplest.
 */
public final class Rewriter {

    private static final Logger LOG = LoggerFactory.getLogger(Rewriter.class);

    private static final String VERSIONS = "META-INF/versions/";

    private List<Path> classPath = List.of();
    private boolean javaRmi;
    private boolean rmiStubs = true;
    private Consumer<ClassOutcome> listener = c -> { };

    /** Directories and jars (besides the inputs and the JDK) where the rules may look up classes. */
    public Rewriter classPath(List<Path> entries) {
        this.classPath = List.copyOf(entries);
        return this;
    }

    /**
     * Asks for the {@code java.rmi} drop-in pass, run before the serializers are generated: every
     * reference to {@code java.rmi.Naming}, {@code java.rmi.registry.LocateRegistry},
     * {@code java.rmi.registry.Registry}, {@code java.rmi.server.UnicastRemoteObject} and
     * {@code java.rmi.server.RemoteStub} becomes one to the {@code ibis.rmi} class of the same
     * name (exceptions and {@code java.rmi.Remote} stay), so a compiled {@code java.rmi} program
     * runs over Ibis RMI. Each used method or field is checked against the ibis.rmi class, found on
     * the {@link #classPath(List) class path} or else on the rewriter's own class path (as bytes);
     * a class using one that Ibis RMI lacks, or an ibis.rmi class found nowhere, fails the run.
     */
    public Rewriter javaRmi(boolean enabled) {
        this.javaRmi = enabled;
        return this;
    }

    /**
     * Whether to run the RMI stubs pass (on by default): every concrete input class implementing
     * remote interfaces (extending {@code java.rmi.Remote}) gets its Ibis RMI stub
     * {@code C_IbisStub} and skeleton {@code C_IbisSkeleton} written next to it, so the run time
     * need not generate them (see {@link RmiStubPass}). Runs after the {@link #javaRmi java.rmi}
     * pass, so a java.rmi program rewritten with it gets build-time stubs too.
     */
    public Rewriter rmiStubs(boolean enabled) {
        this.rmiStubs = enabled;
        return this;
    }

    /** Called once per input class with its outcome, superclasses before subclasses. */
    public Rewriter listener(Consumer<ClassOutcome> consumer) {
        this.listener = consumer == null ? c -> { } : consumer;
        return this;
    }

    /** One class file of an input. */
    private static final class InputClass {
        final Input input;
        final String entry;   // path inside the directory or jar, with '/'
        byte[] bytes;         // the java.rmi pass replaces it with the renamed class
        ClassInfo info;
        String excluded;      // reason when the container forbids rewriting it
        boolean javaRmiRenamed;
        byte[] rewritten;
        byte[] generator;
        RmiStubPass.Generated rmi;  // stub and skeleton of a remote class
        boolean rmiChanged;         // they differ from (or are missing in) the input
        Map<String, byte[]> gmi;    // group stub and parameter vectors of a group interface (internal name -> bytes)
        boolean gmiChanged;         // they differ from (or are missing in) the input

        InputClass(Input input, String entry, byte[] bytes, ClassInfo info) {
            this.input = input;
            this.entry = entry;
            this.bytes = bytes;
            this.info = info;
        }
    }

    /** A directory or a jar given as input. */
    private static final class Input {
        final Path path;
        final boolean jar;
        final List<InputClass> classes = new ArrayList<>();
        final Set<String> entries = new HashSet<>();

        Input(Path path, boolean jar) {
            this.path = path;
            this.jar = jar;
        }
    }

    /**
     * Rewrites the inputs in place.
     *
     * @param inputs directories of class files (package folders below them) and jar files
     * @throws RewriteException when an input cannot be read or written, or a class file cannot be
     *         parsed or generated; the message names the file or class. Inputs are only written
     *         after every class was generated, so a failure in generation leaves all inputs as they were.
     */
    public RewriteResult rewrite(List<Path> inputs) throws RewriteException {
        List<Input> all = new ArrayList<>();
        for (Path p : inputs) {
            all.add(read(p));
        }
        List<String> warnings = new ArrayList<>();
        if (javaRmi) {
            renameJavaRmi(all, warnings);
        }
        List<ClassOutcome> outcomes = new ArrayList<>();
        try (ClassHierarchy hierarchy = new ClassHierarchy(classPath)) {
            Set<ClassInfo> inputInfos = Collections.newSetFromMap(new IdentityHashMap<>());
            List<InputClass> classes = new ArrayList<>();
            for (Input in : all) {
                for (InputClass c : in.classes) {
                    hierarchy.addInput(c.info);
                    inputInfos.add(c.info);
                    classes.add(c);
                }
            }
            SerialRules rules = new SerialRules(hierarchy, inputInfos);
            for (InputClass c : classes) {
                if (c.excluded != null) {
                    rules.exclude(c.info, c.excluded);
                }
            }
            generateRmiStubs(all, hierarchy, rules, warnings);
            generateGmiStubs(all, hierarchy);
            // Superclasses first (depth of the superclass chain within the input), then by name.
            Map<InputClass, Integer> depth = new IdentityHashMap<>();
            for (InputClass c : classes) {
                depth.put(c, inputDepth(c.info, hierarchy, inputInfos));
            }
            List<InputClass> ordered = new ArrayList<>(classes);
            ordered.sort(Comparator.comparingInt((InputClass c) -> depth.get(c)).thenComparing(c -> c.info.name));
            SerializerGenerator generator = new SerializerGenerator(hierarchy);
            for (InputClass c : ordered) {
                SerialRules.Decision d = rules.decide(c.info);
                ClassOutcome.Status status;
                switch (d.kind) {
                    case REWRITE:
                        status = ClassOutcome.Status.REWRITTEN;
                        try {
                            c.rewritten = generator.rewriteClass(c.bytes, c.info, d);
                            // An abstract class's generator would never be called (io/README.md allows omitting it).
                            c.generator = c.info.is(org.objectweb.asm.Opcodes.ACC_ABSTRACT) ? null
                                    : generator.generatorClass(c.info);
                        } catch (RuntimeException e) {
                            throw new RewriteException("cannot rewrite class " + c.info.javaName() + " (" + where(c)
                                    + "): " + e, e);
                        }
                        break;
                    case ALREADY_REWRITTEN:
                        status = ClassOutcome.Status.ALREADY_REWRITTEN;
                        break;
                    case NOT_SERIALIZABLE:
                        status = ClassOutcome.Status.NOT_SERIALIZABLE;
                        break;
                    default:
                        status = ClassOutcome.Status.SKIPPED;
                        break;
                }
                if (c.javaRmiRenamed && c.rewritten == null) {
                    c.rewritten = c.bytes;
                }
                ClassOutcome outcome = new ClassOutcome(c.info.javaName(), c.input.path, status, d.reason,
                        c.javaRmiRenamed, c.rmi == null ? null : c.rmi.stubName.replace('/', '.'));
                LOG.debug("{}", outcome);
                outcomes.add(outcome);
            }
        } catch (UncheckedIOException e) {
            throw new RewriteException(e.getMessage(), e.getCause());
        } catch (IOException e) {
            throw new RewriteException("cannot close the class path: " + e.getMessage(), e);
        }
        for (Input in : all) {
            write(in);
        }
        for (ClassOutcome o : outcomes) {
            listener.accept(o);
        }
        return new RewriteResult(outcomes, warnings);
    }

    /**
     * The java.rmi pass over every input class, before anything else sees them (it has its own
     * view of the classes: the original inputs and the class path).
     */
    private void renameJavaRmi(List<Input> all, List<String> warnings) throws RewriteException {
        try (ClassHierarchy hierarchy = new ClassHierarchy(classPath)) {
            for (Input in : all) {
                for (InputClass c : in.classes) {
                    hierarchy.addInput(c.info);
                }
            }
            JavaRmiPass pass = new JavaRmiPass(hierarchy);
            List<String> failures = new ArrayList<>();
            for (Input in : all) {
                for (InputClass c : in.classes) {
                    byte[] renamed;
                    try {
                        renamed = pass.remap(c.bytes, c.info.javaName());
                    } catch (IllegalStateException e) {
                        failures.add(e.getMessage() + " (" + where(c) + ")");
                        continue;
                    } catch (RuntimeException e) {
                        throw new RewriteException("cannot rewrite class " + c.info.javaName() + " for java.rmi ("
                                + where(c) + "): " + e, e);
                    }
                    if (renamed == null) {
                        continue;
                    }
                    if (c.excluded != null) {
                        String w = "class " + c.info.javaName() + " uses java.rmi registry/export classes but is left"
                                + " alone: it is " + c.excluded;
                        warnings.add(w);
                        LOG.warn(w);
                        continue;
                    }
                    c.bytes = renamed;
                    c.info = parse(renamed, where(c));
                    c.javaRmiRenamed = true;
                }
            }
            if (!failures.isEmpty()) {
                throw new RewriteException("--java-rmi: " + String.join(System.lineSeparator(), failures));
            }
        } catch (UncheckedIOException e) {
            throw new RewriteException(e.getMessage(), e.getCause());
        } catch (IOException e) {
            throw new RewriteException("cannot close the class path: " + e.getMessage(), e);
        }
    }

    /**
     * The RMI stubs pass (when enabled): generates the stub and skeleton of every remote input
     * class; leaves Ibis stubs found in the input out of the serialization pass.
     */
    private void generateRmiStubs(List<Input> all, ClassHierarchy hierarchy, SerialRules rules, List<String> warnings)
            throws RewriteException {
        RmiStubPass pass = new RmiStubPass(hierarchy);
        for (Input in : all) {
            Map<String, InputClass> byEntry = new HashMap<>();
            for (InputClass c : in.classes) {
                byEntry.put(c.entry, c);
            }
            for (InputClass c : in.classes) {
                if (pass.isStubOrSkeleton(c.info)) {
                    if (c.excluded == null) {
                        rules.exclude(c.info, "an RMI stub or skeleton");
                    }
                    continue;
                }
                if (!rmiStubs || c.excluded != null) {
                    continue;
                }
                try {
                    c.rmi = pass.generate(c.info);
                } catch (IllegalArgumentException e) {
                    String w = "no RMI stubs for " + c.info.javaName() + ": " + e.getMessage()
                            + " (Ibis RMI cannot export it)";
                    warnings.add(w);
                    LOG.warn(w);
                    continue;
                } catch (RuntimeException e) {
                    throw new RewriteException("cannot generate the RMI stubs of " + c.info.javaName() + " (" + where(c)
                            + "): " + e, e);
                }
                if (c.rmi != null) {
                    InputClass oldStub = byEntry.get(siblingEntry(c, c.rmi.stubName));
                    InputClass oldSkeleton = byEntry.get(siblingEntry(c, c.rmi.skeletonName));
                    c.rmiChanged = oldStub == null || !Arrays.equals(oldStub.bytes, c.rmi.stub)
                            || oldSkeleton == null || !Arrays.equals(oldSkeleton.bytes, c.rmi.skeleton);
                }
            }
        }
    }

    /**
     * The GMI pass: writes the group stub and parameter vectors of every group interface among the
     * inputs next to it ({@link GmiStubPass}), so GMI need not generate them at run time.
     */
    private static void generateGmiStubs(List<Input> all, ClassHierarchy hierarchy) throws RewriteException {
        GmiStubPass pass = new GmiStubPass(hierarchy);
        for (Input in : all) {
            Map<String, InputClass> byEntry = new HashMap<>();
            for (InputClass c : in.classes) {
                byEntry.put(c.entry, c);
            }
            for (InputClass c : in.classes) {
                if (c.excluded != null) {
                    continue;
                }
                try {
                    c.gmi = pass.generate(c.info);
                } catch (RuntimeException e) {
                    throw new RewriteException("cannot generate the GMI classes of " + c.info.javaName() + " ("
                            + where(c) + "): " + e.getMessage(), e);
                }
                if (c.gmi != null) {
                    for (Map.Entry<String, byte[]> g : c.gmi.entrySet()) {
                        InputClass old = byEntry.get(siblingEntry(c, g.getKey()));
                        c.gmiChanged |= old == null || !Arrays.equals(old.bytes, g.getValue());
                    }
                }
            }
        }
    }

    /** The entry of a class generated next to an input class (same folder; internal name given). */
    private static String siblingEntry(InputClass c, String generatedName) {
        int slash = c.entry.lastIndexOf('/');
        return c.entry.substring(0, slash + 1) + generatedName.substring(generatedName.lastIndexOf('/') + 1) + ".class";
    }

    private static int inputDepth(ClassInfo info, ClassHierarchy hierarchy, Set<ClassInfo> inputs) {
        int depth = 0;
        Set<String> seen = new HashSet<>();
        for (ClassInfo c = info; c.superName != null && seen.add(c.name); ) {
            c = hierarchy.find(c.superName);
            if (c == null || !inputs.contains(c)) {
                break;
            }
            depth++;
        }
        return depth;
    }

    private static String where(InputClass c) {
        return c.input.jar ? c.entry + " in " + c.input.path : c.input.path.resolve(c.entry).toString();
    }

    // ---- reading

    private static Input read(Path path) throws RewriteException {
        if (Files.isDirectory(path)) {
            return readDirectory(path);
        }
        if (Files.isRegularFile(path) && path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jar")) {
            return readJar(path);
        }
        throw new RewriteException("not a directory or a jar file: " + path);
    }

    private static Input readDirectory(Path dir) throws RewriteException {
        Input in = new Input(dir, false);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().endsWith(".class"))
                    .sorted().collect(java.util.stream.Collectors.toList());
        } catch (IOException | UncheckedIOException e) {
            throw new RewriteException("cannot list directory " + dir + ": " + e.getMessage(), e);
        }
        Set<String> versioned = new HashSet<>();
        for (Path f : files) {
            String entry = dir.relativize(f).toString().replace(f.getFileSystem().getSeparator(), "/");
            in.entries.add(entry);
            if (entry.startsWith(VERSIONS)) {
                String base = stripVersion(entry);
                if (base != null) {
                    versioned.add(base);
                }
                continue;
            }
            if (entry.startsWith("META-INF/") || f.getFileName().toString().equals("module-info.class")) {
                continue;
            }
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(f);
            } catch (IOException e) {
                throw new RewriteException("cannot read " + f + ": " + e.getMessage(), e);
            }
            in.classes.add(new InputClass(in, entry, bytes, parse(bytes, f.toString())));
        }
        markVersioned(in, versioned);
        return in;
    }

    private static Input readJar(Path jar) throws RewriteException {
        Input in = new Input(jar, true);
        Set<String> versioned = new HashSet<>();
        boolean signed = false;
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                String name = e.getName();
                in.entries.add(name);
                String upper = name.toUpperCase(Locale.ROOT);
                if (upper.startsWith("META-INF/") && upper.indexOf('/', 9) < 0
                        && (upper.endsWith(".SF") || upper.endsWith(".RSA") || upper.endsWith(".DSA")
                                || upper.endsWith(".EC"))) {
                    signed = true;
                }
                if (e.isDirectory() || !name.endsWith(".class")) {
                    continue;
                }
                if (name.startsWith(VERSIONS)) {
                    String base = stripVersion(name);
                    if (base != null) {
                        versioned.add(base);
                    }
                    continue;
                }
                if (name.startsWith("META-INF/") || name.equals("module-info.class")
                        || name.endsWith("/module-info.class")) {
                    continue;
                }
                byte[] bytes;
                try (InputStream s = zip.getInputStream(e)) {
                    bytes = s.readAllBytes();
                }
                in.classes.add(new InputClass(in, name, bytes, parse(bytes, name + " in " + jar)));
            }
        } catch (IOException e) {
            throw new RewriteException("cannot read jar " + jar + ": " + e.getMessage(), e);
        }
        markVersioned(in, versioned);
        if (signed) {
            for (InputClass c : in.classes) {
                c.excluded = "in a signed jar (rewriting would break its signature)";
            }
        }
        return in;
    }

    private static void markVersioned(Input in, Set<String> versioned) {
        for (InputClass c : in.classes) {
            if (versioned.contains(c.entry)) {
                c.excluded = "has multi-release variants under META-INF/versions/";
            }
        }
    }

    /** "META-INF/versions/11/p/C.class" to "p/C.class"; null when malformed. */
    private static String stripVersion(String entry) {
        int slash = entry.indexOf('/', VERSIONS.length());
        return slash < 0 ? null : entry.substring(slash + 1);
    }

    private static ClassInfo parse(byte[] bytes, String where) throws RewriteException {
        try {
            return ClassInfo.read(bytes);
        } catch (RuntimeException e) {
            throw new RewriteException("cannot parse class file " + where + ": " + e, e);
        }
    }

    // ---- writing

    private static void write(Input in) throws RewriteException {
        boolean changed = false;
        for (InputClass c : in.classes) {
            changed |= c.rewritten != null || c.rmiChanged || c.gmiChanged;
        }
        if (!changed) {
            return;
        }
        if (in.jar) {
            writeJar(in);
        } else {
            writeDirectory(in);
        }
    }

    private static void writeDirectory(Input in) throws RewriteException {
        for (InputClass c : in.classes) {
            if (c.rmiChanged) {
                // Stub and skeleton refer only to the remote interfaces: written before or after the class alike.
                replaceFile(in.path.resolve(siblingEntry(c, c.rmi.stubName)), c.rmi.stub);
                replaceFile(in.path.resolve(siblingEntry(c, c.rmi.skeletonName)), c.rmi.skeleton);
            }
            if (c.gmiChanged) {
                for (Map.Entry<String, byte[]> g : c.gmi.entrySet()) {
                    replaceFile(in.path.resolve(siblingEntry(c, g.getKey())), g.getValue());
                }
            }
            if (c.rewritten == null) {
                continue;
            }
            Path file = in.path.resolve(c.entry);
            String simple = c.info.name.substring(c.info.name.lastIndexOf('/') + 1);
            Path generatorFile = file.resolveSibling(simple + SerialRules.GENERATOR_SUFFIX + ".class");
            // The generator first: a class marked as rewritten never lacks its generator.
            if (c.generator != null) {
                replaceFile(generatorFile, c.generator);
            }
            replaceFile(file, c.rewritten);
        }
    }

    private static void replaceFile(Path file, byte[] bytes) throws RewriteException {
        Path temp = file.resolveSibling(file.getFileName() + ".ibisc-tmp");
        try {
            Files.write(temp, bytes);
            move(temp, file);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // the original error is the one to report
            }
            throw new RewriteException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void writeJar(Input in) throws RewriteException {
        Map<String, InputClass> byEntry = new HashMap<>();
        Map<String, byte[]> generators = new HashMap<>(); // generator entry name -> bytes
        Map<String, byte[]> rmiClasses = new HashMap<>(); // stub/skeleton entry name -> bytes
        Map<String, List<String>> rmiAfter = new HashMap<>(); // class entry -> its stub/skeleton entries
        for (InputClass c : in.classes) {
            byEntry.put(c.entry, c);
            if (c.generator != null) {
                generators.put(generatorEntry(c), c.generator);
            }
            if (c.rmi != null) {
                String stub = siblingEntry(c, c.rmi.stubName);
                String skeleton = siblingEntry(c, c.rmi.skeletonName);
                rmiClasses.put(stub, c.rmi.stub);
                rmiClasses.put(skeleton, c.rmi.skeleton);
                rmiAfter.put(c.entry, List.of(stub, skeleton));
            }
            if (c.gmi != null) {
                List<String> after = new ArrayList<>();
                for (Map.Entry<String, byte[]> g : c.gmi.entrySet()) {
                    String entry = siblingEntry(c, g.getKey());
                    rmiClasses.put(entry, g.getValue());
                    after.add(entry);
                }
                rmiAfter.put(c.entry, after);
            }
        }
        Path jar = in.path;
        Path temp = jar.resolveSibling(jar.getFileName() + ".ibisc-tmp");
        try (ZipFile zip = new ZipFile(jar.toFile()); OutputStream file = Files.newOutputStream(temp);
                ZipOutputStream out = new ZipOutputStream(file)) {
            if (zip.getComment() != null) {
                out.setComment(zip.getComment());
            }
            Set<String> written = new HashSet<>();
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                if (!written.add(e.getName())) {
                    continue; // a duplicate entry name (ZipOutputStream refuses them); the first is what readers see
                }
                InputClass c = byEntry.get(e.getName());
                byte[] content;
                if (c != null && c.rewritten != null) {
                    content = c.rewritten;
                } else if (generators.containsKey(e.getName())) {
                    content = generators.remove(e.getName()); // left by an earlier run: replaced in place
                } else if (rmiClasses.containsKey(e.getName())) {
                    content = rmiClasses.remove(e.getName()); // left by an earlier run: replaced in place
                } else {
                    try (InputStream s = zip.getInputStream(e)) {
                        content = s.readAllBytes();
                    }
                }
                putEntry(out, e, e.getName(), content);
                if (c != null && c.rewritten != null) {
                    String g = generatorEntry(c);
                    byte[] generator = generators.remove(g);
                    if (generator != null && written.add(g)) {
                        putEntry(out, e, g, generator);
                    }
                }
                for (String r : rmiAfter.getOrDefault(e.getName(), List.of())) {
                    byte[] bytes = rmiClasses.remove(r);
                    if (bytes != null && written.add(r)) {
                        putEntry(out, e, r, bytes);
                    }
                }
            }
        } catch (IOException e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // the original error is the one to report
            }
            throw new RewriteException("cannot rewrite jar " + jar + ": " + e.getMessage(), e);
        }
        try {
            move(temp, jar);
        } catch (IOException e) {
            throw new RewriteException(
                    "cannot replace jar " + jar + " with the rewritten " + temp + ": " + e.getMessage(), e);
        }
    }

    private static String generatorEntry(InputClass c) {
        int slash = c.entry.lastIndexOf('/');
        String simple = c.info.name.substring(c.info.name.lastIndexOf('/') + 1);
        return c.entry.substring(0, slash + 1) + simple + SerialRules.GENERATOR_SUFFIX + ".class";
    }

    /** Writes an entry like {@code model} (time, comment, stored or deflated) with new contents. */
    private static void putEntry(ZipOutputStream out, ZipEntry model, String name, byte[] content) throws IOException {
        ZipEntry e = new ZipEntry(name);
        e.setTime(model.getTime());
        if (model.getComment() != null) {
            e.setComment(model.getComment());
        }
        if (model.getMethod() == ZipEntry.STORED) {
            CRC32 crc = new CRC32();
            crc.update(content);
            e.setMethod(ZipEntry.STORED);
            e.setSize(content.length);
            e.setCompressedSize(content.length);
            e.setCrc(crc.getValue());
        } else {
            e.setMethod(ZipEntry.DEFLATED);
        }
        out.putNextEntry(e);
        out.write(content);
        out.closeEntry();
    }
}
