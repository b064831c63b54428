package ibis.run;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;

import org.testng.annotations.Test;

/** The command line of ibis-run is parsed as its usage says. */
public class LaunchOptionsTest {

    private static LaunchOptions parse(String... args) throws UsageException {
        return LaunchOptions.parse(List.of(args));
    }

    @Test
    public void allOptionsAreReadBeforeTheMainClass() throws UsageException {
        LaunchOptions o = parse("--np", "4", "--pool", "p1", "--server", "host:9000", "--impl", "tcp",
                "-cp", "app.jar", "-Dfoo=bar", "--jvm-arg", "-Xmx2g", "my.Main", "a", "b");
        assertEquals(o.action(), LaunchOptions.Action.RUN);
        assertEquals(o.processCount(), Integer.valueOf(4));
        assertEquals(o.poolName(), "p1");
        assertEquals(o.serverAddress(), "host:9000");
        assertEquals(o.implementation(), "tcp");
        assertEquals(o.classPath(), "app.jar");
        assertEquals(o.systemProperties(), Map.of("foo", "bar"));
        assertEquals(o.jvmArguments(), List.of("-Xmx2g"));
        assertEquals(o.mainClass(), "my.Main");
        assertEquals(o.programArguments(), List.of("a", "b"));
    }

    @Test
    public void argumentsAfterTheMainClassBelongToTheProgramEvenWhenTheyLookLikeOptions()
            throws UsageException {
        LaunchOptions o = parse("my.Main", "--np", "3", "-Dx=y", "--help");
        assertEquals(o.action(), LaunchOptions.Action.RUN);
        assertNull(o.processCount());
        assertTrue(o.systemProperties().isEmpty());
        assertEquals(o.programArguments(), List.of("--np", "3", "-Dx=y", "--help"));
    }

    @Test
    public void equalsFormOfLongOptionsIsAccepted() throws UsageException {
        LaunchOptions o = parse("--np=2", "--pool=p", "--server=h:1", "--impl=tcp", "--class-path=x.jar",
                "my.Main");
        assertEquals(o.processCount(), Integer.valueOf(2));
        assertEquals(o.poolName(), "p");
        assertEquals(o.serverAddress(), "h:1");
        assertEquals(o.implementation(), "tcp");
        assertEquals(o.classPath(), "x.jar");
    }

    @Test
    public void doubleDashEndsTheOptions() throws UsageException {
        LaunchOptions o = parse("--np", "2", "--", "-weird.Main", "arg");
        assertEquals(o.mainClass(), "-weird.Main");
        assertEquals(o.programArguments(), List.of("arg"));
    }

    @Test
    public void poolServerAndImplementationPropertiesAreTheSameAsTheirOptions() throws UsageException {
        LaunchOptions o = parse("-Dibis.pool.name=q", "-Dibis.server.address=s:1",
                "-Dibis.implementation=tcp", "M");
        assertEquals(o.poolName(), "q");
        assertEquals(o.serverAddress(), "s:1");
        assertEquals(o.implementation(), "tcp");
        assertTrue(o.systemProperties().isEmpty());
    }

    @Test
    public void propertyWithoutValueIsEmptyAndValueMayContainEquals() throws UsageException {
        LaunchOptions o = parse("-Dflag", "-Dexpr=a=b", "M");
        assertEquals(o.systemProperties(), Map.of("flag", "", "expr", "a=b"));
    }

    @Test
    public void severalClassPathsAreJoined() throws UsageException {
        LaunchOptions o = parse("-cp", "a.jar", "-classpath", "b.jar", "M");
        assertEquals(o.classPath(), "a.jar" + File.pathSeparator + "b.jar");
    }

    @Test
    public void helpNeedsNoMainClassAndWinsOverHelpProperties() throws UsageException {
        assertEquals(parse("--help").action(), LaunchOptions.Action.HELP);
        assertEquals(parse("--help-properties").action(), LaunchOptions.Action.HELP_PROPERTIES);
        assertEquals(parse("--help-properties", "--help").action(), LaunchOptions.Action.HELP);
        assertEquals(parse("-h").action(), LaunchOptions.Action.HELP);
    }

    @Test
    public void missingMainClassIsAUsageError() {
        UsageException e = expectThrows(UsageException.class, () -> parse("--np", "2"));
        assertTrue(e.getMessage().contains("main class"), e.getMessage());
    }

    @Test
    public void unknownOptionIsAUsageErrorNamingIt() {
        UsageException e = expectThrows(UsageException.class, () -> parse("--nope", "M"));
        assertTrue(e.getMessage().contains("--nope"), e.getMessage());
    }

