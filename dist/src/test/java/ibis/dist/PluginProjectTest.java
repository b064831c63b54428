package ibis.dist;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * A network implementation written outside this repository passes the IPL conformance suite: the
 * project {@code dist/src/test/plugin} (its own group, the BOM, its own starter, transport and
 * property table under the nickname {@code loop}, {@code ibis-ipl-tck} at test scope, Surefire's
 * {@code dependenciesToScan}) is built with {@code mvn verify} against the deployed artifacts only
 * ({@link OutsideBuild}); every test class of the suite must have run there, and passed. Its jar,
 * dropped in a plug-in directory, passes the suite run from the command line too.
 */
public class PluginProjectTest {

    private OutsideBuild outside;
    private OutsideBuild.Project project;

    @BeforeClass(timeOut = 600_000)
    public void deployAndBuildThePlugin() throws Exception {
        outside = OutsideBuild.deployed();
        project = outside.build("plugin", "verify");
    }

    @AfterClass(alwaysRun = true)
    public void removeTheLocalRepositoryCopies() throws Exception {
        if (outside != null) {
            outside.cleanUp(project);
        }
    }

    @Test(timeOut = 60_000)
    public void thePluginGetsTheSuiteAndTheImplementationFromTheDeployedRepositoryOnly() throws Exception {
        outside.assertIbisArtifactsCameFromTheDeployedRepositoryOnly(project,
                List.of("ibis-bom", "ibis-ipl-tck", "ibis-test-support", "ibis-ipl", "ibis-io", "ibis-registry"));
    }

    @Test(timeOut = 60_000)
    public void everyTestClassOfTheSuiteRanAndPassed() throws Exception {
        String results = Files.readString(project.folder().resolve("target/surefire-reports/testng-results.xml"));
        assertEverySuiteClassRanAndPassed(results, project.output());

        // The whole suite ran: as many tests as in impl-tcp's own build (when that ran).
        Path ownRun = ScriptRun.repositoryRoot().resolve("impl-tcp/target/surefire-reports/testng-results.xml");
        int own = Files.isRegularFile(ownRun) ? countSuiteMethods(Files.readString(ownRun)) : 0;
        if (own > 0) {
            assertEquals(countSuiteMethods(results), own, "the plug-in ran as many suite tests as impl-tcp's build");
        }
    }

    /**
     * The suite runs from the command line (TestNG over the suite's jar, as network-implementation.md
     * shows) against the implementation's jar installed as a plug-in: in a directory named by
     * {@code ibis.implementation.path}, not on the class path. The suite must find it there, in its
     * own JVM and in the child JVMs of the multi-process tests.
     */
    @Test(timeOut = 600_000)
    public void theSuiteRunsFromTheCommandLineAgainstAJarInAPlugInDirectory() throws Exception {
        Path folder = project.folder();
        Path lib = folder.resolve("target/tck-lib");
        Path plugins = Files.createDirectories(folder.resolve("target/plugins"));
        Path built = jar(folder.resolve("target"), "example-ibis-transport-");
        assertTrue(built != null, "the plug-in's jar: " + list(folder.resolve("target")));
        Files.copy(built, plugins.resolve(built.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        assertNull(jar(lib, "example-ibis-transport-"), "the implementation is not on the suite's class path: "
                + list(lib));
        Path suite = jar(lib, "ibis-ipl-tck-");
        assertTrue(suite != null, "the suite's jar: " + list(lib));
        Path report = folder.resolve("target/tck-cli");
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", lib + "/*",
                "-Dibis.implementation=loop", "-Dibis.implementation.path=" + plugins,
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "org.testng.TestNG", "-d", report.toString(),
                "-testjar", suite.toString());
        ScriptRun run = CommandRun.run(folder, Map.of(), 540, command);
        String results = Files.isRegularFile(report.resolve("testng-results.xml"))
                ? Files.readString(report.resolve("testng-results.xml")) : "";
        assertEquals(run.status(), 0, String.join(" ", command) + " failed:\n" + run.all() + "\n" + failures(results));
        assertEverySuiteClassRanAndPassed(results, run.all());
    }

    /** The jar of {@code folder} whose name starts with {@code prefix} (its version may be a snapshot's). */
    private static Path jar(Path folder, String prefix) throws Exception {
        for (String name : OutsideBuild.list(folder)) {
            if (name.startsWith(prefix) && name.endsWith(".jar")) {
                return folder.resolve(name);
            }
        }
        return null;
    }

    private static String list(Path folder) throws Exception {
        return String.valueOf(OutsideBuild.list(folder));
    }

    /** The first failure messages of a TestNG results file (for the assertion message). */
    private static String failures(String results) {
        Matcher m = Pattern.compile("(?s)<message>\\s*<!\\[CDATA\\[(.*?)\\]\\]>").matcher(results);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 3 && m.find(); i++) {
            b.append(m.group(1)).append('\n');
        }
        return b.toString();
    }

    /** Every test of the results passed, and every test class of the suite ran. */
    private static void assertEverySuiteClassRanAndPassed(String results, String output) throws Exception {
        Matcher totals = Pattern.compile("<testng-results[^>]*?total=\"(\\d+)\" passed=\"(\\d+)\" failed=\"(\\d+)\""
                + " skipped=\"(\\d+)\"").matcher(results);
        assertTrue(totals.find(), results.substring(0, Math.min(500, results.length())));
        int total = Integer.parseInt(totals.group(1));
        assertTrue(total > 0, "no test ran:\n" + output);
        assertEquals(Integer.parseInt(totals.group(2)), total, "every test passed:\n" + output);
        assertEquals(Integer.parseInt(totals.group(3)), 0);
        assertEquals(Integer.parseInt(totals.group(4)), 0);

        Set<String> ran = new TreeSet<>();
        Matcher classes = Pattern.compile("<class name=\"([^\"]+)\"").matcher(results);
        while (classes.find()) {
            ran.add(classes.group(1));
        }
        Set<String> suite = suiteClasses();
        assertTrue(!suite.isEmpty(), "the suite's classes were not found");
        assertTrue(ran.containsAll(suite), "not run: " + minus(suite, ran));
    }

    /** The test classes (those with TestNG test methods) in the suite's jar as this reactor built it. */
    private static Set<String> suiteClasses() throws Exception {
        Path classes = ScriptRun.repositoryRoot().resolve("ipl-tck/target/classes");
        Set<String> names = new TreeSet<>();
        try (Stream<Path> all = Files.walk(classes)) {
            for (Path p : (Iterable<Path>) all.filter(f -> f.toString().endsWith(".class"))::iterator) {
                String bytes = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
                if (bytes.contains("Lorg/testng/annotations/Test;")) {
                    String n = classes.relativize(p).toString();
                    names.add(n.substring(0, n.length() - ".class".length()).replace('/', '.'));
                }
            }
        }
        return names;
    }

    /** The test methods (not configuration methods) of the suite's package in a TestNG results file. */
    private static int countSuiteMethods(String results) {
        int n = 0;
        Matcher classes = Pattern.compile("(?s)<class name=\"ibis\\.ipl\\.tck\\.[^\"]+\">(.*?)</class>")
                .matcher(results);
        while (classes.find()) {
            Matcher methods = Pattern.compile("<test-method (?![^>]*is-config=\"true\")").matcher(classes.group(1));
            while (methods.find()) {
                n++;
            }
        }
        return n;
    }

    private static List<String> minus(Set<String> a, Set<String> b) {
        List<String> rest = new ArrayList<>(a);
        rest.removeAll(b);
        return rest;
    }
}
