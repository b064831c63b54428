package ibis.gmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.gmi.testing.GmiTestPool;
import ibis.testsupport.ChildJvm;

import org.testng.annotations.Test;

/**
 * A pool of one process: every group has one member, and every message goes from the process to
 * itself. The whole scenario of {@link SchemeMatrixTest} must pass there too.
 */
public class SingleProcessTest {

    @Test(timeOut = 120_000)
    public void everySchemeWorksInAPoolOfOne() throws Exception {
        try (GmiTestPool pool = new GmiTestPool(1, "matrix")) {
            ChildJvm only = pool.children().get(0);
            only.awaitLine("DONE", 90_000);
            assertEquals(only.awaitExit(30), 0, only.output());
            String out = only.output();
            for (String check : new String[] { "single/return", "group/combine-binomial", "personalized/forward",
                "combined-binomial/group/personalized-forward", "combined-flat/single/discard", "group-of-1",
                "by-value/local", "concurrent-replies",
                "configure/rejected" }) {
                assertTrue(out.contains("PASS " + check + "\n"), check + " did not pass:\n" + out);
            }
        }
    }
}
