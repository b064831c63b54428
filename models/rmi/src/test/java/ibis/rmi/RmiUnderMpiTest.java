package ibis.rmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import ibis.rmi.testing.RmiMpiRank;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.testng.SkipException;
import org.testng.annotations.Test;

/**
 * Ibis RMI over {@code mpi}: the ranks of one Open MPI job ({@link RmiMpiRank}), over shared memory
 * and over the tcp btl on lo, with the registry over MPI (no registry server). MPI ranks cannot be
 * started one by one as the other multi-process tests start their child JVMs, so the whole scenario
 * runs as one job of 4 ranks: a server, a rank that checks the RMI semantics, and two that call with
 * several threads each. Without Open MPI's {@code mpirun} the test is skipped, unless
 * {@code -Dibis.mpi.require=true} (CI), which makes that a failure.
 */
public class RmiUnderMpiTest {

    private static final String MPIRUN = "mpirun.openmpi";
    private static final long TIMEOUT_SECONDS = 180;

    private static String job(String btl, String... more) throws Exception {
        if (!onPath(MPIRUN)) {
            String why = MPIRUN + " is not installed (scripts/setup installs Open MPI)";
            if (Boolean.getBoolean("ibis.mpi.require")) {
                fail(why + ", and -Dibis.mpi.require=true");
            }
            throw new SkipException(why);
        }
        List<String> command = new ArrayList<>(List.of(MPIRUN, "--oversubscribe", "-np", "4", "--bind-to", "none",
                "--mca", "pml", "ob1", "--mca", "btl", btl, "--mca", "oob_tcp_if_include", "lo"));
        command.addAll(List.of(more));
        command.addAll(List.of(ProcessHandle.current().info().command().orElse("java"), "-Xmx256m",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED",
                "-Dibis.implementation=mpi", "-Dibis.rmi.connect.timeout=20000",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", System.getProperty("java.class.path"), RmiMpiRank.class.getName()));
        Path output = Files.createTempFile("rmi-mpi", ".out");
        try {
            ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                    .redirectInput(new File("/dev/null"));
            if ("root".equals(System.getProperty("user.name"))) {
                b.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
                b.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
            }
            Process p = b.start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                fail("the job did not end within " + TIMEOUT_SECONDS + " s: " + String.join(" ", command) + "\n"
                        + Files.readString(output, StandardCharsets.UTF_8));
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            assertEquals(p.exitValue(), 0, "exit code of " + String.join(" ", command) + "\n" + text);
            return text;
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    private static void assertScenario(String text) {
        assertTrue(text.contains("RANK 1: OK semantics"), text);
        int calls = RmiMpiRank.THREADS * RmiMpiRank.CALLS;
        assertTrue(text.contains("RANK 2: OK calls=" + calls), text);
        assertTrue(text.contains("RANK 3: OK calls=" + calls), text);
        assertTrue(text.contains("RMI over mpi: 4 ranks OK"), text);
    }

    @Test(timeOut = 200_000)
    public void rmiBetweenRanksOverSharedMemory() throws Exception {
        assertScenario(job("self,vader"));
    }

    @Test(timeOut = 200_000)
    public void rmiBetweenRanksOverTcpOnLoopback() throws Exception {
        assertScenario(job("self,tcp", "--mca", "btl_tcp_if_include", "lo"));
    }
}
