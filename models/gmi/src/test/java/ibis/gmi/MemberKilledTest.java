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
 * A member killed during a combined invocation: three JVMs invoke {@code blockOn} together (a
 * binomially combined group invocation whose results are combined in a tree); the member of the
 * last rank blocks, the test kills its JVM, and both other invokers get an exception instead of
 * hanging. A forwarded group call made before by process 0 hands its forwarder the failure of
 * the victim's rank, and a group call of process 1 whose thread waits for the victim's reply fails.
 */
public class MemberKilledTest {

    @Test(timeOut = 120_000)
    public void memberKilledDuringCombinedInvocationGivesExceptionsAtTheInvokers() throws Exception {
        int size = 3;
        try (GmiTestPool pool = new GmiTestPool(size, "kill")) {
            ChildJvm victim = null;
            ChildJvm first = null;
            ChildJvm second = null;
            List<ChildJvm> survivors = new ArrayList<>();
            for (ChildJvm c : pool.children()) {
                int rank = Integer.parseInt(c.awaitLine("RANK", 60_000).substring(5).trim());
                if (rank == size - 1) {
                    victim = c;
                } else {
                    survivors.add(c);
                }
                if (rank == 0) {
                    first = c;
                } else if (rank == 1) {
                    second = c;
                }
            }
            assertNotNull(victim, "no process of rank " + (size - 1));
            // Three invocations block in the victim before it is killed: process 0's forwarded group
            // call, process 1's group call (its thread then waits in the reply port for the victim's
            // reply) and the combined invocation.
            for (int i = 0; i < 3; i++) {
                victim.awaitLine("BLOCKING", 60_000);
            }
            for (ChildJvm s : survivors) {
                s.awaitLine("CALLING", 60_000);
            }
            victim.kill();
            for (ChildJvm s : survivors) {
                String line = s.awaitLine("CALL-FAILED", 60_000);
                assertTrue(line.contains("Exception") && line.contains("process"), line);
            }
            // Process 1's group call, waiting in its reply port for the victim's reply, failed too.
            assertNotNull(second);
            String group = second.awaitLine("GROUP-CALL", 60_000);
            assertTrue(group.contains("FAILED") && group.contains("process"), group);
            // Process 0's forwarder got ranks 0 and 1, and a failure for the victim (checked there).
            assertNotNull(first);
            first.awaitLine("FORWARDED", 60_000);
            for (ChildJvm s : survivors) {
                assertEquals(s.awaitExit(30), 0, s.output());
            }
        }
    }
}
