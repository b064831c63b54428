package ibis.run;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What {@code ibis-run} will start, decided from the command line and the environment before any
 * process exists (so the decision can be tested on its own).
 *
 * <p>The ways to run:
 * <ul>
 * <li>{@code --np N}: a local pool. N member JVMs with {@code ibis.pool.member} 0..N-1,
 * {@code ibis.pool.size=N}, the pool name from {@code --pool} or a generated unique one, and the
 * registry at {@code --server}, or an embedded registry server on a free loopback port when no server
 * is given. Output lines are prefixed with the member number. Cluster variables are ignored.</li>
 * <li>{@code --np N --impl mpi}: an MPI job. The launcher starts Open MPI's {@code mpirun} with N
 * ranks, each running the member's JVM directly ({@link ClusterMemberMain} sets
 * {@code ibis.pool.member} from the rank); no registry server (the members use the registry over
 * MPI unless {@code --server} is given). mpirun's {@code --tag-output} lets the launcher put every
 * rank's lines back together whole and prefix them with the rank ({@link TaggedOutputPump}).</li>
 * <li>No {@code --np}, started by {@code mpirun}/{@code srun} (see {@link ClusterRank}): exactly one
 * member with {@code ibis.pool.member} = rank and {@code ibis.pool.size} = size. The server address
 * is required, except with {@code --impl mpi} (the registry over MPI needs none); the pool name is
 * {@code --pool} or derived from the job's identifier. Output passes through without a prefix (the
 * cluster launcher labels it), each line in one write.</li>
 * <li>Neither: one member. With a server address it joins that server's pool (the pool name is then
 * required, the pool size is whatever {@code -Dibis.pool.size} says); without one it is exactly
 * {@code --np 1}.</li>
 * </ul>
 */
public final class LaunchPlan {

    /** Which of the three ways applies. */
    public enum Mode {
        /** {@code --np N}, or a lone member without a server. */
        LOCAL_POOL,
        /** {@code --np N --impl mpi}: one {@code mpirun} that starts the N members. */
        MPI_JOB,
        /** One member of a pool started by a cluster launcher. */
        CLUSTER_MEMBER,
        /** One member joining a pool on an existing server. */
        SINGLE_MEMBER
    }

    /**
     * Launcher system properties that the members inherit unless the command line sets them: the
     * log level, so that {@code JAVA_OPTS} quietens the whole pool at once.
     */
    static final List<String> PASSED_ON = List.of("org.slf4j.simpleLogger.defaultLogLevel");

    /**
     * Environment variables every member gets unless the launcher's environment sets them. UCX
     * installs its own SIGSEGV/SIGBUS handlers unless {@code UCX_ERROR_SIGNALS} is empty; the JVM
     * uses those signals itself (null checks, safepoints), so a member that loads UCX must not let
     * UCX take them. Harmless for members that never load UCX.
     */
    static final Map<String, String> MEMBER_ENVIRONMENT_DEFAULTS = Map.of("UCX_ERROR_SIGNALS", "");

    /** The pool name of an MPI member when neither {@code --pool} nor a job identifier gives one. */
    static final String DEFAULT_MPI_POOL = "mpi-world";

    /** mpirun options that place ranks on other hosts: with one of them the job is not local. */
    static final List<String> HOST_OPTIONS = List.of("--host", "-host", "-H", "--hostfile", "-hostfile",
            "--machinefile", "-machinefile", "--default-hostfile", "-default-hostfile");

    /** Set inside a batch job's allocation, where mpirun places ranks on the allocated hosts. */
    static final List<String> ALLOCATION_VARIABLES = List.of("SLURM_JOB_NODELIST", "PBS_NODEFILE", "LSB_HOSTS",
            "PE_HOSTFILE", "OAR_NODEFILE");

    private final Mode mode;
    private final LaunchOptions options;
    private final int memberCount;
    private final int firstMemberIndex;
    private final Integer poolSize;
    private final String poolName;
    private final String serverAddress;
    private final boolean embeddedServer;
    private final Map<String, String> environment;
    private final Map<String, String> memberEnvironment;

