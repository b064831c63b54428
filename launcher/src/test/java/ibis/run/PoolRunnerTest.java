package ibis.run;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/**
 * The launcher starts real member JVMs, tags their output, and returns the first failure's status
 * after stopping the rest. (No registry is needed: the members here never contact it.)
 */
public class PoolRunnerTest {

    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();

    /** TestNG runs all methods on one instance: every test starts with empty output. */
    @BeforeMethod
    public void forgetEarlierOutput() {
        outBytes.reset();
        errBytes.reset();
    }

    private List<Long> pids = List.of();

    private int runPool(int n, String... memberArgs) throws Exception {
        List<String> args = new ArrayList<>(List.of("--np", Integer.toString(n), "--server", "127.0.0.1:1",
                ScriptedMember.class.getName()));
        args.addAll(List.of(memberArgs));
        LaunchPlan plan = LaunchPlan.resolve(LaunchOptions.parse(args), java.util.Map.of(), () -> "test-pool");
        try (PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
                PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8)) {
            PoolRunner runner = new PoolRunner(plan, IbisRun.javaCommand(),
                    System.getProperty("java.class.path"), 2000, out, err);
            try {
                return runner.run(plan.serverAddress());
            } finally {
                pids = runner.memberPids();
            }
        }
    }

    private String out() {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    @Test(timeOut = 60_000)
    public void allMembersSucceedingGivesZeroAndEveryLineIsTaggedWithItsMember() throws Exception {
        int status = runPool(3, "-1", "0");
        assertEquals(status, 0, err());
        for (int i = 0; i < 3; i++) {
            assertTrue(out().contains("[" + i + "] member " + i + " of 3 pid="), out());
            assertTrue(err().contains("[" + i + "] stderr of " + i), err());
            // The launcher's environment (the test's) does not set it: the members get it empty.
            assertTrue(err().contains("[" + i + "] stderr of " + i + " UCX_ERROR_SIGNALS=[]"), err());
        }
        for (String line : out().split("\n")) {
            assertTrue(line.matches("\\[[0-2]\\] member [0-2] of 3 pid=\\d+"), "untagged or mixed line: " + line);
        }
    }

    @Test(timeOut = 60_000)
    public void firstFailingMembersStatusIsReturnedAndTheOthersAreStopped() throws Exception {
        int status = runPool(3, "1", "7", "block");
        assertEquals(status, 7);
        assertTrue(err().contains("member 1"), err());
        assertTrue(err().contains("status 7"), err());
        assertEquals(pids.size(), 3);
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                    "member with pid " + pid + " still running");
        }
    }

    @Test(timeOut = 60_000)
    public void failingMemberOfAOneMemberPoolGivesItsStatus() throws Exception {
        assertEquals(runPool(1, "0", "42"), 42);
    }
}
