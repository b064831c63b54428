package ibis.gmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.gmi.testing.GmiTestPool;
import ibis.testsupport.ChildJvm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/**
 * The collectives library ({@code ibis.gmi.collectives}) in pools of 2, 3 (no power of two) and 4 real JVMs: every
 * collective, primitive and object, for 1, 8 and 128 Ki elements (above the 64 KiB threshold),
 * against a sequential reference computed in each child (see {@code CollectivesPeer}); allreduce
 * results bit-identical at every member; a group of 1.
 */
public class CollectivesTest {

    @DataProvider
    public Object[][] poolSizes() {
        return new Object[][] { { 2 }, { 3 }, { 4 } };
    }

    @Test(dataProvider = "poolSizes", timeOut = 150_000)
    public void everyCollectiveMatchesTheSequentialReference(int processes) throws Exception {
        String output;
        StringBuilder all = new StringBuilder();
        List<List<String>> perChild = new ArrayList<>();
        try (GmiTestPool pool = new GmiTestPool(processes, "collectives")) {
            try {
                for (ChildJvm c : pool.children()) {
                    c.awaitLine("DONE", 120_000);
                    assertEquals(c.awaitExit(30), 0, c.output());
                }
            } finally {
                for (ChildJvm c : pool.children()) {
                    all.append(c.output());
                    perChild.add(c.output().lines().toList());
                }
                java.nio.file.Files.writeString(java.nio.file.Path.of("target", "gmi-collectives-" + processes
                        + ".log"), all.toString());
            }
        }
        output = all.toString();
        Set<String> expected = new HashSet<>();
        expected.add("barrier");
        expected.add("group-of-1");
        expected.add("broadcast/many-pieces");
        for (String cls : new String[] { "1", "8", "large" }) {
            for (String op : new String[] { "SUM", "MIN", "MAX" }) {
                expected.add("reduce/" + op + "/" + cls);
                expected.add("allreduce/" + op + "/" + cls);
            }
            for (String name : new String[] { "broadcast/", "scatter/", "allgather/", "object-reduce/",
                "object-collectives/" }) {
                expected.add(name + cls);
            }
        }
        for (String check : expected) {
            long members = perChild.stream().filter(l -> l.stream().anyMatch(s -> s.endsWith("PASS " + check))).count();
            long needed = check.equals("group-of-1") ? 1 : processes;
            assertEquals(members, needed, check + " did not pass at every member; output:\n" + output);
        }
        // Bit-identical allreduce: one digest per size, the same at every member.
        Map<String, Set<String>> digests = new HashMap<>();
        for (String line : output.split("\n")) {
            int at = line.indexOf("DIGEST ");
            if (at >= 0) {
                String[] f = line.substring(at + 7).trim().split(" ");
                digests.computeIfAbsent(f[0], k -> new HashSet<>()).add(f[1]);
            }
        }
        assertEquals(digests.size(), 3, output);
        for (Map.Entry<String, Set<String>> e : digests.entrySet()) {
            assertTrue(e.getValue().size() == 1, e.getKey() + " differs between members: " + e.getValue());
        }
    }
}
