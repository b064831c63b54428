package ibis.run;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/** The launcher's entry point: help, usage errors, and a local pool with an embedded registry. */
public class IbisRunTest {

    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();

    /** TestNG runs all methods on one instance: every test starts with empty output. */
    @BeforeMethod
    public void forgetEarlierOutput() {
        outBytes.reset();
        errBytes.reset();
    }

    private int run(Map<String, String> env, String... args) {
        try (PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
                PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8)) {
            return IbisRun.run(args, env, out, err);
        }
    }

    private String out() {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    public void helpPrintsTheUsageAndSucceeds() {
        assertEquals(run(Map.of(), "--help"), 0);
        assertTrue(out().startsWith("Usage: ibis-run"), out());
        assertTrue(out().contains("--np N"), out());
    }

    @Test
    public void usageErrorExitsWithTwoAndSaysWhatIsWrong() {
        assertEquals(run(Map.of(), "--np", "two", "M"), 2);
        assertTrue(err().contains("--np needs a whole number"), err());
        assertTrue(err().contains("ibis-run --help"), err());
        assertTrue(out().isEmpty(), out());
    }

    @Test
    public void anUnknownOptionGetsAHintAboutJvmOptions() {
        assertEquals(run(Map.of(), "-no-such-option", "M"), 2);
        assertTrue(err().contains("unknown option -no-such-option"), err());
        assertTrue(err().contains("--jvm-arg"), err());
    }

    @Test
    public void missingServerUnderAClusterLauncherIsAUsageError() {
        assertEquals(run(Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "2"), "M"), 2);
        assertTrue(err().contains("Open MPI"), err());
    }

    @Test
    public void helpPropertiesAlsoListsTablesOfPluginsGivenWithClassPath() throws Exception {
        Path plugin = Files.createTempDirectory("ibis-plugin");
        try {
            Path services = Files.createDirectories(plugin.resolve("META-INF/services"));
            Files.writeString(services.resolve("ibis.io.config.PropertyTable"),
                    PluginPropertyTable.class.getName() + "\n");
            assertEquals(run(Map.of(), "--help-properties"), 0);
            assertFalse(out().contains("ibis.plugin.test.knob"), "registered nowhere yet\n" + out());
            outBytes.reset();
            assertEquals(run(Map.of(), "--help-properties", "-cp", plugin.toString()), 0);
            assertTrue(out().contains("[plugin-under-test]"), out());
            assertTrue(out().contains("ibis.plugin.test.knob    default: 7"), out());
        } finally {
            Files.deleteIfExists(plugin.resolve("META-INF/services/ibis.io.config.PropertyTable"));
            Files.deleteIfExists(plugin.resolve("META-INF/services"));
            Files.deleteIfExists(plugin.resolve("META-INF"));
            Files.deleteIfExists(plugin);
        }
    }

    /** A property table compiled by the test into a jar that is on no class path. */
    private static final String JAR_TABLE_SOURCE = "package plugintable;\n"
            + "import ibis.io.config.Property;\n"
            + "import ibis.io.config.PropertyTable;\n"
            + "import java.util.List;\n"
            + "public final class JarPropertyTable implements PropertyTable {\n"
            + "    public String subsystem() { return \"jar-plugin\"; }\n"
            + "    public List<Property<?>> properties() {\n"
            + "        return List.of(Property.ofText(\"ibis.jarplugin.knob\", \"42\", \"a knob of the jar plug-in\"));"
            + " }\n"
            + "}\n";

    @Test(timeOut = 60_000)
    public void helpPropertiesAlsoListsTablesOfPluginJarsInTheImplementationPath() throws Exception {
        Path root = Files.createTempDirectory("ibis-implementation-path");
        try {
            Path pluginDir = Files.createDirectories(root.resolve("plugins"));
            buildTableJar(root, pluginDir.resolve("jar-plugin.jar"));
            assertEquals(run(Map.of(), "--help-properties"), 0);
            assertFalse(out().contains("ibis.jarplugin.knob"), "the jar is on no class path\n" + out());
            outBytes.reset();
            assertEquals(run(Map.of(), "--help-properties", "-Dibis.implementation.path=" + pluginDir), 0, err());
            assertTrue(out().contains("Including the plug-in jars of ibis.implementation.path=" + pluginDir), out());
            assertTrue(out().contains("[jar-plugin]"), out());
            assertTrue(out().contains("ibis.jarplugin.knob    default: 42"), out());
            assertTrue(out().contains("[registry]"), "the class path's tables stay: " + out());
        } finally {
            try (java.util.stream.Stream<Path> paths = Files.walk(root)) {
                paths.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(java.io.File::delete);
            }
        }
    }

    /** Compiles {@link #JAR_TABLE_SOURCE} and packs it with its services entry into {@code jar}. */
    private static void buildTableJar(Path root, Path jar) throws Exception {
        javax.tools.JavaCompiler compiler = javax.tools.ToolProvider.getSystemJavaCompiler();
        assertTrue(compiler != null, "a JDK (with its compiler) runs the tests");
        Path src = root.resolve("src/plugintable/JarPropertyTable.java");
        Path classes = Files.createDirectories(root.resolve("classes"));
        Files.createDirectories(src.getParent());
        Files.writeString(src, JAR_TABLE_SOURCE);
        int rc = compiler.run(null, null, null, "-proc:none", "-classpath", System.getProperty("java.class.path"),
                "-d", classes.toString(), src.toString());
        assertEquals(rc, 0, "compiling the plug-in table failed");
        try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new java.util.jar.JarEntry("plugintable/JarPropertyTable.class"));
            out.write(Files.readAllBytes(classes.resolve("plugintable/JarPropertyTable.class")));
            out.closeEntry();
            out.putNextEntry(new java.util.jar.JarEntry("META-INF/services/ibis.io.config.PropertyTable"));
            out.write("plugintable.JarPropertyTable\n".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
    }

    @Test(timeOut = 60_000)
    public void localPoolGetsAnEmbeddedLoopbackRegistryAddressAndTaggedOutput() {
        int status = run(Map.of(), "--np", "2", "--pool", "tagged", ScriptedMember.class.getName(), "-1", "0");
        assertEquals(status, 0, err());
        assertTrue(out().contains("[0] member 0 of 2 pid="), out());
        assertTrue(out().contains("[1] member 1 of 2 pid="), out());
    }

    @Test(timeOut = 60_000)
    public void failingMemberStatusBecomesTheLaunchersStatus() {
        assertEquals(run(Map.of(), "--np", "2", ScriptedMember.class.getName(), "0", "9", "block"), 9);
        assertTrue(err().contains("member 0 (pid"), err());
    }

    @Test(timeOut = 60_000)
    public void aMissingMpirunIsAFailureThatSaysWhatToInstall() {
        String old = System.getProperty(LauncherProperties.MPIRUN);
        System.setProperty(LauncherProperties.MPIRUN, "/nonexistent/mpirun");
        try {
            assertEquals(run(Map.of(), "--np", "2", "--impl", "mpi", ScriptedMember.class.getName(), "-1", "0"), 1);
            assertTrue(err().contains("cannot start /nonexistent/mpirun for --impl mpi"), err());
            assertTrue(err().contains("scripts/setup"), err());
        } finally {
            if (old == null) {
                System.clearProperty(LauncherProperties.MPIRUN);
            } else {
                System.setProperty(LauncherProperties.MPIRUN, old);
            }
        }
    }
}
