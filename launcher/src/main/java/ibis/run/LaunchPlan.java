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
 * <p>The three ways to run:
 * <ul>
 * <li>{@code --np N}: a local pool. N member JVMs with {@code ibis.pool.member} 0..N-1,
 * {@code ibis.pool.size=N}, the pool name from {@code --pool} or a generated unique one, and the
 * registry at {@code --server}, or an embedded registry server on a free loopback port when no server
 * is given. Output lines are prefixed with the member number. Cluster variables are ignored.</li>
 * <li>No {@code --np}, started by {@code mpirun}/{@code srun} (see {@link ClusterRank}): exactly one
 * member with {@code ibis.pool.member} = rank and {@code ibis.pool.size} = size. The server address
 * is required; the pool name is {@code --pool} or derived from the job's identifier. Output passes
 * through unchanged (the cluster launcher labels it).</li>
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

    private final Mode mode;
    private final LaunchOptions options;
    private final int memberCount;
    private final int firstMemberIndex;
    private final Integer poolSize;
    private final String poolName;
    private final String serverAddress;
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
            if (options.serverAddress() == null) {
                throw new UsageException("started by " + r.source() + " as rank " + r.rank() + " of "
                        + r.size() + ": give the registry server with --server HOST:PORT"
                        + " (start one with bin/ibis-server)");
            }
            String pool = options.poolName();
            if (pool == null) {
                pool = ClusterRank.jobPoolName(environment).orElseThrow(() -> new UsageException(
                        "started by " + r.source() + " but no job identifier found: give --pool NAME"));
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

    /** True when the launcher must start an embedded registry server (no address was given). */
    public boolean needsEmbeddedServer() {
        return serverAddress == null;
    }

    /** The registry server address given by the user, or null when an embedded one is started. */
    public String serverAddress() {
        return serverAddress;
    }

    /** True when output lines get the member number in front (a local pool). */
    public boolean prefixOutput() {
        return mode == Mode.LOCAL_POOL;
    }

    /** The pool index of the i-th member this launcher starts, or -1 when it has none. */
    public int memberIndex(int localIndex) {
        return firstMemberIndex < 0 ? -1 : firstMemberIndex + localIndex;
    }

    /**
     * The system properties of the i-th member: the launcher's own log level ({@link #PASSED_ON}),
     * the user's {@code -D} options, then the pool properties set by the launcher.
     *
     * @param server the registry address the members use (the given one or the embedded server's)
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
        props.put(LaunchOptions.SERVER_ADDRESS, server);
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
        command.add(joinClassPath(options.classPath(), launcherClassPath));
        for (Map.Entry<String, String> e : memberProperties(localIndex, server).entrySet()) {
            command.add("-D" + e.getKey() + "=" + e.getValue());
        }
        command.add(options.mainClass());
        command.addAll(options.programArguments());
        return command;
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
