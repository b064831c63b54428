package ibis.run;

import ibis.io.config.InvalidPropertyException;
import ibis.ipl.IbisProperties;
import ibis.registry.RegistryProperties;
import ibis.registry.server.CentralRegistryServer;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The {@code ibis-run} launcher: starts an Ibis program as one member, as a local pool of N members
 * with an embedded registry server, or as one rank of a pool started by {@code mpirun}/{@code srun}.
 * See {@link LaunchPlan} for the rules and {@link #USAGE} for the command line.
 */
public final class IbisRun {

    /** The usage text printed by {@code --help} and after a command-line error. */
    public static final String USAGE = """
            Usage: ibis-run [options] (MainClass | -jar JARFILE) [args...]
                   ibis-run --help | --help-properties

            Starts an Ibis program with every Ibis jar on its class path.

            Options:
              --np N              start a local pool of N member JVMs (ibis.pool.member 0..N-1,
                                  ibis.pool.size N); without --server an embedded registry server
                                  is started on a free loopback port. Output lines are prefixed
                                  with the member number, e.g. "[2] ...". The launcher exits with
                                  the status of the first member that fails and stops the others.
              --pool NAME         pool name (default for a local pool: a fresh unique name)
              --server HOST:PORT  registry server to use (see ibis-server); port 8888 by default
              --impl NICK         network implementation, e.g. tcp (sets ibis.implementation);
                                  with --impl mpi, --np N starts the pool through Open MPI's
                                  mpirun (no registry server: the registry over MPI)
              -cp PATH            class path of the program, put before the Ibis jars
                                  (default: $CLASSPATH, else the working directory)
              -Dkey=value         system property for every member (repeatable)
              --jvm-arg ARG       extra JVM option for every member, e.g. --jvm-arg -Xmx2g;
                                  options of the java command (-Xmx2g, -XX:..., -ea, -verbose:gc,
                                  -javaagent:..., --add-opens ...) may also be given as they are
              -jar JARFILE        run the jar's Main-Class, the jar on the program's class path
              --mpirun-arg ARG    extra mpirun option (with --np N --impl mpi), e.g.
                                  --mpirun-arg --hostfile --mpirun-arg hosts.txt
              --help              this text
              --help-properties   every property of every installed subsystem (and of any
                                  given with -cp or in the plug-in jars of
                                  -Dibis.implementation.path), with its default and meaning

            Without --np one member is started: it joins the pool on --server (then --pool is
            required), or, when no server is given, it is run exactly as with --np 1.
            Started by mpirun or srun (OMPI_COMM_WORLD_RANK/SIZE, PMI_RANK/SIZE or
            SLURM_PROCID/NTASKS set) and without --np, one member is started with the rank and size
            of the job; --server is then required (except with --impl mpi) and the pool name
            defaults to the job's id. Its output lines are passed on whole.
            Every member runs with --enable-native-access=ALL-UNNAMED and, unless the environment
            sets it, UCX_ERROR_SIGNALS= (empty: UCX must not take the JVM's signals).

            Examples:
              ibis-run --np 4 ibis.examples.PoolDemo
              ibis-server --port 8888 &   ibis-run --np 2 --server localhost:8888 ibis.examples.Hello
              mpirun -np 8 ibis-run --server head-node:8888 -cp app.jar my.Main
              ibis-run --np 4 --impl mpi -cp app.jar my.Main
              mpirun -np 8 ibis-run --impl mpi -cp app.jar my.Main
            """;

    private IbisRun() {
    }

    /** slf4j-simple's default level, which {@link #main} sets to {@code warn} unless given. */
    private static final String QUIET_LOG_PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";

    /** Runs the launcher and exits the JVM with its status. */
    public static void main(String[] args) {
        if (System.getProperty(QUIET_LOG_PROPERTY) == null) {
            // As bin/ibis-run: the embedded registry server's info lines are not the user's business.
            System.setProperty(QUIET_LOG_PROPERTY, "warn");
        }
        int status = run(args, System.getenv(), System.out, System.err);
        System.exit(status);
    }

    /**
     * Runs the launcher without exiting.
     *
     * @return the exit status: 0, the first failing member's status, 2 for a usage error, 1 for any
     *         other failure of the launcher itself
     */
    public static int run(String[] args, Map<String, String> environment, PrintStream out, PrintStream err) {
        LaunchOptions options;
        LaunchPlan plan;
        try {
            options = LaunchOptions.parse(Arrays.asList(args));
            if (options.action() == LaunchOptions.Action.HELP) {
                out.print(USAGE);
                out.flush();
                return 0;
            }
            if (options.action() == LaunchOptions.Action.HELP_PROPERTIES) {
                try (URLClassLoader loader = withClassPath(options.classPath())) {
                    String path = options.systemProperties().get(IbisProperties.IMPLEMENTATION_PATH);
                    PropertyHelp.print(out, loader,
                            path != null ? path : System.getProperty(IbisProperties.IMPLEMENTATION_PATH));
                } catch (IOException e) {
                    err.println("ibis-run: " + e.getMessage());
                    return 1;
                }
                out.flush();
                return 0;
            }
            plan = LaunchPlan.resolve(options, environment, IbisRun::freshPoolName);
        } catch (UsageException e) {
            err.println("ibis-run: " + e.getMessage());
            err.println("Try 'ibis-run --help'.");
            return 2;
        }

        String java = System.getProperty(LauncherProperties.JAVA, javaCommand());
        String classPath = System.getProperty("java.class.path", "");
        long grace;
        try {
            grace = LauncherProperties.STOP_GRACE_PROPERTY.get(null);
        } catch (InvalidPropertyException e) {
            err.println("ibis-run: " + e.getMessage());
            return 2;
        }
        String mpirun = null;
        if (plan.mode() == LaunchPlan.Mode.MPI_JOB) {
            mpirun = System.getProperty(LauncherProperties.MPIRUN, mpirunCommand(environment));
        }
        PoolRunner runner = new PoolRunner(plan, java, classPath, grace, mpirun, runsAsRoot(), out, err);
        CentralRegistryServer server = null;
        try {
            String address = plan.serverAddress();
            if (plan.needsEmbeddedServer()) {
                server = new CentralRegistryServer(0, embeddedServerProperties(options));
                server.start();
                address = server.address();
            }
            return runner.run(address);
        } catch (IOException e) {
            err.println("ibis-run: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("ibis-run: interrupted");
            return 1;
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    /**
     * The launcher's class loader extended with the user's {@code -cp} entries, so that
     * {@code --help-properties -cp plugin.jar} also lists the property tables of a plug-in.
     */
    static URLClassLoader withClassPath(String classPath) throws IOException {
        List<URL> urls = new ArrayList<>();
        if (classPath != null) {
            for (String entry : classPath.split(File.pathSeparator)) {
                if (!entry.isEmpty()) {
                    urls.add(new File(entry).toURI().toURL());
                }
            }
        }
        return new URLClassLoader(urls.toArray(new URL[0]), IbisRun.class.getClassLoader());
    }

    /**
     * Properties of the embedded registry server: the user's {@code -D} options (so registry settings
     * such as heartbeat timeouts apply to the server too), listening on loopback only unless the user
     * says otherwise.
     */
    static Properties embeddedServerProperties(LaunchOptions options) {
        Properties props = new Properties();
        props.putAll(options.systemProperties());
        if (!props.containsKey(RegistryProperties.SERVER_BIND)) {
            props.setProperty(RegistryProperties.SERVER_BIND, "127.0.0.1");
        }
        return props;
    }

    /** The java executable running this launcher, so the members run on the same JDK. */
    static String javaCommand() {
        return ProcessHandle.current().info().command()
                .filter(c -> new File(c).canExecute())
                .orElse(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    }

    /**
     * Open MPI's mpirun: {@code mpirun.openmpi} (Debian's name, which stays Open MPI's when the
     * {@code mpirun} alternative points to MPICH) when it is on the PATH, else {@code mpirun}.
     */
    static String mpirunCommand(Map<String, String> environment) {
        String path = environment.getOrDefault("PATH", "");
        for (String folder : path.split(File.pathSeparator)) {
            if (!folder.isEmpty() && new File(folder, "mpirun.openmpi").canExecute()) {
                return "mpirun.openmpi";
            }
        }
        return "mpirun";
    }

    /** True when this process runs as root (uid 0): Open MPI then needs OMPI_ALLOW_RUN_AS_ROOT. */
    static boolean runsAsRoot() {
        try {
            Object uid = java.nio.file.Files.getAttribute(java.nio.file.Path.of("/proc/self"), "unix:uid");
            return Integer.valueOf(0).equals(uid);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    /** A pool name no other launcher on this or another machine picks at the same time. */
    static String freshPoolName() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "localhost";
        }
        return "ibis-run-" + host + "-" + ProcessHandle.current().pid() + "-"
                + Long.toString(System.currentTimeMillis(), 36);
    }
}
