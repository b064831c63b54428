package ibis.dist;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import ibis.registry.server.CentralRegistryServer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.testng.annotations.Test;

/**
 * The installed launcher, end to end: {@code bin/ibis-run} with the jars of {@code dist/target/lib}
 * starts real member JVMs with an embedded registry, as the README promises.
 */
public class IbisRunEndToEndTest {

    @Test(timeOut = 180_000)
    public void poolDemoOfFourMembersPrintsTheCheckedPoolResult() throws Exception {
        ScriptRun run = ScriptRun.run(170, "ibis-run", "--np", "4", "ibis.examples.PoolDemo");
        assertEquals(run.status(), 0, run.all());
        Matcher result = Pattern.compile("(?m)^\\[[0-3]\\] Pool result: 148933 primes below 2000000 "
                + "\\(sum 142913828922\\), computed by 3 workers: correct$").matcher(run.out());
        assertTrue(result.find(), run.all());
        for (int share = 0; share < 3; share++) {
            assertTrue(
                    Pattern.compile("(?m)^\\[[0-3]\\] worker " + share + ": \\d+ primes in ").matcher(run.out()).find(),
                    "no report of worker " + share + "\n" + run.all());
        }
    }

    @Test(timeOut = 180_000)
    public void unchangedIpl2HelloRunsUnderTwoMembersAndTheGreetingArrives() throws Exception {
        ScriptRun run = ScriptRun.run(170, "ibis-run", "--np", "2", "ibis.examples.Hello");
        assertEquals(run.status(), 0, run.all());
        assertTrue(Pattern.compile("(?m)^\\[[01]\\] Server received: Hi there$").matcher(run.out()).find(), run.all());
        assertTrue(Pattern.compile("(?m)^\\[[01]\\] Client sent: Hi there$").matcher(run.out()).find(), run.all());
    }

    @Test(timeOut = 180_000)
    public void failingMemberMakesTheLauncherFailWithItsStatusAndStopsTheOthers() throws Exception {
        ScriptRun run = ScriptRun.run(170, "ibis-run", "--np", "3", "ibis.examples.ExitCodeDemo", "1", "3");
        assertEquals(run.status(), 3, run.all());
        assertTrue(run.err().contains("member 1 (pid"), run.all());
        assertTrue(run.err().contains("exited with status 3"), run.all());
        // Every member that got as far as saying it waits must be gone now.
        List<Long> waiting = new ArrayList<>();
        Matcher m = Pattern.compile("waits until it is stopped \\(pid (\\d+)\\)").matcher(run.out());
        while (m.find()) {
            waiting.add(Long.parseLong(m.group(1)));
        }
        for (long pid : waiting) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                    "member with pid " + pid + " still runs\n" + run.all());
        }
    }

    @Test(timeOut = 120_000)
    public void helpPropertiesListsThePoolServerAndRegistryHeartbeatProperties() throws Exception {
        ScriptRun run = ScriptRun.run(110, "ibis-run", "--help-properties");
        assertEquals(run.status(), 0, run.all());
        assertTrue(run.out().contains("ibis.pool.name"), run.all());
        assertTrue(run.out().contains("ibis.server.address"), run.all());
        assertTrue(run.out().contains("ibis.registry.heartbeat.interval"), run.all());
        assertTrue(run.out().contains("[registry]"), run.all());
        assertTrue(run.out().contains("[run]"), run.all());
    }

    @Test(timeOut = 120_000)
    public void helpPrintsTheUsageAndAWrongOptionIsAUsageError() throws Exception {
        ScriptRun help = ScriptRun.run(110, "ibis-run", "--help");
        assertEquals(help.status(), 0, help.all());
        assertTrue(help.out().contains("Usage: ibis-run"), help.all());
        ScriptRun wrong = ScriptRun.run(110, "ibis-run", "--no-such-option", "X");
        assertEquals(wrong.status(), 2, wrong.all());
        assertTrue(wrong.err().contains("--no-such-option"), wrong.all());
    }

    /**
     * The ipl suite's plain-program figure runs {@code ibis.benchmarks.ipl.PlainStream} this way
     * (the benchmarks jar as the program's class path) and reads these lines.
     */
    @Test(timeOut = 180_000)
    public void thePlainStreamProgramOfTheIplSuiteRunsUnderIbisRunAndReportsEachRun() throws Exception {
        java.io.File[] jars = new java.io.File(System.getProperty("ibis.repo.root"), "dist/target/lib-bench")
                .listFiles((d, n) -> n.startsWith("ibis-benchmarks-") && n.endsWith(".jar"));
        assertTrue(jars != null && jars.length == 1, "one ibis-benchmarks jar in dist/target/lib-bench");
        for (String serialization : List.of("data", "byte", "object.ibis")) {
            ScriptRun run = ScriptRun.run(170, "ibis-run", "--np", "2", "-cp", jars[0].getPath(),
                    "ibis.benchmarks.ipl.PlainStream", serialization, "200", "2");
            assertEquals(run.status(), 0, run.all());
            for (int r = 0; r < 2; r++) {
                assertTrue(Pattern.compile("(?m)^\\[[01]\\] plain-stream " + Pattern.quote(serialization) + " run " + r
                        + " 200 messages \\d+ ns [0-9.]+ MB/s$").matcher(run.out()).find(), run.all());
            }
        }
    }

    @Test(timeOut = 180_000)
    public void underAClusterLauncherEachProcessIsOneRankOfTheSamePool() throws Exception {
        Properties serverProps = new Properties();
        serverProps.setProperty("ibis.registry.server.bind", "127.0.0.1");
        try (CentralRegistryServer server = new CentralRegistryServer(0, serverProps)) {
            server.start();
            List<CommandRun.Started> ranks = new ArrayList<>();
            try {
                for (int rank = 0; rank < 2; rank++) {
                    // What mpirun/srun would set; the job id gives both ranks the same pool name.
                    Map<String, String> env = Map.of("PMI_RANK", Integer.toString(rank), "PMI_SIZE", "2",
                            "SLURM_JOB_ID", "4711");
                    ranks.add(ScriptRun.start(env, "ibis-run", "--server", server.address(), "ibis.examples.Hello"));
                }
                StringBuilder out = new StringBuilder();
                for (CommandRun.Started r : ranks) {
                    ScriptRun run = r.finish(170);
                    assertEquals(run.status(), 0, run.all());
                    assertFalse(run.out().startsWith("["), "a rank's output is not prefixed\n" + run.all());
                    out.append(run.out());
                }
                assertTrue(out.toString().contains("Server received: Hi there"), out.toString());
                assertTrue(out.toString().contains("Client sent: Hi there"), out.toString());
            } finally {
                ranks.forEach(CommandRun.Started::kill);
            }
        }
    }
}
