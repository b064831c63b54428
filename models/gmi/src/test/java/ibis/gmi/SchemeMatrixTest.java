package ibis.gmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.gmi.testing.GmiTestPool;
import ibis.testsupport.ChildJvm;

import java.util.HashSet;
import java.util.Set;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/**
 * Every invocation scheme with every reply scheme of seed 004's Table 1 (and the subset and
 * combined forms), the exceptions, the rejected configurations and a group of 1, between four real
 * JVMs. The four run {@code GmiPeer matrix} once; each test checks that its combination passed there.
 */
public class SchemeMatrixTest {

    private static final int PROCESSES = 4;

    private GmiTestPool pool;
    private final Set<String> passed = new HashSet<>();
    private String output = "";

    @BeforeClass(timeOut = 120_000)
    public void runTheMatrix() throws Exception {
        // On failure the children's output is in the exception and in target/gmi-matrix.log.
        pool = new GmiTestPool(PROCESSES, "matrix");
        StringBuilder all = new StringBuilder();
        try {
            for (ChildJvm c : pool.children()) {
                c.awaitLine("DONE", 90_000);
                assertEquals(c.awaitExit(30), 0, c.output());
            }
        } finally {
            for (ChildJvm c : pool.children()) {
                all.append(c.output());
            }
            output = all.toString();
            java.nio.file.Files.writeString(java.nio.file.Path.of("target", "gmi-matrix.log"), output);
        }
        for (String line : output.split("\n")) {
            if (line.startsWith("PASS ")) {
                passed.add(line.substring(5).trim());
            }
        }
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (pool != null) {
            pool.close();
        }
    }

    @DataProvider
    public Object[][] table1() {
        String[] invocations = { "single", "group", "subset", "personalized" };
        String[] replies = { "discard", "forward", "return", "combine-flat", "combine-binomial" };
        Object[][] cells = new Object[invocations.length * replies.length][];
        int i = 0;
        for (String inv : invocations) {
            for (String rep : replies) {
                cells[i++] = new Object[] { inv + "/" + rep };
            }
        }
        return cells;
    }

    @Test(dataProvider = "table1")
    public void invocationSchemeWithReplyScheme(String combination) {
        assertTrue(passed.contains(combination), combination + " did not pass; output:\n" + output);
    }

    @DataProvider
    public Object[][] combined() {
        return new Object[][] { { "combined-flat/single/return" }, { "combined-binomial/single/return" },
            { "combined-binomial/group/combine-binomial" }, { "combined-flat/group/combine-flat" },
            { "combined-flat/personalized/combine-flat" }, { "combined-binomial/single/personalized-return" },
            { "combined-binomial/group/personalized-combine-binomial" }, { "combined-flat/group/forward" },
            { "combined-binomial/group/personalized-forward" }, { "combined-flat/single/discard" } };
    }

    @Test(dataProvider = "combined")
    public void combinedInvocation(String combination) {
        assertTrue(passed.contains(combination), combination + " did not pass; output:\n" + output);
    }

    @DataProvider
    public Object[][] semantics() {
        return new Object[][] { { "exception/return" }, { "exception/combine-flat" }, { "exception/combine-binomial" },
            { "exception/forward" }, { "exception/checked" }, { "exception/not-overridden" },
            { "exception/unconfigured" }, { "configure/no-such-method" }, { "configure/rejected" },
            { "group-of-1" }, { "by-value/local" },
            { "group/combine-binomial/every-invoker" }, { "concurrent-replies" } };
    }

    @Test(dataProvider = "semantics")
    public void semantics(String check) {
        assertTrue(passed.contains(check), check + " did not pass; output:\n" + output);
    }

    @Test
    public void everyRejectedConfigurationSaidWhy() {
        long rejected = output.lines().filter(l -> l.startsWith("REJECTED ")).count();
        assertEquals(rejected, 7, output);
    }
}
