package ibis.rewriter.maven;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

import org.objectweb.asm.ClassReader;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * The plugin in a real build: a tiny sample project, generated in a temporary directory, uses
 * {@code ibis:ibis-maven-plugin} (goal {@code rewrite}, bound to {@code process-classes} by
 * default) and is built offline with {@code mvn} in a child process. The plugin and its Ibis
 * dependencies are put into a temporary local repository (nothing is installed into ~/.m2); every
 * other group of that repository is a symbolic link to the outer build's local repository, which
 * already holds everything the sample build needs.
 */
public class RewriteGoalTest {

    private Path work;
    private Path repo;
    private Path app;

    @BeforeClass
    public void prepareRepositoryAndSample() throws Exception {
        work = Files.createTempDirectory("ibis-maven-plugin-test");
        repo = work.resolve("repo");
        app = work.resolve("app");
        Files.createDirectories(repo);
        Path outer = Paths.get(property("ibis.test.localRepository"));
        try (Stream<Path> groups = Files.list(outer)) {
            for (Path g : groups.collect(Collectors.toList())) {
                if (Files.isDirectory(g) && !g.getFileName().toString().equals("ibis")) {
                    Files.createSymbolicLink(repo.resolve(g.getFileName().toString()), g);
                }
            }
        }
        Path plugin = Paths.get(property("ibis.test.basedir"));
        Path rewriterRoot = plugin.getParent();
        Path root = rewriterRoot.getParent();
        install("ibis-parent", root.resolve("pom.xml"), null);
        install("ibis-rewriter-parent", rewriterRoot.resolve("pom.xml"), null);
        install("ibis-rewriter", rewriterRoot.resolve("core/pom.xml"), jarOf(ibis.rewriter.Rewriter.class));
        // The rewriter's RMI stubs pass uses Ibis RMI's generator: ibis-rmi and what it needs.
        install("ibis-rmi", root.resolve("models/rmi/pom.xml"), jarOf(ibis.rmi.Naming.class));
        // And its GMI pass uses GMI's class generators: ibis-gmi.
        install("ibis-gmi", root.resolve("models/gmi/pom.xml"), jarOf(ibis.gmi.Group.class));
        install("ibis-ipl", root.resolve("ipl/pom.xml"), jarOf(ibis.ipl.Ibis.class));
        install("ibis-io", root.resolve("io/pom.xml"), jarOf(ibis.io.IoProperties.class));
        Path pluginJar = Paths.get(property("ibis.test.pluginJar"));
        assertTrue(Files.isRegularFile(pluginJar),
                "the plugin jar is built before this test (phase package): " + pluginJar);
        install("ibis-maven-plugin", plugin.resolve("pom.xml"), pluginJar);

        write(app.resolve("pom.xml"), String.join("\n",
                "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">",
                "  <modelVersion>4.0.0</modelVersion>",
                "  <parent><groupId>ibis</groupId><artifactId>ibis-parent</artifactId>"
                        + "<version>" + version() + "</version>",
                "    <relativePath/></parent>",
                "  <groupId>sample</groupId><artifactId>sample-app</artifactId><version>1.0</version>",
                // What the javaRmi pass checks the renamed calls against (a system-scope jar: no repository needed).
                "  <dependencies><dependency><groupId>sample</groupId><artifactId>ibis-rmi</artifactId>"
                        + "<version>1</version>",
                "    <scope>system</scope><systemPath>" + jarOf(ibis.rmi.Naming.class) + "</systemPath>"
                        + "</dependency></dependencies>",
                "  <build><plugins><plugin>",
                "    <groupId>ibis</groupId><artifactId>ibis-maven-plugin</artifactId>"
                        + "<version>" + version() + "</version>",
                "    <executions><execution><goals><goal>rewrite</goal></goals></execution></executions>",
                "  </plugin></plugins></build>",
                "</project>", ""));
        write(app.resolve("src/main/java/app/Thing.java"),
                "package app; public class Thing implements java.io.Serializable { "
                        + "int count; String name; Part part; }\n");
        write(app.resolve("src/main/java/app/Part.java"),
                "package app; public final class Part implements java.io.Serializable { double weight; }\n");
        write(app.resolve("src/main/java/app/Find.java"), String.join("\n",
                "package app;",
                "public class Find {",
                "    static Object find(int port) throws Exception {",
                "        java.rmi.registry.Registry r = java.rmi.registry.LocateRegistry.getRegistry(port);",
                "        return r.list().length > 0 ? r.lookup(\"x\") : java.rmi.Naming.lookup(\"x\");",
                "    }",
                "}", ""));
        write(app.resolve("src/main/java/app/Service.java"), String.join("\n",
                "package app;",
                "public interface Service extends java.rmi.Remote {"
                        + " int twice(int x) throws java.rmi.RemoteException; }", ""));
        write(app.resolve("src/main/java/app/ServiceImpl.java"), String.join("\n",
                "package app;",
                "public class ServiceImpl extends java.rmi.server.UnicastRemoteObject implements Service {",
                "    private static final long serialVersionUID = 1L;",
                "    public ServiceImpl() throws java.rmi.RemoteException { }",
                "    public int twice(int x) { return 2 * x; }",
                "}", ""));
        write(app.resolve("src/main/java/app/Hooked.java"), String.join("\n",
                "package app;",
                "public class Hooked implements java.io.Serializable {",
                "    private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {"
                        + " out.defaultWriteObject(); }",
                "}", ""));
    }

    @AfterClass(alwaysRun = true)
    public void cleanUp() throws IOException {
        if (work != null) {
            delete(work);
        }
    }

