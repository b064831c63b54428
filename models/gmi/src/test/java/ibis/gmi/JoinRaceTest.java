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
}
