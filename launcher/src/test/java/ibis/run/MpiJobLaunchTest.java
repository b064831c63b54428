package ibis.run;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.testng.SkipException;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/**
 * {@code ibis-run --np N --impl mpi} starts the members through Open MPI's real {@code mpirun}
 * ({@code mpirun.openmpi}, loopback only): each member knows its rank, every line arrives whole with
 * the rank in front, and a failing rank's status is the launcher's. Skipped, saying so, on a machine
 * without Open MPI ({@code scripts/setup} installs it).
 */
public class MpiJobLaunchTest {

    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();

    @BeforeClass
    public void needsOpenMpi() {
        if (IbisRun.mpirunCommand(System.getenv()).equals("mpirun")) {
            throw new SkipException("mpirun.openmpi is not on the PATH: install Open MPI (scripts/setup)");
        }
    }

    /** TestNG runs all methods on one instance: every test starts with empty output. */
    @BeforeMethod
    public void forgetEarlierOutput() {
        outBytes.reset();
        errBytes.reset();
    }

    private int run(String... args) {
        Map<String, String> env = new HashMap<>(System.getenv());
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

    private static String testClassPath() {
        return System.getProperty("java.class.path");
    }

    @Test(timeOut = 90_000)
    public void everyRankRunsOnceKnowsItsRankAndItsLinesArriveWholeWithTheRankInFront() {
        int status = run("--np", "2", "--impl", "mpi", "-cp", testClassPath(), ChattyMember.class.getName(),
                "400", "1500");
        assertEquals(status, 0, err());
        int[] count = new int[2];
        for (String line : out().split("\n")) {
            assertTrue(line.matches("\\[([01])\\] \\1 \\d+ x{1500} end"), "cut or mixed line: " + line);
            count[line.charAt(1) - '0']++;
        }
        assertEquals(count[0], 400, "lines of rank 0");
        assertEquals(count[1], 400, "lines of rank 1");
    }

    @Test(timeOut = 90_000)
    public void aFailingRanksStatusIsTheLaunchersAndTheOtherRankIsStopped() {
        int status = run("--np", "2", "--impl", "mpi", "-cp", testClassPath(), ScriptedMember.class.getName(),
                "1", "7", "block");
        assertEquals(status, 7, err());
        assertTrue(out().contains("[1] member 1 of 2 pid="), out());
        assertTrue(out().contains("[0] member 0 of 2 pid="), out());
        assertTrue(err().contains("[0] stderr of 0 UCX_ERROR_SIGNALS=[]"), err());
        assertTrue(err().contains("ibis-run: mpirun (pid"), err());
    }

    @Test(timeOut = 90_000)
    public void theSameCommandRunByHandUnderMpirunStartsOneMemberPerRankWithoutAServer() throws Exception {
        List<String> command = List.of(IbisRun.mpirunCommand(System.getenv()), "--oversubscribe", "-np", "2",
                "--bind-to", "none", "--mca", "btl_tcp_if_include", "lo", "--mca", "oob_tcp_if_include", "lo",
                IbisRun.javaCommand(), "-cp", testClassPath(), IbisRun.class.getName(), "--impl", "mpi",
                ScriptedMember.class.getName(), "-1", "0");
        Path output = Files.createTempFile("ibis-run-under-mpirun", ".out");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).redirectInput(new File("/dev/null"));
            if (IbisRun.runsAsRoot()) {
                builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
                builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
            }
            Process job = builder.start();
            boolean done = job.waitFor(60, TimeUnit.SECONDS);
            if (!done) {
                job.descendants().forEach(ProcessHandle::destroyForcibly);
                job.destroyForcibly();
            }
            String text = read(output);
            assertTrue(done, "mpirun did not finish within 60 s:\n" + text);
            assertEquals(job.exitValue(), 0, text);
            assertTrue(text.contains("member 0 of 2 pid="), text);
            assertTrue(text.contains("member 1 of 2 pid="), text);
            assertTrue(!text.contains("--server"), "no server asked for:\n" + text);
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
