package ibis.benchmarks.gmi.apps;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.fail;

import ibis.benchmarks.gmi.apps.AppRuns.AppResult;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.testng.SkipException;
import org.testng.annotations.Test;

/**
 * The applications' results are identical on 1, 2 and 4 processes, in GMI style and in MPI style,
 * and equal to the sequential programs' (computed in this JVM): every application in small sizes,
 * one GMI program (1, 2, 4 JVMs in one Ibis pool) and one MPI job (1, 2, 4 ranks) per process
 * count, each running all five in order. Without Open MPI or its Java classes the MPI half is
 * skipped, unless {@code -Dibis.mpi.require=true} (CI), which makes it fail instead.
 */
public class GmiAppsTest {

    private static final int[] PROCESSES = { 1, 2, 4 };
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private static List<AppSpec> specs() {
        List<AppSpec> specs = new ArrayList<>();
        for (String app : AppSpec.APPS) {
            specs.add(AppSpec.small(app));
        }
        return specs;
    }

    private static Map<String, String> sequential() {
        Map<String, String> expected = new LinkedHashMap<>();
        for (AppSpec s : specs()) {
            expected.put(s.app(), String.format("%016x", MpiStyleMain.sequential(s)));
        }
        return expected;
    }

    private static void check(Map<String, String> expected, List<AppResult> results, String style, int processes) {
        results.forEach(r -> System.out.println("RESULT " + r));
        assertEquals(results.size(), expected.size(), style + " " + processes + ": " + results);
        for (AppResult r : results) {
            assertEquals(r.style(), style);
            assertEquals(r.processes(), processes);
            assertEquals(r.checksum(), expected.get(r.app()), r.app() + " in " + style + " style on " + processes
                    + " processes differs from the sequential program");
        }
    }

    @Test
    public void sequentialChecksumsDependOnTheInput() {
        for (AppSpec s : specs()) {
            AppSpec other = new AppSpec(s.app(), s.n(), s.steps(), s.seed() + 1);
            assertNotEquals(MpiStyleMain.sequential(other), MpiStyleMain.sequential(s), s.app());
            assertEquals(MpiStyleMain.sequential(s), MpiStyleMain.sequential(s), s.app());
        }
    }

    @Test(timeOut = 300_000)
    public void gmiResultsAreIdenticalOn1And2And4Processes() throws Exception {
        Map<String, String> expected = sequential();
        for (int p : PROCESSES) {
            check(expected, AppRuns.gmi(specs(), p, TIMEOUT), "gmi", p);
        }
    }

    @Test(timeOut = 300_000)
    public void mpiResultsAreIdenticalOn1And2And4Ranks() throws Exception {
        String missing = AppRuns.mpiMissing();
        if (missing != null) {
            if (Boolean.getBoolean("ibis.mpi.require")) {
                fail("ibis.mpi.require=true but the MPI-style applications cannot run: " + missing);
            }
            throw new SkipException(missing);
        }
        Map<String, String> expected = sequential();
        for (int p : PROCESSES) {
            check(expected, AppRuns.mpi(specs(), p, TIMEOUT), "mpi", p);
        }
    }
}
