package ibis.benchmarks.ipl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.testng.annotations.Test;

/**
 * A tiny run of the mpi suite with real {@code mpirun} jobs. On a machine with Open MPI the C peer
 * (compiled by the suite) must give figures for both transports; the Open MPI Java classes and
 * impl-mpi are not on this module's test class path, so those two programs must be reported as not
 * measured, naming what to do. Without Open MPI every program must be reported as not measured,
 * naming the packages to install.
 */
public class MpiSuiteRunTest {

    private static final Pattern C_ROW = Pattern.compile(
            "^\\| C, `mpi_pingpong\\.c` \\(MPI_Send/MPI_Recv\\) \\| (shared memory|tcp on lo)[^|]*\\| [0-9.]+ \\|"
                    + " [0-9.]+–[0-9.]+ \\|", Pattern.MULTILINE);

    @Test(timeOut = 300_000)
    public void aTinyRunReportsTheCPeerOrWhatIsMissing() throws Exception {
        Path out = Files.createTempDirectory("mpi-suite-test");
        try {
            MpiSuite suite = new MpiSuite(true, 1, 200, 20, out, "test");
            int status = suite.run();
            String report = Files.readString(suite.reportFile(), StandardCharsets.UTF_8);
            if (ibis.benchmarks.Host.onPath(MpiSuite.MPIRUN).isPresent()) {
                assertEquals(status, 0, report);
                assertEquals(C_ROW.matcher(report).results().count(), 4L,
                        "a C latency and throughput row for both transports:\n" + report);
                assertTrue(report.contains("not measured**: the Open MPI Java classes") || !report.contains(
                        "Open MPI Java bindings, direct buffers | shared memory (`btl self,vader`) | —"), report);
            } else {
                assertTrue(report.contains("not measured**: " + MpiSuite.MPIRUN + " is not installed"), report);
            }
            assertTrue(report.contains("**Ibis mpi, own JNI glue, one-to-one ports, data serialization, explicit"
                    + " receive: not measured**: impl-mpi"), report);
            assertTrue(report.contains("**Ibis mpi, Open MPI Java bindings backend, one-to-one ports, data"
                    + " serialization, explicit receive: not measured**: impl-mpi"), report);
        } finally {
            try (Stream<Path> files = Files.walk(out)) {
                List<Path> all = files.sorted(Comparator.reverseOrder()).toList();
                for (Path p : all) {
                    Files.delete(p);
                }
            }
        }
    }
}