    @Test
    public void optionWithoutItsValueIsAUsageError() {
        UsageException e = expectThrows(UsageException.class, () -> parse("--pool"));
        assertTrue(e.getMessage().contains("--pool"), e.getMessage());
        assertTrue(expectThrows(UsageException.class, () -> parse("-cp")).getMessage().contains("-cp"));
    }

    @Test
    public void processCountMustBeAPositiveNumber() {
        assertTrue(expectThrows(UsageException.class, () -> parse("--np", "x", "M"))
                .getMessage().contains("whole number"));
        assertTrue(expectThrows(UsageException.class, () -> parse("--np", "0", "M"))
                .getMessage().contains("at least 1"));
        expectThrows(UsageException.class, () -> parse("--np", "-3", "M"));
    }

    @Test
    public void emptyPoolNameIsRejected() {
        expectThrows(UsageException.class, () -> parse("--pool", "", "M"));
        expectThrows(UsageException.class, () -> parse("-Dibis.pool.name=", "M"));
    }

    @Test
    public void poolSizeContradictingNpIsRejectedButAMatchingOneIsFine() throws UsageException {
        expectThrows(UsageException.class, () -> parse("--np", "3", "-Dibis.pool.size=4", "M"));
        assertEquals(parse("--np", "3", "-Dibis.pool.size=3", "M").processCount(), Integer.valueOf(3));
    }

    @Test
    public void memberIndexCannotBeSetByHandInALocalPool() {
        expectThrows(UsageException.class, () -> parse("--np", "3", "-Dibis.pool.member=1", "M"));
    }

    @Test
    public void helpOptionTakesNoValue() {
        expectThrows(UsageException.class, () -> parse("--help=yes"));
    }

    /**
     * Options of the java command go to the members' JVMs as they are, with the value of those that
     * take one, as IPL 2.x's launcher passed them on: {@code ibis-run -Xmx1g -ea my.Main}.
     */
    @Test
    public void optionsOfTheJavaCommandGoToTheMembersJvms() throws UsageException {
        LaunchOptions o = parse("--np", "2", "-Xmx1g", "-XX:+UseSerialGC", "-ea", "-da:x.y...", "-verbose:gc",
                "-javaagent:agent.jar=opt", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "-server", "-Dfoo=bar", "my.Main", "-Xss1m");
        assertEquals(o.jvmArguments(), List.of("-Xmx1g", "-XX:+UseSerialGC", "-ea", "-da:x.y...", "-verbose:gc",
                "-javaagent:agent.jar=opt", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "-server"));
        assertEquals(o.systemProperties(), Map.of("foo", "bar"));
        assertEquals(o.mainClass(), "my.Main");
        assertEquals(o.programArguments(), List.of("-Xss1m"), "after the main class: the program's");
    }

    @Test
    public void anOptionThatNeitherTheLauncherNorJavaKnowsIsAUsageError() {
        UsageException e = expectThrows(UsageException.class, () -> parse("--frobnicate", "my.Main"));
        assertTrue(e.getMessage().contains("unknown option --frobnicate"), e.getMessage());
    }

    /** {@code -jar app.jar args}: the manifest's Main-Class, the jar first on the program's class path. */
    @Test
    public void jarRunsTheMainClassOfItsManifest() throws Exception {
        Path dir = Files.createTempDirectory("launch-jar");
        Path jar = dir.resolve("app.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "app.Main");
        try (JarOutputStream out = new JarOutputStream(
                Files.newOutputStream(jar), manifest)) {
            out.putNextEntry(new ZipEntry("app/"));
            out.closeEntry();
        }
        Path noMain = dir.resolve("lib.jar");
        try (JarOutputStream out = new JarOutputStream(
                Files.newOutputStream(noMain))) {
            out.putNextEntry(new ZipEntry("lib/"));
            out.closeEntry();
        }
        try {
            LaunchOptions o = parse("--np", "2", "-cp", "extra.jar", "-jar", jar.toString(), "--np", "x");
            assertEquals(o.mainClass(), "app.Main");
            assertEquals(o.classPath(), jar + File.pathSeparator + "extra.jar");
            assertEquals(o.programArguments(), List.of("--np", "x"));
            UsageException e = expectThrows(UsageException.class, () -> parse("-jar", noMain.toString()));
            assertTrue(e.getMessage().contains("no Main-Class"), e.getMessage());
            UsageException missing = expectThrows(UsageException.class, () -> parse("-jar", dir.resolve("none.jar")
                    .toString()));
            assertTrue(missing.getMessage().contains("cannot read the jar"), missing.getMessage());
        } finally {
            Files.delete(jar);
            Files.delete(noMain);
            Files.delete(dir);
        }
    }
}
