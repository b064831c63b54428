package ibis.gmi;

import static org.testng.Assert.assertEquals;

import ibis.gmi.testing.GmiTestPool;
import ibis.testsupport.ChildJvm;

import org.testng.annotations.Test;

/**
 * A stub's first call reaches a member whose join is done: lookups are answered only after every
 * member installed the group (ran groupInit), so a call never lands on a member still joining
 * (it used to be dropped there, and its caller waited forever).
 */
public class JoinRaceTest {

    @Test(timeOut = 180_000)
    public void callsRightAfterLookupFindEveryMemberJoinedAndInitialized() throws Exception {
        try (GmiTestPool pool = new GmiTestPool(3, "join-race")) {
            for (ChildJvm c : pool.children()) {
                assertEquals(c.awaitLine("RACE-OK", 120_000), "RACE-OK 12", c.output());
                assertEquals(c.awaitExit(30), 0, c.output());
            }
        }
    }

    /**
     * Earlier GMI programs look their group up in {@code groupInit} and may call other members from
     * there: the lookup must not wait for every groupInit to end (its own among them), and a call
     * that reaches a member still installing the group waits for that instead of being dropped.
     */
    @Test(timeOut = 180_000)
    public void aLookupAndACallInGroupInitReachTheNextMember() throws Exception {
        try (GmiTestPool pool = new GmiTestPool(3, "lookup-in-init")) {
            java.util.Set<String> lines = new java.util.TreeSet<>();
            for (ChildJvm c : pool.children()) {
                lines.add(c.awaitLine("LOOKUP-IN-INIT-OK", 120_000));
                assertEquals(c.awaitExit(30), 0, c.output());
            }
            // Member r called member r + 1 (mod 3), whose rankTimes(10) is (r + 2) * 10.
            assertEquals(lines, java.util.Set.of("LOOKUP-IN-INIT-OK 10", "LOOKUP-IN-INIT-OK 20",
                    "LOOKUP-IN-INIT-OK 30"));
        }
    }
}
