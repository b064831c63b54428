package ibis.gmi;

import static org.testng.Assert.assertEquals;

import ibis.gmi.testing.GmiTestPool;
import ibis.testsupport.ChildJvm;

import org.testng.annotations.Test;

/**
 * Earlier GMI programs declare their group interface without {@code public}; such a group works
 * with classes generated at run time (defined in the interface's own package).
 */
public class NonPublicGroupInterfaceTest {

    @Test(timeOut = 180_000)
    public void aPackagePrivateGroupInterfaceIsInvokedAndCombined() throws Exception {
        try (GmiTestPool pool = new GmiTestPool(3, "hidden")) {
            for (ChildJvm c : pool.children()) {
                assertEquals(c.awaitLine("HIDDEN-OK", 120_000), "HIDDEN-OK 3", c.output());
                assertEquals(c.awaitExit(30), 0, c.output());
            }
        }
    }
}
