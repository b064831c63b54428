package ibis.rewriter;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.registry.server.CentralRegistryServer;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.CheckClassAdapter;

/**
 * Test support: compiles sample sources at test time (javax.tools with --release 17, or the
 * JDK 25 javac), snapshots directories, verifies class files with ASM's CheckClassAdapter, and
 * loads rewritten classes in fresh class loaders.
 */
final class Samples {

    /** The Temurin 25 JDK every development and CI machine of this project has. */
    static final Path JDK25 = Paths.get("/usr/lib/jvm/temurin-25-jdk-amd64");

    private Samples() {
    }

    /** A fresh temporary directory (deleted by {@link #delete}). */
    static Path tempDir(String prefix) {
        try {
            return Files.createTempDirectory("ibis-rewriter-" + prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Compiles the sources (file path relative to the source root, e.g. "p/Foo.java", to text)
     * with --release 17 into {@code out}, with {@code classPath} entries visible.
     */
    static Path compile(Path out, Map<String, String> sources, Path... classPath) throws IOException {
        Path src = writeSources(out, sources);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("--release", "17", "-d", out.toString(), "-proc:none", "-nowarn"));
        addClassPath(args, classPath);
        args.addAll(javaFiles(src));
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int rc = javac.run(null, errors, errors, args.toArray(new String[0]));
        assertEquals(rc, 0, "javac failed: " + errors.toString(StandardCharsets.UTF_8));
        delete(src);
        return out;
    }

    /** Compiles with the JDK 25 javac (a child process) and --release 25; fails when that JDK is missing. */
    static Path compileJava25(Path out, Map<String, String> sources) throws IOException, InterruptedException {
        Path javacBin = JDK25.resolve("bin/javac");
        assertTrue(Files.isExecutable(javacBin), "the JDK 25 javac must exist on this machine: " + javacBin);
        Path src = writeSources(out, sources);
        List<String> cmd = new ArrayList<>(List.of(javacBin.toString(), "--release", "25", "-d", out.toString(),
                "-proc:none", "-nowarn"));
        cmd.addAll(javaFiles(src));
        ProcessResult r = run(cmd, 120);
        assertEquals(r.exitCode, 0, "javac 25 failed: " + r.output);
        delete(src);
        return out;
    }

    private static Path writeSources(Path out, Map<String, String> sources) throws IOException {
        Files.createDirectories(out);
        Path src = Files.createTempDirectory("ibis-rewriter-src");
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path f = src.resolve(e.getKey());
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
        }
        return src;
    }

    private static void addClassPath(List<String> args, Path... classPath) {
        if (classPath.length > 0) {
            args.add("-cp");
            args.add(Stream.of(classPath).map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
        }
    }

    private static List<String> javaFiles(Path src) throws IOException {
        try (Stream<Path> s = Files.walk(src)) {
            return s.filter(p -> p.toString().endsWith(".java")).map(Path::toString).sorted()
                    .collect(Collectors.toList());
        }
    }

    /** Every file below {@code dir} (relative path with '/') with its bytes. */
    static Map<String, byte[]> snapshot(Path dir) throws IOException {
        Map<String, byte[]> all = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).collect(Collectors.toList())) {
                all.put(dir.relativize(p).toString().replace(File.separatorChar, '/'), Files.readAllBytes(p));
            }
        }
        return all;
    }

    /** Asserts two snapshots hold the same files with the same bytes. */
    static void assertSameFiles(Map<String, byte[]> actual, Map<String, byte[]> expected) {
        assertEquals(actual.keySet(), expected.keySet());
        for (String k : expected.keySet()) {
            assertEquals(actual.get(k), expected.get(k), "bytes of " + k);
        }
    }

    /**
     * Verifies a class file with ASM's CheckClassAdapter (structure and bytecode, with a verifier
     * that loads referenced classes through {@code loader}); fails with ASM's report.
     */
    static void verify(byte[] classFile, ClassLoader loader) {
        StringWriter report = new StringWriter();
        CheckClassAdapter.verify(new ClassReader(classFile), loader, false, new PrintWriter(report));
        assertEquals(report.toString(), "", "CheckClassAdapter found problems");
    }

    /** A class loader over the directories/jars, whose parent sees the test class path (ibis.io included). */
    static URLClassLoader loader(Path... entries) {
        URL[] urls = new URL[entries.length];
        for (int i = 0; i < entries.length; i++) {
            try {
                urls[i] = entries[i].toUri().toURL();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new URLClassLoader(urls, Samples.class.getClassLoader());
    }

    /** Output and exit code of a finished child process. */
    static final class ProcessResult {
        final int exitCode;
        final String output;

        ProcessResult(int exitCode, String output) {
            this.exitCode = exitCode;
            this.output = output;
        }
    }

    /** Runs a command (stderr merged into stdout), killing it after {@code timeoutSeconds}. */
    static ProcessResult run(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
        return run(command, timeoutSeconds, null);
    }

    /** Runs a command in {@code dir} (null: the current directory). */
    static ProcessResult run(List<String> command, long timeoutSeconds, Path dir)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        Path log = Files.createTempFile("ibis-rewriter-child", ".log");
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        try {
            boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            String output = Files.readString(log);
            if (!done) {
                throw new AssertionError("timed out after " + timeoutSeconds + " s: " + command + "\n" + output);
            }
            return new ProcessResult(p.exitValue(), output);
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(log);
        }
    }

    /**
     * Runs {@code mainClass} of {@code classes} (before this JVM's class path) in a child JVM that is
     * the only member of a fresh pool over tcp, with a registry server of its own on loopback.
     */
    static ProcessResult runInOwnPool(Path classes, String poolPrefix, String mainClass) throws Exception {
        Properties serverProperties = new Properties();
        serverProperties.setProperty("ibis.registry.server.bind", "127.0.0.1");
        try (CentralRegistryServer server =
                new CentralRegistryServer(0, serverProperties)) {
            server.start();
            return run(List.of(javaBin(), "-Xmx256m", "-cp",
                    classes + File.pathSeparator + System.getProperty("java.class.path"),
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dibis.server.address=" + server.address(),
                    "-Dibis.pool.name=" + poolPrefix + "-" + UUID.randomUUID(), "-Dibis.implementation=tcp",
                    mainClass), 60);
        }
    }

    /** The java launcher of the running JVM. */
    static String javaBin() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Deletes a directory tree (or a file); ignores what is already gone. */
    static void delete(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
