package ibis.dist;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * The binary distribution {@code ibis-VERSION-bin.tar.gz}, unpacked into a temporary folder outside the
 * source tree and used from there, as a user without Maven would: a {@code mvn} that fails loudly comes
 * first on the PATH, so a script that tried to build would fail the test.
 */
public class DistributionTest {

    private Path work;
    private Path home;
    private Map<String, String> noMaven;

    @BeforeClass
    public void unpack() throws Exception {
        Path archive = Path.of(property("ibis.dist.archive"));
        assertTrue(Files.isRegularFile(archive), "the distribution is built in package: " + archive);
        work = Files.createTempDirectory("ibis-dist-test");
        ScriptRun tar = CommandRun.run(work, Map.of(), 120, List.of("tar", "xzf", archive.toString()));
        assertEquals(tar.status(), 0, tar.all());
        home = work.resolve("ibis-" + property("ibis.version"));
        Path fakeBin = Files.createDirectories(work.resolve("fake-bin"));
        Path mvn = fakeBin.resolve("mvn");
        Files.writeString(mvn, "#!/bin/sh\necho 'a script of the distribution called mvn' >&2\nexit 97\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
        noMaven = Map.of("PATH", fakeBin + ":" + System.getenv("PATH"));
    }

    @AfterClass(alwaysRun = true)
    public void removeTheUnpackedCopy() throws Exception {
        if (work != null) {
            ScriptRun rm = CommandRun.run(Path.of("/"), Map.of(), 60, List.of("rm", "-rf", work.toString()));
            assertEquals(rm.status(), 0, rm.all());
        }
    }

    @Test(timeOut = 60_000)
    public void archiveHoldsScriptsLibrariesReadmeAndLicenceWithBenchmarkJarsApart() throws Exception {
        for (String script : List.of("ibis-run", "ibis-server", "ibisc", "ibis-bench", "ibis-demo")) {
            assertTrue(Files.isExecutable(home.resolve("bin").resolve(script)), "bin/" + script);
        }
        assertFalse(Files.exists(home.resolve("bin/ibis-test")), "ibis-test needs the sources and Maven");
        for (String script : List.of("ipl-run", "ipl-server", "iplc", "gmi-run", "gmi-server", "gmic", "rmi-run",
                "rmi-server")) {
            assertTrue(Files.isExecutable(home.resolve("bin").resolve(script)), "the earlier Ibis's bin/" + script);
        }
        assertTrue(Files.readString(home.resolve("README.md")).contains("# Ibis binary distribution"),
                "the distribution's own README");
        assertTrue(Files.readString(home.resolve("README-project.md")).contains("## Using Ibis from Maven"),
                "the project's README beside it");
        assertTrue(Files.readString(home.resolve("LICENSE")).contains("Apache License"));
        List<String> lib = names(home.resolve("lib"));
        for (String module : List.of("ibis-io-", "ibis-ipl-", "ibis-registry-", "ibis-launcher-", "ibis-impl-tcp-",
                "ibis-impl-ucx-", "ibis-impl-mpi-", "ibis-mpi-java-", "ibis-rmi-", "ibis-rewriter-", "ibis-examples-",
                "ibis-compat-", "ibis-run-", "slf4j-api-", "slf4j-simple-", "log4j-over-slf4j-")) {
            assertTrue(lib.stream().anyMatch(n -> n.startsWith(module)), module + " in lib/: " + lib);
        }
        Pattern benchmarkOnly = Pattern.compile("(kryo|fory|jmh|ibis-benchmarks).*");
        assertTrue(lib.stream().noneMatch(n -> benchmarkOnly.matcher(n).matches()), "benchmark jars in lib/: " + lib);
        List<String> bench = names(home.resolve("lib-bench"));
        for (String jar : List.of("ibis-benchmarks-", "kryo-", "fory-core-", "jmh-core-")) {
            assertTrue(bench.stream().anyMatch(n -> n.startsWith(jar)), jar + " in lib-bench/: " + bench);
        }
    }

    @Test(timeOut = 60_000)
    public void commandJarsNameTheirMainClass() throws Exception {
        String version = property("ibis.version");
        assertEquals(mainClass(home.resolve("lib/ibis-run-" + version + ".jar")), "ibis.run.IbisRun");
        assertEquals(mainClass(home.resolve("lib/ibis-registry-" + version + ".jar")),
                "ibis.registry.server.RegistryServerMain");
        assertEquals(mainClass(home.resolve("lib/ibis-rewriter-" + version + ".jar")), "ibis.rewriter.Ibisc");
    }

    @Test(timeOut = 180_000)
    public void poolOfTwoRunsFromTheUnpackedFolderWithoutMaven() throws Exception {
        ScriptRun run = CommandRun.run(work, noMaven, 170,
                List.of(home.resolve("bin/ibis-run").toString(), "--np", "2", "ibis.examples.Hello"));
        assertEquals(run.status(), 0, run.all());
        assertFalse(run.err().contains("called mvn"), run.all());
        assertTrue(Pattern.compile("(?m)^\\[[01]\\] Server received: Hi there$").matcher(run.out()).find(), run.all());
        assertTrue(Pattern.compile("(?m)^\\[[01]\\] Client sent: Hi there$").matcher(run.out()).find(), run.all());
    }

    @Test(timeOut = 180_000)
    public void launcherJarRunsAPoolWithJavaDashJar() throws Exception {
        ScriptRun run = CommandRun.run(work, noMaven, 170, List.of(CommandRun.java(),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-jar", home.resolve("lib/ibis-run-" + property("ibis.version") + ".jar").toString(),
                "--np", "2", "ibis.examples.Hello"));
        assertEquals(run.status(), 0, run.all());
        assertTrue(Pattern.compile("(?m)^\\[[01]\\] Server received: Hi there$").matcher(run.out()).find(), run.all());
    }

    /**
     * A program written for the earlier Ibis's utility classes and its log4j compiles against lib/ and
     * runs under ibis-run (its log4j lines go to SLF4J).
     */
    @Test(timeOut = 240_000)
    public void anEarlierPoolInfoProgramCompilesAgainstLibAndRunsUnderIbisRun() throws Exception {
        Path src = Files.createDirectories(work.resolve("earlier"));
        Files.writeString(src.resolve("Earlier.java"), String.join("\n", "import ibis.poolInfo.PoolInfo;",
                "import ibis.util.IPUtils;", "import ibis.util.Timer;", "import org.apache.log4j.Logger;",
                "public class Earlier {", "  static Logger logger = Logger.getLogger(Earlier.class.getName());",
                "  public static void main(String[] args) throws Exception {",
                "    PoolInfo pool = new PoolInfo(System.getProperties(), true);",
                "    if (logger.isDebugEnabled()) { logger.debug(\"rank \" + pool.rank()); }",
                "    logger.warn(\"earlier-style warning\");",
                "    Timer t = Timer.createTimer(\"ibis.util.nativeCode.Rdtsc\"); t.start(); t.stop();",
                "    System.out.println(\"rank \" + pool.rank() + \" of \" + pool.size() + \" at \"",
                "        + IPUtils.getLocalHostAddress().getHostAddress() + \" timer \" + t.nrTimes());",
                "  }", "}", ""));
        ScriptRun javac = CommandRun.run(src, noMaven, 120, List.of(Path.of(System.getProperty("java.home"), "bin",
                "javac").toString(), "-cp", home.resolve("lib") + "/*", "Earlier.java"));
        assertEquals(javac.status(), 0, javac.all());
        ScriptRun run = CommandRun.run(work, noMaven, 170, List.of(home.resolve("bin/ibis-run").toString(), "--np",
                "2", "-cp", src.toString(), "Earlier"));
        assertEquals(run.status(), 0, run.all());
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(Pattern.compile("(?m)^\\[" + rank + "\\] rank " + rank + " of 2 at \\S+ timer 1$")
                    .matcher(run.out()).find(), run.all());
        }
        assertTrue(run.all().contains("earlier-style warning"), "the log4j line reached the log: " + run.all());
    }

