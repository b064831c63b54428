package ibis.dist;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * A network implementation's own Maven build runs the IPL conformance suite: the project
 * {@code dist/src/test/plugin} (its own group, the BOM, {@code ibis-impl-tcp} standing in for the
 * implementation, {@code ibis-ipl-tck} at test scope, Surefire's {@code dependenciesToScan}) is built
 * with {@code mvn verify} against the deployed artifacts only ({@link OutsideBuild}); every test
 * class of the suite must have run there, and passed.
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
                List.of("ibis-bom", "ibis-ipl-tck", "ibis-test-support", "ibis-impl-tcp", "ibis-ipl", "ibis-registry"));
    }

    @Test(timeOut = 60_000)
    public void everyTestClassOfTheSuiteRanAndPassed() throws Exception {
        String results = Files.readString(project.folder().resolve("target/surefire-reports/testng-results.xml"));
        Matcher totals = Pattern.compile("<testng-results[^>]*?total=\"(\\d+)\" passed=\"(\\d+)\" failed=\"(\\d+)\""
                + " skipped=\"(\\d+)\"").matcher(results);
        assertTrue(totals.find(), results.substring(0, Math.min(500, results.length())));
        int total = Integer.parseInt(totals.group(1));
        assertTrue(total > 0, "no test ran:\n" + project.output());
        assertEquals(Integer.parseInt(totals.group(2)), total, "every test passed:\n" + project.output());
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

        // The same suite as impl-tcp's own build ran against the same implementation (when that ran).
        Path ownRun = ScriptRun.repositoryRoot().resolve("impl-tcp/target/surefire-reports/testng-results.xml");
        int own = Files.isRegularFile(ownRun) ? countSuiteMethods(Files.readString(ownRun)) : 0;
        if (own > 0) {
            assertEquals(countSuiteMethods(results), own, "the plug-in ran as many suite tests as impl-tcp's build");
        }
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
