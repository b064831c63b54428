package ibis.run;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.io.File;
import java.util.List;
import java.util.Map;

import org.testng.annotations.Test;

/** What ibis-run starts follows from the options and the environment as documented. */
public class LaunchPlanTest {

    private static LaunchPlan plan(Map<String, String> env, String... args) throws UsageException {
        return LaunchPlan.resolve(LaunchOptions.parse(List.of(args)), env, () -> "generated-pool");
    }

    @Test
    public void localPoolStartsNMembersWithAGeneratedPoolAndAnEmbeddedServer() throws UsageException {
        LaunchPlan p = plan(Map.of(), "--np", "4", "my.Main");
        assertEquals(p.mode(), LaunchPlan.Mode.LOCAL_POOL);
        assertEquals(p.memberCount(), 4);
        assertEquals(p.poolSize(), Integer.valueOf(4));
        assertEquals(p.poolName(), "generated-pool");
        assertTrue(p.needsEmbeddedServer());
        assertTrue(p.prefixOutput());
        for (int i = 0; i < 4; i++) {
            Map<String, String> props = p.memberProperties(i, "127.0.0.1:5555");
            assertEquals(props.get("ibis.pool.member"), Integer.toString(i));
            assertEquals(props.get("ibis.pool.size"), "4");
            assertEquals(props.get("ibis.pool.name"), "generated-pool");
            assertEquals(props.get("ibis.server.address"), "127.0.0.1:5555");
            assertFalse(props.containsKey("ibis.implementation"));
        }
    }

    @Test
    public void localPoolUsesTheGivenServerPoolAndImplementation() throws UsageException {
        LaunchPlan p = plan(Map.of(), "--np", "2", "--server", "h:1", "--pool", "mine", "--impl", "tcp", "M");
        assertFalse(p.needsEmbeddedServer());
        assertEquals(p.serverAddress(), "h:1");
        Map<String, String> props = p.memberProperties(1, p.serverAddress());
        assertEquals(props.get("ibis.pool.name"), "mine");
        assertEquals(props.get("ibis.implementation"), "tcp");
        assertEquals(props.get("ibis.server.address"), "h:1");
    }