    private LaunchPlan(Mode mode, LaunchOptions options, int memberCount, int firstMemberIndex,
            Integer poolSize, String poolName, String serverAddress, Map<String, String> environment) {
        this.mode = mode;
        this.options = options;
        this.memberCount = memberCount;
        this.firstMemberIndex = firstMemberIndex;
        this.poolSize = poolSize;
        this.poolName = poolName;
        this.serverAddress = serverAddress;
        this.embeddedServer = serverAddress == null && mode == Mode.LOCAL_POOL;
        this.environment = Map.copyOf(environment);
        Map<String, String> added = new LinkedHashMap<>();
        MEMBER_ENVIRONMENT_DEFAULTS.forEach((name, value) -> {
            if (!environment.containsKey(name)) {
                added.put(name, value);
            }
        });
        this.memberEnvironment = Map.copyOf(added);
    }

    /**
     * Decides what to start.
     *
     * @param options the parsed command line (action {@link LaunchOptions.Action#RUN})
     * @param environment the launcher's environment, for cluster rank variables and job identifiers, and to
     *        tell which of {@link #MEMBER_ENVIRONMENT_DEFAULTS} the user set already
     * @param poolNameGenerator makes a fresh unique pool name when none is given for a local pool
     * @throws UsageException when required information is missing (server or pool name for a cluster
     *         member, pool name for a single member of an existing server) or the environment is bad
     */
    public static LaunchPlan resolve(LaunchOptions options, Map<String, String> environment,
            Supplier<String> poolNameGenerator) throws UsageException {
        if (options.processCount() != null) {
            int n = options.processCount();
            String pool = options.poolName() != null ? options.poolName() : poolNameGenerator.get();
            if (options.mpi()) {
                // One process, mpirun; the rank index comes from ClusterMemberMain in each member.
                return new LaunchPlan(Mode.MPI_JOB, options, 1, -1, n, pool, options.serverAddress(), environment);
            }
            return new LaunchPlan(Mode.LOCAL_POOL, options, n, 0, n, pool, options.serverAddress(), environment);
        }
        Optional<ClusterRank> rank;
        try {
            rank = ClusterRank.detect(environment);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (rank.isPresent()) {
            ClusterRank r = rank.get();
            boolean mpi = options.mpi();
            if (options.serverAddress() == null && !mpi) {
                throw new UsageException("started by " + r.source() + " as rank " + r.rank() + " of "
                        + r.size() + ": give the registry server with --server HOST:PORT"
                        + " (start one with bin/ibis-server), or use --impl " + LaunchOptions.MPI_IMPLEMENTATION
                        + ", whose registry over MPI needs no server");
            }
            String pool = options.poolName();
            if (pool == null) {
                Optional<String> job = ClusterRank.jobPoolName(environment);
                if (mpi) {
                    // The pool is MPI_COMM_WORLD: every rank computes the same fallback.
                    pool = job.orElse(DEFAULT_MPI_POOL);
                } else {
                    pool = job.orElseThrow(() -> new UsageException(
                            "started by " + r.source() + " but no job identifier found: give --pool NAME"));
                }
            }
            return new LaunchPlan(Mode.CLUSTER_MEMBER, options, 1, r.rank(), r.size(), pool,
                    options.serverAddress(), environment);
        }
        if (options.serverAddress() != null) {
            if (options.poolName() == null) {
                throw new UsageException("a member joining the server " + options.serverAddress()
                        + " needs the pool's name: give --pool NAME (or --np N for a local pool)");
            }
            Integer size = null;
            String sizeText = options.systemProperties().get(LaunchOptions.POOL_SIZE);
            if (sizeText != null) {
                try {
                    size = Integer.parseInt(sizeText.trim());
                } catch (NumberFormatException e) {
                    throw new UsageException("-D" + LaunchOptions.POOL_SIZE + " is not a number: " + sizeText);
                }
            }
            return new LaunchPlan(Mode.SINGLE_MEMBER, options, 1, -1, size, options.poolName(),
                    options.serverAddress(), environment);
        }
        String pool = options.poolName() != null ? options.poolName() : poolNameGenerator.get();
        return new LaunchPlan(Mode.LOCAL_POOL, options, 1, 0, 1, pool, null, environment);
    }

    /** Which way the program is run. */
    public Mode mode() {
        return mode;
    }

    /** How many member JVMs this launcher starts. */
    public int memberCount() {
        return memberCount;
    }

    /** The pool size passed to the members, or null when left to the user (open world). */
    public Integer poolSize() {
        return poolSize;
    }

    /** The pool name passed to the members. */
    public String poolName() {
        return poolName;
    }

    /**
     * True when the launcher must start an embedded registry server: a local pool without a server
     * address (an MPI job or MPI rank without one uses the registry over MPI instead).
     */
    public boolean needsEmbeddedServer() {
        return embeddedServer;
    }

    /** The registry server address given by the user, or null when none was given. */
    public String serverAddress() {
        return serverAddress;
    }

    /** True when output lines get the member number in front (a local pool, an MPI job). */
    public boolean prefixOutput() {
        return mode == Mode.LOCAL_POOL || mode == Mode.MPI_JOB;
    }

    /**
     * True when every rank of an MPI job runs on this host: no {@link #HOST_OPTIONS host option} in
     * the {@code --mpirun-arg}s and no batch allocation ({@link #ALLOCATION_VARIABLES}) in the
     * environment. Only then are MPI's and UCX's sockets restricted to {@code lo}.
     */
    public boolean localJob() {
        for (String arg : options.mpirunArguments()) {
            for (String option : HOST_OPTIONS) {
                if (arg.equals(option) || arg.startsWith(option + "=")) {
                    return false;
                }
            }
        }
        for (String variable : ALLOCATION_VARIABLES) {
            if (environment.containsKey(variable)) {
                return false;
            }
        }
        return true;
    }

    /** The pool index of the i-th member this launcher starts, or -1 when it has none. */
    public int memberIndex(int localIndex) {
        return firstMemberIndex < 0 ? -1 : firstMemberIndex + localIndex;
    }

    /**
     * The system properties of the i-th member: the launcher's own log level ({@link #PASSED_ON}),
     * the user's {@code -D} options, then the pool properties set by the launcher.
     *
     * @param server the registry address the members use (the given one or the embedded server's),
     *        or null when there is none (the registry over MPI)
     */
    public Map<String, String> memberProperties(int localIndex, String server) {
        Map<String, String> props = new LinkedHashMap<>();
        for (String name : PASSED_ON) {
            String value = System.getProperty(name);
            if (value != null) {
                props.put(name, value);
            }
        }
        props.putAll(options.systemProperties());
        props.put(LaunchOptions.POOL_NAME, poolName);
        if (poolSize != null) {
            props.put(LaunchOptions.POOL_SIZE, Integer.toString(poolSize));
        }
        if (server != null) {
            props.put(LaunchOptions.SERVER_ADDRESS, server);
        }
        int index = memberIndex(localIndex);
        if (index >= 0) {
            props.put(LaunchOptions.POOL_MEMBER, Integer.toString(index));
        }
        if (options.implementation() != null) {
            props.put(LaunchOptions.IMPLEMENTATION, options.implementation());
        }
        return props;
    }

    /**
     * The environment variables the launcher adds to its own environment for every member:
     * {@code UCX_ERROR_SIGNALS} empty ({@link #MEMBER_ENVIRONMENT_DEFAULTS}) unless the launcher's
     * environment sets it, even to a value of its own.
     */
    public Map<String, String> memberEnvironment() {
        return memberEnvironment;
    }

    /**
     * The command line of the i-th member JVM.
     *
     * @param javaCommand the java executable
     * @param launcherClassPath the launcher's own class path (the Ibis jars), may be empty
     * @param server the registry address the members use
     */
    public List<String> memberCommand(int localIndex, String javaCommand, String launcherClassPath,
            String server) {
        List<String> command = new ArrayList<>();
        command.add(javaCommand);
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(options.jvmArguments());
        command.add("-cp");
        // The program's own class path first, so its classes and chosen versions win; the Ibis jars after.
        command.add(joinClassPath(programClassPath(), launcherClassPath));
        for (Map.Entry<String, String> e : memberProperties(localIndex, server).entrySet()) {
            command.add("-D" + e.getKey() + "=" + e.getValue());
        }
        if (mode == Mode.MPI_JOB) {
            // Sets ibis.pool.member to the rank mpirun gave this process, then runs the program's main.
            command.add(ClusterMemberMain.class.getName());
        }
        command.add(options.mainClass());
        command.addAll(options.programArguments());
        return command;
    }

    /**
     * The command of an MPI job ({@link Mode#MPI_JOB}): Open MPI's {@code mpirun} with N ranks
     * ({@code --oversubscribe}: more ranks than cores is allowed; {@code --bind-to none}: ranks are
     * not pinned to cores other processes use too), {@code --tag-output} (so the launcher can put
     * each rank's lines back together), for a {@link #localJob() local job} MPI's sockets on
     * {@code lo}, the UCX variables exported to every rank ({@code -x}), the {@code --mpirun-arg}s,
     * then the member command ({@link #memberCommand}).
     *
     * @param mpirun the mpirun executable (must be Open MPI's)
     * @param server the registry server address, or null for the registry over MPI
     */
    public List<String> mpirunCommand(String mpirun, String javaCommand, String launcherClassPath, String server) {
        if (mode != Mode.MPI_JOB) {
            throw new IllegalStateException("not an MPI job: " + mode);
        }
        List<String> command = new ArrayList<>(List.of(mpirun, "--oversubscribe", "-np",
                Integer.toString(poolSize), "--bind-to", "none", "--tag-output"));
        if (localJob()) {
            command.addAll(List.of("--mca", "btl_tcp_if_include", "lo", "--mca", "oob_tcp_if_include", "lo"));
        }
        Map<String, String> jobEnvironment = mpirunEnvironment(false);
        for (String variable : List.of("UCX_ERROR_SIGNALS", "UCX_NET_DEVICES")) {
            if (jobEnvironment.containsKey(variable) || environment.containsKey(variable)) {
                command.addAll(List.of("-x", variable));
            }
        }
        command.addAll(options.mpirunArguments());
        command.addAll(memberCommand(0, javaCommand, launcherClassPath, server));
        return command;
    }

    /**
     * The variables the launcher adds to its environment for {@code mpirun} (which passes them to the
     * ranks), each only when the launcher's environment does not set it: {@code UCX_ERROR_SIGNALS}
     * empty; for a {@link #localJob() local job} {@code UCX_NET_DEVICES=lo}; when the launcher runs
     * as root, {@code OMPI_ALLOW_RUN_AS_ROOT=1} and {@code OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1}
     * (Open MPI refuses to run as root without them).
     */
    public Map<String, String> mpirunEnvironment(boolean root) {
        Map<String, String> added = new LinkedHashMap<>(memberEnvironment);
        if (localJob() && !environment.containsKey("UCX_NET_DEVICES")) {
            added.put("UCX_NET_DEVICES", "lo");
        }
        if (root) {
            for (String variable : List.of("OMPI_ALLOW_RUN_AS_ROOT", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM")) {
                if (!environment.containsKey(variable)) {
                    added.put(variable, "1");
                }
            }
        }
        return added;
    }

    /**
     * The program's class path: {@code -cp}, else the launcher's {@code CLASSPATH}, else the
     * working directory, as {@code java} decides it (and as IPL 2.x's {@code ipl-run}, which put
     * {@code $CLASSPATH} before the Ibis jars, did); a member's {@code -cp} would hide both.
     */
    String programClassPath() {
        if (options.classPath() != null) {
            return options.classPath();
        }
        String fromEnvironment = environment.get("CLASSPATH");
        return fromEnvironment != null && !fromEnvironment.isEmpty() ? fromEnvironment : ".";
    }

    static String joinClassPath(String first, String second) {
        boolean hasFirst = first != null && !first.isEmpty();
        boolean hasSecond = second != null && !second.isEmpty();
        if (hasFirst && hasSecond) {
            return first + File.pathSeparator + second;
        }
        return hasFirst ? first : hasSecond ? second : ".";
    }
}