    private static String property(String name) {
        String v = System.getProperty(name);
        assertTrue(v != null && !v.isEmpty(), "system property " + name + " (set by this module's pom)");
        return v;
    }

    private static String version() {
        return property("ibis.test.version");
    }

    /** Puts a pom (and a jar) where a local repository has artifact ibis:NAME:VERSION. */
    private void install(String artifact, Path pom, Path jar) throws IOException {
        Path dir = repo.resolve("ibis").resolve(artifact).resolve(version());
        Files.createDirectories(dir);
        Files.copy(pom, dir.resolve(artifact + "-" + version() + ".pom"));
        if (jar != null) {
            Files.copy(jar, dir.resolve(artifact + "-" + version() + ".jar"));
        }
    }

    /** The jar a class comes from; a classes directory (reactor build before package) is packed into one. */
    private Path jarOf(Class<?> type) throws IOException, URISyntaxException {
        Path location = Paths.get(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (Files.isRegularFile(location)) {
            return location;
        }
        Path jar = work.resolve(type.getName() + ".jar");
        if (Files.isRegularFile(jar)) {
            return jar;
        }
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
                Stream<Path> all = Files.walk(location)) {
            for (Path p : all.filter(Files::isRegularFile).sorted().collect(Collectors.toList())) {
                out.putNextEntry(new ZipEntry(location.relativize(p).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(p));
                out.closeEntry();
            }
        }
        return jar;
    }

    private String mvn(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("mvn", "-o", "-B", "-Dstyle.color=never",
                "-Dmaven.repo.local=" + repo));
        command.addAll(Arrays.asList(args));
        Path log = work.resolve("mvn.log");
        Process p = new ProcessBuilder(command).directory(app.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        try {
            boolean done = p.waitFor(240, TimeUnit.SECONDS);
            String output = Files.readString(log);
            assertTrue(done, "mvn did not finish: " + output);
            assertEquals(p.exitValue(), 0, "mvn " + String.join(" ", args) + " failed:\n" + output);
            return output;
        } finally {
            p.destroyForcibly();
        }
    }

    private static Map<String, byte[]> classes(Path dir) throws IOException {
        Map<String, byte[]> all = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).collect(Collectors.toList())) {
                all.put(dir.relativize(p).toString(), Files.readAllBytes(p));
            }
        }
        return all;
    }

    @Test(timeOut = 600_000)
    public void sampleProjectBuildRewritesItsClassesInProcessClasses() throws Exception {
        String output = mvn("-Dibis.javaRmi=true", "process-classes");
        Path classes = app.resolve("target/classes/app");
        assertTrue(output.contains("ibis rewrite: 2 classes rewritten"), output);
        assertTrue(output.contains(", 2 renamed from java.rmi to ibis.rmi"), output);
        // The RMI stubs pass is on by default: the remote class's stub and skeleton are written next to it.
        assertTrue(output.contains(", 1 remote classes with RMI stubs"), output);
        assertEquals(new ClassReader(Files.readAllBytes(classes.resolve("ServiceImpl_IbisStub.class"))).getInterfaces(),
                new String[] {"app/Service"});
        assertEquals(
                new ClassReader(Files.readAllBytes(classes.resolve("ServiceImpl_IbisSkeleton.class"))).getSuperName(),
                "ibis/rmi/impl/Skeleton");
        assertFalse(Files.exists(classes.resolve("Service_IbisStub.class")), "an interface gets no stub");
        String find = new String(Files.readAllBytes(classes.resolve("Find.class")),
                java.nio.charset.StandardCharsets.ISO_8859_1);
        assertTrue(find.contains("ibis/rmi/Naming") && find.contains("ibis/rmi/registry/Registry"),
                "renamed to ibis.rmi");
        assertFalse(find.contains("java/rmi/Naming") || find.contains("java/rmi/registry/"),
                "no java.rmi registry names left");
        assertTrue(Arrays.asList(new ClassReader(Files.readAllBytes(classes.resolve("Thing.class"))).getInterfaces())
                .contains("ibis/io/Serializable"));
        assertTrue(Files.isRegularFile(classes.resolve("Thing_ibis_io_Generator.class")));
        assertTrue(Files.isRegularFile(classes.resolve("Part_ibis_io_Generator.class")));
        assertFalse(Files.exists(classes.resolve("Hooked_ibis_io_Generator.class")), "a class with hooks is skipped");
        assertFalse(Arrays.asList(new ClassReader(Files.readAllBytes(classes.resolve("Hooked.class"))).getInterfaces())
                .contains("ibis/io/Serializable"));
        assertFalse(Files.isSymbolicLink(repo.resolve("ibis")), "Ibis artifacts stay in the temporary repository");

        // A second build finds everything rewritten and changes no byte.
        Map<String, byte[]> before = classes(classes);
        mvn("-q", "process-classes");
        Map<String, byte[]> after = classes(classes);
        assertEquals(after.keySet(), before.keySet());
        for (String k : before.keySet()) {
            assertTrue(Arrays.equals(after.get(k), before.get(k)), k + " unchanged");
        }

        // rmiStubs=false: a clean build writes no stubs.
        String off = mvn("-Dibis.javaRmi=true", "-Dibis.rmiStubs=false", "clean", "process-classes");
        assertTrue(Files.isRegularFile(classes.resolve("ServiceImpl.class")), off);
        assertFalse(Files.exists(classes.resolve("ServiceImpl_IbisStub.class")), off);
        assertFalse(Files.exists(classes.resolve("ServiceImpl_IbisSkeleton.class")), off);
        assertFalse(off.contains("remote classes with RMI stubs"), off);
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private static void delete(Path root) throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file); // a symbolic link is deleted, never followed
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                if (exc != null) {
                    throw new UncheckedIOException(exc);
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
