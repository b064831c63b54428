package ibis.benchmarks.gmi.apps;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import org.testng.annotations.Test;

/**
 * The gmi suite's applications section, in small sizes on 1 and 2 processes over tcp (and in MPI
 * style when Open MPI and its Java classes are here, which CI requires): a row per application and
 * process count with a time per column and "identical" results, and a section whose runs fail
 * reports them and makes the suite fail. Nothing here looks at how fast anything was.
 */
public class AppsSectionTest {

    private static final String SECONDS = "[0-9]+\\.[0-9]{2}";

    private static String text(List<String> lines) {
        return String.join("\n", lines);
    }

    @Test(timeOut = 300_000)
    public void everyApplicationHasARowPerProcessCountWithIdenticalResults() throws Exception {
        AppsSection section = new AppsSection(AppSpec::small, new int[] {1, 2}, Duration.ofSeconds(120));
        String text = text(section.run(true, List.of("tcp")));
        boolean mpi = AppRuns.mpiMissing() == null;
        if (!mpi && Boolean.getBoolean("ibis.mpi.require")) {
            fail("ibis.mpi.require=true but the MPI-style applications cannot run: " + AppRuns.mpiMissing());
        }
        assertFalse(section.failed(), text);
        assertTrue(text.contains("## Applications"), text);
        assertEquals(text.contains("**MPI style: not measured**"), !mpi, text);
        assertTrue(text.contains("| GMI over tcp (s) |"), text);
        assertEquals(text.contains("| MPI style (s) | fastest GMI / MPI style |"), mpi, text);
        for (String app : AppSpec.APPS) {
            AppSpec s = AppSpec.small(app);
            for (int p : new int[] {1, 2}) {
                String cells = "\\| " + SECONDS + " \\|" + (mpi ? " " + SECONDS + " \\| [0-9.]+ \\|" : "");
                Pattern row = Pattern.compile("^\\| " + app + " \\| " + s.n() + " x " + s.steps() + " \\| " + p
                        + " \\| " + SECONDS + " " + cells + " identical \\|$", Pattern.MULTILINE);
                assertTrue(row.matcher(text).find(), app + " on " + p + " processes:\n" + text);
            }
        }
    }

    @Test(timeOut = 120_000)
    public void aRunThatFailsIsReportedAndFailsTheSection() throws Exception {
        AppsSection section = new AppsSection(AppSpec::small, new int[] {1}, Duration.ofSeconds(60));
        String text = text(section.run(true, List.of("no-such-implementation")));
        assertTrue(section.failed(), text);
        assertTrue(text.contains("### Failed application runs"), text);
        assertTrue(text.contains("GMI over no-such-implementation on 1 processes"), text);
        assertTrue(Pattern.compile("^\\| asp \\| 96 x 0 \\| 1 \\| " + SECONDS + " \\| failed \\|", Pattern.MULTILINE)
                .matcher(text).find(), text);
    }
}