    /**
     * The way IPL 2.x users started a pool, with its script names: {@code ipl-server} (with 2.x's
     * options), then each member by hand with {@code ipl-run} and the pool properties.
     */
    @Test(timeOut = 180_000)
    public void aPoolStartsTheIpl2WayWithIplServerAndIplRun() throws Exception {
        ProcessBuilder serverCommand = new ProcessBuilder(home.resolve("bin/ipl-server").toString(), "--events",
                "--no-hub", "--port", "0").redirectErrorStream(true);
        serverCommand.environment().putAll(noMaven);
        Process server = serverCommand.start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(
                server.getInputStream(), StandardCharsets.UTF_8))) {
            String line = out.readLine();
            Matcher port = Pattern.compile("listening on .*:(\\d+)$").matcher(String.valueOf(line));
            assertTrue(port.find(), "the server's first line: " + line);
            List<String> member = List.of(home.resolve("bin/ipl-run").toString(),
                    "-Dibis.server.address=127.0.0.1:" + port.group(1), "-Dibis.pool.name=ipl2-way",
                    "-Dibis.pool.size=2", "ibis.examples.Hello");
            CompletableFuture<ScriptRun> first = CompletableFuture
                    .supplyAsync(() -> {
                        try {
                            return CommandRun.run(work, noMaven, 170, member);
                        } catch (Exception e) {
                            throw new CompletionException(e);
                        }
                    });
            ScriptRun second = CommandRun.run(work, noMaven, 170, member);
            ScriptRun one = first.get();
            assertEquals(one.status(), 0, one.all());
            assertEquals(second.status(), 0, second.all());
            String both = one.out() + second.out();
            assertTrue(both.contains("Server received: Hi there"), one.all() + second.all());
            assertTrue(both.contains("Client sent: Hi there"), one.all() + second.all());
        } finally {
            server.destroyForcibly();
            server.waitFor();
        }
    }

    private static String mainClass(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.getManifest().getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
        }
    }

    private static List<String> names(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    static String property(String name) {
        String v = System.getProperty(name);
        assertTrue(v != null && !v.isEmpty(), "system property " + name + " (set by the dist pom)");
        return v;
    }
}
