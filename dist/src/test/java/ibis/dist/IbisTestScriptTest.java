package ibis.dist;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * {@code bin/ibis-test} chooses its JDKs from what the machine has: every JDK of its list that exists
 * (with javac, version 17 or newer) gets a pass after the default JDK's, the others are named as
 * skipped. Shown with {@code IBIS_TEST_DRY_RUN=1}, which prints the plan and runs no Maven, and with
 * stand-in JDK folders whose {@code java} reports a chosen version.
 */
public class IbisTestScriptTest {

    private Path work;
    private Path jdk21;
    private Path jdk11;
    private Path missing;

    @BeforeClass
    public void standInJdks() throws Exception {
        work = Files.createTempDirectory("ibis-test-script");
        jdk21 = standInJdk("jdk-21", "21");
        jdk11 = standInJdk("jdk-11", "11");
        missing = work.resolve("no-such-jdk");
    }

    @AfterClass(alwaysRun = true)
    public void remove() throws Exception {
        if (work != null) {
            ScriptRun rm = CommandRun.run(Path.of("/"), Map.of(), 60, List.of("rm", "-rf", work.toString()));
            assertEquals(rm.status(), 0, rm.all());
        }
    }

    @Test(timeOut = 60_000)
    public void existingJdksAreTestedAndMissingOrTooOldOnesAreNamedAsSkipped() throws Exception {
        // (CI runs with IBIS_TEST_REQUIRE_JDKS=1 in the environment; skipping is the default.)
        ScriptRun run = ScriptRun.start(Map.of("IBIS_TEST_DRY_RUN", "1", "IBIS_TEST_REQUIRE_JDKS", "0",
                "IBIS_TEST_JDKS", missing + " " + jdk21 + " " + jdk11), "ibis-test", "-o").finish(50);
        assertEquals(run.status(), 0, run.all());
        assertTrue(run.out().contains("default JDK " + Path.of(System.getProperty("java.home")).toRealPath()
                + ": mvn -B --no-transfer-progress verify -o"), run.all());
        assertTrue(run.out().contains("JDK " + jdk21 + ": mvn -B --no-transfer-progress clean verify -o"), run.all());
        assertFalse(run.out().contains("JDK " + jdk11 + ":"), run.all());
        assertTrue(run.err().contains("skipping JDK " + missing + " (no bin/javac there)"), run.all());
        assertTrue(run.err().contains("skipping JDK " + jdk11 + " (java 11; Ibis needs 17 or newer)"), run.all());
    }

    @Test(timeOut = 60_000)
    public void theDefaultJdkInTheListIsTestedOnce() throws Exception {
        String javaHome = System.getProperty("java.home");
        ScriptRun run = ScriptRun.start(Map.of("IBIS_TEST_DRY_RUN", "1", "IBIS_TEST_REQUIRE_JDKS", "0",
                "IBIS_TEST_JDKS", javaHome), "ibis-test").finish(50);
        assertEquals(run.status(), 0, run.all());
        assertFalse(run.out().contains("clean verify"), run.all());
        assertTrue(run.err().contains("(the default JDK, tested first anyway)"), run.all());
    }

    @Test(timeOut = 60_000)
    public void aMissingJdkFailsWhenEveryJdkIsRequired() throws Exception {
        ScriptRun run = ScriptRun.start(Map.of("IBIS_TEST_DRY_RUN", "1", "IBIS_TEST_REQUIRE_JDKS", "1",
                "IBIS_TEST_JDKS", jdk21 + " " + missing), "ibis-test").finish(50);
        assertEquals(run.status(), 1, run.all());
        assertTrue(run.err().contains("IBIS_TEST_REQUIRE_JDKS=1 and JDK " + missing), run.all());
    }

    /** A folder with bin/java (reporting {@code version}) and bin/javac, as a JDK's home. */
    private Path standInJdk(String name, String version) throws Exception {
        Path bin = Files.createDirectories(work.resolve(name).resolve("bin"));
        Files.writeString(bin.resolve("java"),
                "#!/bin/sh\necho '    java.specification.version = " + version + "' >&2\n");
        Files.writeString(bin.resolve("javac"), "#!/bin/sh\nexit 0\n");
        for (String tool : List.of("java", "javac")) {
            Files.setPosixFilePermissions(bin.resolve(tool), PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return work.resolve(name);
    }
}