    @Test
    public void npIgnoresTheClusterLaunchersVariables() throws UsageException {
        LaunchPlan p = plan(Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "8"), "--np", "3", "M");
        assertEquals(p.mode(), LaunchPlan.Mode.LOCAL_POOL);
        assertEquals(p.memberCount(), 3);
        assertEquals(p.memberIndex(0), 0);
    }

    @Test
    public void underMpirunOneMemberGetsTheRankAndSize() throws UsageException {
        Map<String, String> env = Map.of("OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "4",
                "OMPI_MCA_ess_base_jobid", "99");
        LaunchPlan p = plan(env, "--server", "head:8888", "M");
        assertEquals(p.mode(), LaunchPlan.Mode.CLUSTER_MEMBER);
        assertEquals(p.memberCount(), 1);
        assertFalse(p.prefixOutput());
        assertFalse(p.needsEmbeddedServer());
        Map<String, String> props = p.memberProperties(0, p.serverAddress());
        assertEquals(props.get("ibis.pool.member"), "2");
        assertEquals(props.get("ibis.pool.size"), "4");
        assertEquals(props.get("ibis.pool.name"), "ompi-99");
    }

    @Test
    public void underSrunTheGivenPoolNameWins() throws UsageException {
        Map<String, String> env = Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2", "SLURM_JOB_ID", "7");
        assertEquals(plan(env, "--server", "h", "--pool", "named", "M").poolName(), "named");
        assertEquals(plan(env, "--server", "h", "M").poolName(), "slurm-7");
    }

    @Test
    public void clusterMemberWithoutServerIsAUsageErrorThatSaysWhy() {
        UsageException e = expectThrows(UsageException.class,
                () -> plan(Map.of("PMI_RANK", "0", "PMI_SIZE", "2"), "M"));
        assertTrue(e.getMessage().contains("--server"), e.getMessage());
    }

    @Test
    public void clusterMemberWithoutJobIdOrPoolIsAUsageError() {
        UsageException e = expectThrows(UsageException.class,
                () -> plan(Map.of("PMI_RANK", "0", "PMI_SIZE", "2"), "--server", "h", "M"));
        assertTrue(e.getMessage().contains("--pool"), e.getMessage());
    }

    @Test
    public void badClusterVariablesAreAUsageError() {
        expectThrows(UsageException.class, () -> plan(Map.of("PMI_RANK", "x", "PMI_SIZE", "2"), "M"));
    }

    @Test
    public void loneMemberWithoutServerIsALocalPoolOfOne() throws UsageException {
        LaunchPlan p = plan(Map.of(), "M");
        assertEquals(p.mode(), LaunchPlan.Mode.LOCAL_POOL);
        assertEquals(p.memberCount(), 1);
        assertEquals(p.poolSize(), Integer.valueOf(1));
        assertTrue(p.needsEmbeddedServer());
        assertEquals(p.memberProperties(0, "a:1").get("ibis.pool.member"), "0");
    }

    @Test
    public void loneMemberOfAnExistingServerNeedsAPoolNameAndKeepsTheUsersPoolSize() throws UsageException {
        expectThrows(UsageException.class, () -> plan(Map.of(), "--server", "h:1", "M"));
        LaunchPlan open = plan(Map.of(), "--server", "h:1", "--pool", "p", "M");
        assertEquals(open.mode(), LaunchPlan.Mode.SINGLE_MEMBER);
        Map<String, String> props = open.memberProperties(0, "h:1");
        assertFalse(props.containsKey("ibis.pool.size"));
        assertFalse(props.containsKey("ibis.pool.member"));
        LaunchPlan closed = plan(Map.of(), "--server", "h:1", "--pool", "p", "-Dibis.pool.size=3",
                "-Dibis.pool.member=2", "M");
        assertEquals(closed.memberProperties(0, "h:1").get("ibis.pool.size"), "3");
        assertEquals(closed.memberProperties(0, "h:1").get("ibis.pool.member"), "2");
        expectThrows(UsageException.class,
                () -> plan(Map.of(), "--server", "h:1", "--pool", "p", "-Dibis.pool.size=x", "M"));
    }

    @Test
    public void memberCommandRunsTheSameJavaWithTheProgramsClassPathBeforeTheIbisJars() throws UsageException {
        LaunchPlan p = plan(Map.of(), "--np", "2", "-cp", "app.jar", "-Da=b", "--jvm-arg", "-Xss4m",
                "my.Main", "x", "y");
        List<String> cmd = p.memberCommand(1, "/jdk/bin/java", "ibis.jar", "127.0.0.1:4");
        assertEquals(cmd.get(0), "/jdk/bin/java");
        assertTrue(cmd.contains("--enable-native-access=ALL-UNNAMED"));
        assertTrue(cmd.contains("-Xss4m"));
        int cp = cmd.indexOf("-cp");
        assertEquals(cmd.get(cp + 1), "app.jar" + File.pathSeparator + "ibis.jar");
        assertTrue(cmd.contains("-Da=b"));
        assertTrue(cmd.contains("-Dibis.pool.member=1"));
        assertTrue(cmd.contains("-Dibis.pool.size=2"));
        assertTrue(cmd.contains("-Dibis.server.address=127.0.0.1:4"));
        assertEquals(cmd.subList(cmd.size() - 3, cmd.size()), List.of("my.Main", "x", "y"));
        assertTrue(cmd.indexOf("-Xss4m") < cp, "JVM options come before the class path");
    }

    @Test
    public void classPathFallsBackToTheCurrentDirectoryOnlyWhenNothingIsGiven() {
        assertEquals(LaunchPlan.joinClassPath("", null), ".");
        assertEquals(LaunchPlan.joinClassPath("a", ""), "a");
        assertEquals(LaunchPlan.joinClassPath(null, "b"), "b");
    }

    @Test
    public void everyMemberGetsAnEmptyUcxErrorSignalsSoUcxLeavesTheJvmsSignalsAlone() throws UsageException {
        assertEquals(plan(Map.of(), "--np", "2", "M").memberEnvironment(), Map.of("UCX_ERROR_SIGNALS", ""));
        Map<String, String> mpirun = Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "2",
                "OMPI_MCA_ess_base_jobid", "5");
        assertEquals(plan(mpirun, "--server", "h:1", "M").memberEnvironment(), Map.of("UCX_ERROR_SIGNALS", ""));
        assertEquals(plan(Map.of(), "--server", "h:1", "--pool", "p", "M").memberEnvironment(),
                Map.of("UCX_ERROR_SIGNALS", ""));
    }

    @Test
    public void aUcxErrorSignalsOfTheUsersEnvironmentIsLeftAsItIs() throws UsageException {
        assertEquals(plan(Map.of("UCX_ERROR_SIGNALS", "SIGILL"), "--np", "2", "M").memberEnvironment(), Map.of());
        assertEquals(plan(Map.of("UCX_ERROR_SIGNALS", ""), "M").memberEnvironment(), Map.of());
    }
}
