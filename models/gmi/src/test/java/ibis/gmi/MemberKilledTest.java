package ibis.gmi;

import static org.testng.Assert.assertTrue;

import ibis.gmi.testing.GmiTestPool;
import ibis.testsupport.ChildJvm;

import java.util.ArrayList;
import java.util.List;

import org.testng.annotations.Test;

/** A member killed during a combined invocation: the other invokers get an exception, not a hang. */
public class MemberKilledTest {

    @Test(timeOut = 120_000)
    public void memberKilledDuringCombinedInvocationGivesExceptionsAtTheInvokers() throws Exception {
        try (GmiTestPool pool = new GmiTestPool(3, "kill")) {
            ChildJvm victim = null;
            List<ChildJvm> survivors = new ArrayList<>();
            for (ChildJvm c : pool.children()) {
                c.awaitLine("CALLING", 60_000);
            }
            // The member that blocks is the victim; find it by its line.
            long end = System.currentTimeMillis() + 60_000;
            while (victim == null && System.currentTimeMillis() < end) {
                for (ChildJvm c : pool.children()) {
                    if (c.output().contains("BLOCKING")) {
                        victim = c;
                    }
                }
                if (victim == null) {
                    pool.children().get(0).process().waitFor(50, java.util.concurrent.TimeUnit.MILLISECONDS);
                }
            }
            assertTrue(victim != null, "no member blocked");
            for (ChildJvm c : pool.children()) {
                if (c != victim) {
                    survivors.add(c);
                }
            }
            victim.kill();
            for (ChildJvm s : survivors) {
                String line = s.awaitLine("CALL-FAILED", 60_000);
                assertTrue(line.contains("Exception"), line);
                assertTrue(s.awaitExit(30) == 0, s.output());
            }
        }
    }
}
