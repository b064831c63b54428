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
    public void withoutCpTheProgramsClassPathIsClasspathElseTheWorkingDirectoryAsIpl2IplRunHadIt()
            throws UsageException {
        // IPL 2.x: "javac Hello.java; ipl-run Hello" and "CLASSPATH=app.jar ipl-run my.Main" worked.
        List<String> fromEnv = plan(Map.of("CLASSPATH", "app.jar"), "--np", "1", "my.Main")
                .memberCommand(0, "java", "ibis.jar", "127.0.0.1:4");
        assertEquals(fromEnv.get(fromEnv.indexOf("-cp") + 1), "app.jar" + File.pathSeparator + "ibis.jar");
        List<String> cwd = plan(Map.of(), "--np", "1", "my.Main").memberCommand(0, "java", "ibis.jar", "h:4");
        assertEquals(cwd.get(cwd.indexOf("-cp") + 1), "." + File.pathSeparator + "ibis.jar");
        List<String> given = plan(Map.of("CLASSPATH", "other.jar"), "--np", "1", "-cp", "app.jar", "my.Main")
                .memberCommand(0, "java", "ibis.jar", "h:4");
        assertEquals(given.get(given.indexOf("-cp") + 1), "app.jar" + File.pathSeparator + "ibis.jar",
                "-cp wins over CLASSPATH, as with java");
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

    @Test
    public void npWithImplMpiIsOneMpirunWithoutAnEmbeddedServer() throws UsageException {
        LaunchPlan p = plan(Map.of(), "--np", "3", "--impl", "mpi", "-cp", "app.jar", "-Da=b",
                "--jvm-arg", "-Xss4m", "my.Main", "x");
        assertEquals(p.mode(), LaunchPlan.Mode.MPI_JOB);
        assertEquals(p.memberCount(), 1, "the launcher starts one process: mpirun");
        assertEquals(p.poolSize(), Integer.valueOf(3));
        assertFalse(p.needsEmbeddedServer());
        assertTrue(p.prefixOutput());
        assertTrue(p.localJob());
        List<String> cmd = p.mpirunCommand("mpirun.openmpi", "/jdk/bin/java", "ibis.jar", null);
        assertEquals(cmd.subList(0, 8), List.of("mpirun.openmpi", "--oversubscribe", "-np", "3", "--bind-to",
                "none", "--tag-output", "--mca"));
        assertTrue(String.join(" ", cmd).contains("--mca btl_tcp_if_include lo --mca oob_tcp_if_include lo"));
        assertTrue(String.join(" ", cmd).contains("-x UCX_ERROR_SIGNALS -x UCX_NET_DEVICES"));
        int java = cmd.indexOf("/jdk/bin/java");
        assertEquals(cmd.get(java + 1), "--enable-native-access=ALL-UNNAMED");
        assertTrue(cmd.indexOf("-Xss4m") > java);
        assertEquals(cmd.get(cmd.indexOf("-cp") + 1), "app.jar" + File.pathSeparator + "ibis.jar");
        assertTrue(cmd.contains("-Da=b"));
        assertTrue(cmd.contains("-Dibis.implementation=mpi"));
        assertTrue(cmd.contains("-Dibis.pool.size=3"));
        assertFalse(String.join(" ", cmd).contains("ibis.server.address"), "no server: the registry over MPI");
        assertFalse(String.join(" ", cmd).contains("ibis.pool.member"), "each rank sets its own");
        assertEquals(cmd.subList(cmd.size() - 3, cmd.size()),
                List.of(ClusterMemberMain.class.getName(), "my.Main", "x"));
    }

    @Test
    public void mpiJobEnvironmentAddsUcxAndRootConsentOnlyWhereTheUserSetNothing() throws UsageException {
        LaunchPlan p = plan(Map.of(), "--np", "2", "--impl", "mpi", "M");
        assertEquals(p.mpirunEnvironment(false), Map.of("UCX_ERROR_SIGNALS", "", "UCX_NET_DEVICES", "lo"));
        assertEquals(p.mpirunEnvironment(true), Map.of("UCX_ERROR_SIGNALS", "", "UCX_NET_DEVICES", "lo",
                "OMPI_ALLOW_RUN_AS_ROOT", "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"));
        LaunchPlan user = plan(Map.of("UCX_NET_DEVICES", "mlx5_0:1", "UCX_ERROR_SIGNALS", "SIGILL",
                "OMPI_ALLOW_RUN_AS_ROOT", "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"),
                "--np", "2", "--impl", "mpi", "M");
        assertEquals(user.mpirunEnvironment(true), Map.of());
    }

    @Test
    public void anMpiJobOnOtherHostsKeepsItsNetworkAndGetsTheMpirunArguments() throws UsageException {
        LaunchPlan hosts = plan(Map.of(), "--np", "4", "--impl", "mpi", "--mpirun-arg", "--hostfile",
                "--mpirun-arg", "hosts.txt", "M");
        assertFalse(hosts.localJob());
        List<String> cmd = hosts.mpirunCommand("mpirun", "java", "", null);
        assertFalse(cmd.contains("btl_tcp_if_include"));
        assertFalse(cmd.contains("UCX_NET_DEVICES"));
        assertTrue(cmd.indexOf("hosts.txt") < cmd.indexOf("java"), "mpirun's options come before the member");
        assertEquals(hosts.mpirunEnvironment(false), Map.of("UCX_ERROR_SIGNALS", ""));
        assertFalse(plan(Map.of("SLURM_JOB_NODELIST", "n[1-4]"), "--np", "4", "--impl", "mpi", "M").localJob(),
                "inside a batch allocation mpirun uses the allocated hosts");
        assertFalse(plan(Map.of(), "--np", "2", "--impl", "mpi", "--mpirun-arg=--host=a,b", "M").localJob());
    }

    @Test
    public void anMpiJobWithAServerPassesItOn() throws UsageException {
        LaunchPlan p = plan(Map.of(), "--np", "2", "--impl", "mpi", "--server", "h:1", "M");
        assertFalse(p.needsEmbeddedServer());
        assertTrue(p.mpirunCommand("mpirun", "java", "", p.serverAddress()).contains("-Dibis.server.address=h:1"));
    }

    @Test
    public void underMpirunAnMpiMemberNeedsNoServer() throws UsageException {
        Map<String, String> env = Map.of("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "2",
                "OMPI_MCA_ess_base_jobid", "42");
        LaunchPlan p = plan(env, "--impl", "mpi", "M");
        assertEquals(p.mode(), LaunchPlan.Mode.CLUSTER_MEMBER);
        assertFalse(p.needsEmbeddedServer());
        assertEquals(p.serverAddress(), null);
        Map<String, String> props = p.memberProperties(0, p.serverAddress());
        assertFalse(props.containsKey("ibis.server.address"), props.toString());
        assertEquals(props.get("ibis.pool.member"), "1");
        assertEquals(props.get("ibis.pool.size"), "2");
        assertEquals(props.get("ibis.pool.name"), "ompi-42");
        assertEquals(props.get("ibis.implementation"), "mpi");
        // MPICH's Hydra sets no job identifier: every rank falls back to the same name.
        assertEquals(plan(Map.of("PMI_RANK", "0", "PMI_SIZE", "2"), "--impl", "mpi", "M").poolName(),
                LaunchPlan.DEFAULT_MPI_POOL);
    }

    @Test
    public void mpirunArgumentsWithoutAnMpiJobAreAUsageError() {
        UsageException e = expectThrows(UsageException.class,
                () -> plan(Map.of(), "--np", "2", "--mpirun-arg", "-v", "M"));
        assertTrue(e.getMessage().contains("--impl mpi"), e.getMessage());
        expectThrows(UsageException.class, () -> plan(Map.of(), "--impl", "mpi", "--mpirun-arg", "-v", "M"));
    }
}
