package ibis.benchmarks.gmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
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
 * Runs the gmi suite over tcp with tiny sizes (groups of 1 and 2, real jobs: under
 * {@code mpirun.openmpi} when it is installed, else plain JVMs) and checks the report: every scheme
 * and every Ibis collective has a figure for both group sizes; the MPI column has figures too, or
 * the report says why the peer is missing (this module's test class path has no Open MPI Java
 * classes unless {@code -Dibis.bench.mpi.classes} names them). Nothing here looks at how fast
 * anything was; the ranks check every result themselves and fail the job when one is wrong.
 */
public class GmiSuiteRunTest {

    private static final String FIGURE = "[0-9.]+ \\([0-9.]+–[0-9.]+\\)";

    /**
     * Only jobs whose Ibis members wait outside MPI make Open MPI yield at every group size; Ibis
     * over mpi polls MPI itself and runs at Open MPI's default.
     */
    @Test
    public void onlyJobsOverTcpAndUcxMakeOpenMpiYieldAlways() {
        assertEquals(GmiSuite.yieldOptions("mpi"), List.of());
        for (String impl : List.of("tcp", "ucx")) {
            assertEquals(GmiSuite.yieldOptions(impl), List.of("--mca", "mpi_yield_when_idle", "1"), impl);
        }
    }

    @Test(timeOut = 120_000)
    public void aTinyRunOverTcpReportsEverySchemeAndCollective() throws Exception {
        Path dir = Files.createTempDirectory("gmi-bench-test");
        // The bindings' classes of this build (module impl-mpi/mpi-java), when it has them: then the
        // peer runs too, and its results are checked in every rank like Ibis's.
        Path bindings = Path.of("..", "impl-mpi", "mpi-java", "target", "classes").toAbsolutePath().normalize();
        boolean withBindings = Files.exists(bindings.resolve("mpi/MPI.class"))
                && System.getProperty(GmiSuite.CLASSES_PROPERTY) == null;
        if (withBindings) {
            System.setProperty(GmiSuite.CLASSES_PROPERTY, bindings.toString());
        }
        try {
            GmiSuite suite = new GmiSuite(true, "tcp", new int[] {1, 2}, 50, 1, 10, 2, 20, dir, "GmiSuiteRunTest");
            int status = suite.run();
            String text = Files.readString(suite.reportFile(), StandardCharsets.UTF_8);
            assertEquals(status, 0, text);
            assertTrue(suite.reportFile().getFileName().toString().matches("gmi-.*-quick\\.md"),
                    suite.reportFile().toString());
            assertTrue(text.contains("Command: `GmiSuiteRunTest`"), text);
            assertFalse(text.contains("NaN"), text);
            if (ibis.benchmarks.Host.onPath(GmiSuite.MPIRUN).isPresent()) {
                assertTrue(text.contains("for tcp and ucx with `--mca mpi_yield_when_idle 1`"), text);
            }
            assertFalse(text.contains("## Failed jobs"), text);
            for (String scheme : GmiRank.SCHEMES) {
                Pattern row = Pattern.compile("^\\| " + Pattern.quote(scheme) + " \\| " + FIGURE + " \\| " + FIGURE
                        + " \\| -?[0-9.]+ \\|$", Pattern.MULTILINE);
                assertTrue(row.matcher(text).find(), "no figures for " + scheme + ":\n" + text);
            }
            boolean peer = !text.contains("**MPI peer: not measured**");
            if (withBindings && ibis.benchmarks.Host.onPath(GmiSuite.MPIRUN).isPresent()) {
                assertTrue(peer, "with mpirun and the bindings' classes the peer must run:\n" + text);
            }
            String mpi = peer ? FIGURE : "—";
            for (String op : List.of("allreduce", "broadcast")) {
                for (int bytes : GmiRank.COLLECTIVE_BYTES) {
                    for (int size : new int[] {1, 2}) {
                        Pattern row = Pattern.compile("^\\| " + op + " \\| " + bytes + " \\| " + size + " \\| "
                                + FIGURE + " \\| " + mpi + " \\| ", Pattern.MULTILINE);
                        assertTrue(row.matcher(text).find(), op + " of " + bytes + " bytes in a group of " + size
                                + " (MPI peer " + (peer ? "present" : "missing") + "):\n" + text);
                    }
                }
            }
            assertTrue(Pattern.compile("^\\| tcp \\| 2 \\| " + (peer ? "[0-9.]+ \\| (yes|no) \\| [0-9.]+ \\| (yes|no)"
                    : "— \\| — \\| — \\| —") + " \\|$", Pattern.MULTILINE).matcher(text).find(), text);
            String png = suite.reportFile().getFileName().toString().replace(".md", "-tcp.png");
            assertTrue(Files.size(dir.resolve(png)) > 0, "the plot is written next to the report");
            assertTrue(text.contains("](" + png + ")"), "the report shows the plot:\n" + text);
        } finally {
            if (withBindings) {
                System.clearProperty(GmiSuite.CLASSES_PROPERTY);
            }
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
