package ibis.impl.mpi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.testng.annotations.Test;

/**
 * The IPL conformance suite over {@code mpi} in a job of 2 ranks started by Open MPI's {@code mpirun}:
 * the suite's members are Ibis instances in rank 0 (so their traffic among themselves is MPI's
 * {@code self} path), and the peers of its multi-process tests run in rank 1
 * ({@link TckUnderMpirunMain}), so that their traffic crosses ranks: over shared memory
 * ({@code btl self,vader}) and over the tcp btl on lo, through our glue; the bindings' run is in
 * {@code TckOverOpenMpiJavaBindingsTest}. The tests that kill a member are left out
 * ({@link MpiTckExclusions}); more cross-rank behaviour is tested by {@link MpiIbisUnderMpiTest}.
 */
public class TckUnderMpirunTest {

    static final Pattern SUMMARY = Pattern.compile("^tck passed=(\\d+) failed=0 skipped=0$", Pattern.MULTILINE);

    static void runSuite(String backend, String btl, String... mca) throws Exception {
        Path fifos = Files.createTempDirectory("ibis-tck-peers");
        try {
            for (String name : new String[] {TckUnderMpirunMain.COMMANDS, TckUnderMpirunMain.EVENTS}) {
                Process mkfifo = new ProcessBuilder("mkfifo", fifos.resolve(name).toString()).inheritIO().start();
                assertEquals(mkfifo.waitFor(), 0, "mkfifo " + name);
            }
            String text = MpiJob.run(MpiJob.openMpi(2, btl, mca), TckUnderMpirunMain.class, "-Xmx768m",
                    "-Dibis.mpi.backend=" + backend, "-D" + TckUnderMpirunMain.FIFOS_PROPERTY + "=" + fifos);
            Matcher m = SUMMARY.matcher(text);
            assertTrue(m.find(), "the suite's summary in\n" + text);
            assertTrue(Integer.parseInt(m.group(1)) >= 147, "tests passed: " + m.group(1));
            assertTrue(text.contains("MPI initialized: rank 0 of 2, " + backend + "/openmpi"), text);
            assertTrue(text.contains("peer host done"), "rank 1's peer host ended regularly:\n" + text);
            for (String test : MpiTckExclusions.TALKING_PEER) {
                assertFalse(text.contains("left out for mpi: " + test),
                        test + " runs with its peer in rank 1:\n" + text);
            }
        } finally {
            try (Stream<Path> files = Files.list(fifos)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(fifos);
        }
    }

    @Test(timeOut = 150_000)
    public void theSuitePassesThroughTheGlueWithItsPeersInAnotherRank() throws Exception {
        runSuite("glue", "self,vader");
    }

    @Test(timeOut = 150_000)
    public void theSuitePassesThroughTheGlueOverTheTcpBtl() throws Exception {
        runSuite("glue", "self,tcp", "--mca", "btl_tcp_if_include", "lo");
    }
}
