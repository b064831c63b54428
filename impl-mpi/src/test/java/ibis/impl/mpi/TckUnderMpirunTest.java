package ibis.impl.mpi;

import static org.testng.Assert.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.testng.annotations.Test;

/**
 * The IPL conformance suite over {@code mpi} in a process started by Open MPI's {@code mpirun}
 * (one rank: the suite's members are Ibis instances in that process, so their traffic is MPI's
 * {@code self} path), through our glue; the bindings' run is in
 * {@code TckOverOpenMpiJavaBindingsTest}. The suite's tests whose peer is a child JVM are left out
 * ({@link MpiTckExclusions}); the cross-rank behaviour is tested by {@link MpiIbisUnderMpiTest}.
 */
public class TckUnderMpirunTest {

    static final Pattern SUMMARY = Pattern.compile("^tck passed=(\\d+) failed=0 skipped=0$", Pattern.MULTILINE);

    static void runSuite(String backend) throws Exception {
        String text = MpiJob.run(MpiJob.openMpi(1, "self,vader"), TckUnderMpirunMain.class, "-Xmx768m",
                "-Dibis.mpi.backend=" + backend);
        Matcher m = SUMMARY.matcher(text);
        assertTrue(m.find(), "the suite's summary in\n" + text);
        assertTrue(Integer.parseInt(m.group(1)) >= 140, "tests passed: " + m.group(1));
        assertTrue(text.contains("MPI initialized: rank 0 of 1, " + backend + "/openmpi"), text);
    }

    @Test(timeOut = 120_000)
    public void theSuitePassesThroughTheGlue() throws Exception {
        runSuite("glue");
    }
}
