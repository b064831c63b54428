package ibis.gmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;

import ibis.gmi.testing.GmiTestPool;
import ibis.testsupport.ChildJvm;

import java.util.ArrayList;
import java.util.List;

import org.testng.annotations.Test;

/**
 * A member killed during a collective of the collectives library: in a pool of three (no power of
 * two, so one survivor waits for the other survivor, not for the victim) the last member never
 * enters the allreduce and is killed; both others get an exception instead of hanging, and a later
 * collective on the same instance fails at once.
 */
public class CollectivesMemberKilledTest {

    @Test(timeOut = 120_000)
    public void memberKilledDuringAllreduceGivesExceptionsAtTheOthers() throws Exception {
        int size = 3;
        try (GmiTestPool pool = new GmiTestPool(size, "collectives-kill")) {
            ChildJvm victim = null;
            List<ChildJvm> survivors = new ArrayList<>();
            for (ChildJvm c : pool.children()) {
                int rank = Integer.parseInt(c.awaitLine("RANK", 60_000).substring(5).trim());
                if (rank == size - 1) {
                    victim = c;
                } else {
                    survivors.add(c);
                }
            }
            assertNotNull(victim, "no process of rank " + (size - 1));
            victim.awaitLine("BLOCKING", 60_000);
            for (ChildJvm s : survivors) {
                s.awaitLine("CALLING", 60_000);
            }
            victim.kill();
            for (ChildJvm s : survivors) {
                String line = s.awaitLine("CALL-FAILED", 60_000);
                assertTrue(line.contains("UncheckedIOException") && line.contains("process"), line);
                assertTrue(s.awaitLine("AGAIN-FAILED", 30_000).contains("Exception"), s.output());
                assertEquals(s.awaitExit(30), 0, s.output());
            }
        }
    }
}
