package ibis.run;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The parsed command line of {@code ibis-run}:
 * {@code [--np N] [--pool NAME] [--server HOST:PORT] [--impl NICK] [-cp PATH] [-Dkey=value ...]
 * [--jvm-arg ARG ...] [--mpirun-arg ARG ...] [JVM options] (MainClass | -jar JARFILE) [args]}.
 *
 * <p>Options end at the first argument that does not start with {@code -} (the main class), at
 * {@code -jar JARFILE} (the main class named by the jar's manifest, the jar put on the program's
 * class path) or at {@code --}; everything after the main class belongs to the program. Options of
 * the {@code java} command itself ({@code -Xmx1g}, {@code -XX:...}, {@code -ea}, {@code -verbose:gc},
 * {@code -javaagent:...}, {@code --add-opens ...} and the like) go to every member's JVM as
 * {@code --jvm-arg} does, so a command line written for {@code java}, or for IPL 2.x's launcher, which
 * passed them on, works unchanged. A {@code -D} option for one of
 * the properties that have their own option ({@code ibis.pool.name}, {@code ibis.server.address},
 * {@code ibis.implementation}) is the same as that option; the last one given wins.
 */
public final class LaunchOptions {

    /** The property every member gets with its index in the pool, 0..N-1. */
    public static final String POOL_MEMBER = "ibis.pool.member";

    static final String POOL_NAME = "ibis.pool.name";
    static final String POOL_SIZE = "ibis.pool.size";
    static final String SERVER_ADDRESS = "ibis.server.address";
    static final String IMPLEMENTATION = "ibis.implementation";
    static final String REGISTRY_IMPLEMENTATION = "ibis.registry.implementation";

    /** The nickname of the MPI implementation: with it, {@code --np N} starts the pool through mpirun. */
    public static final String MPI_IMPLEMENTATION = "mpi";

    /** What the user asked the launcher to do. */
    public enum Action {
        /** Start the program. */
        RUN,
        /** Print the usage. */
        HELP,
        /** Print every property of every installed subsystem. */
        HELP_PROPERTIES
    }

    private final Action action;
    private final Integer processCount;
    private final String poolName;
    private final String serverAddress;
    private final String implementation;
    private final String classPath;
    private final Map<String, String> systemProperties;
    private final List<String> jvmArguments;
    private final List<String> mpirunArguments;
    private final String mainClass;
    private final List<String> programArguments;

    private LaunchOptions(Action action, Integer processCount, String poolName, String serverAddress,
            String implementation, String classPath, Map<String, String> systemProperties,
            List<String> jvmArguments, List<String> mpirunArguments, String mainClass,
            List<String> programArguments) {
        this.action = action;
        this.processCount = processCount;
        this.poolName = poolName;
        this.serverAddress = serverAddress;
        this.implementation = implementation;
        this.classPath = classPath;
        this.systemProperties = Collections.unmodifiableMap(new LinkedHashMap<>(systemProperties));
        this.jvmArguments = List.copyOf(jvmArguments);
        this.mpirunArguments = List.copyOf(mpirunArguments);
        this.mainClass = mainClass;
        this.programArguments = List.copyOf(programArguments);
    }

    /** Options of the {@code java} command that take their value as the next argument. */
    private static final Set<String> JVM_OPTIONS_WITH_VALUE = Set.of("--add-opens", "--add-exports", "--add-reads",
            "--add-modules", "--limit-modules", "--patch-module", "--module-path", "--upgrade-module-path",
            "--enable-native-access");

    /** Whether {@code arg} is an option of the {@code java} command (not one of the launcher's). */
    static boolean isJvmOption(String arg) {
        String name = arg.indexOf('=') > 0 && arg.startsWith("--") ? arg.substring(0, arg.indexOf('=')) : arg;
        return arg.startsWith("-X") || arg.startsWith("-agentlib:") || arg.startsWith("-agentpath:")
                || arg.startsWith("-javaagent:") || arg.equals("-ea") || arg.startsWith("-ea:")
                || arg.equals("-da") || arg.startsWith("-da:") || arg.startsWith("-enableassertions")
                || arg.startsWith("-disableassertions") || arg.equals("-esa") || arg.equals("-dsa")
                || arg.equals("-enablesystemassertions") || arg.equals("-disablesystemassertions")
                || arg.equals("-verbose") || arg.startsWith("-verbose:") || arg.equals("-server")
                || arg.equals("-client") || arg.equals("--enable-preview") || arg.startsWith("--illegal-access")
                || JVM_OPTIONS_WITH_VALUE.contains(name);
    }

    /**
     * The main class of a jar given with {@code -jar}, from its manifest, as {@code java -jar} finds it.
     *
     * @throws UsageException when the jar cannot be read or names no main class
     */
    static String mainClassOfJar(String jar) throws UsageException {
        try (JarFile file = new JarFile(jar)) {
            Manifest manifest = file.getManifest();
            String main = manifest == null ? null : manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
            if (main == null || main.isBlank()) {
                throw new UsageException("-jar " + jar + ": the jar's manifest has no Main-Class attribute;"
                        + " give the main class instead: -cp " + jar + " my.Main");
            }
            return main.trim();
        } catch (IOException e) {
            throw new UsageException("-jar " + jar + ": cannot read the jar (" + e.getMessage() + ")");
        }
    }

    /**
     * Parses the launcher's arguments.
     *
     * @throws UsageException when an option is unknown, lacks its value or has an invalid value, or
     *         when no main class is given for a run
     */
    public static LaunchOptions parse(List<String> args) throws UsageException {
        Action action = Action.RUN;
        Integer np = null;
        String pool = null;
        String server = null;
        String impl = null;
        String cp = null;
        Map<String, String> props = new LinkedHashMap<>();
        List<String> jvmArgs = new ArrayList<>();
        List<String> mpirunArgs = new ArrayList<>();
        String main = null;
        List<String> programArgs = new ArrayList<>();

        int i = 0;
        while (i < args.size()) {
            String arg = args.get(i);
            if (arg.equals("--")) {
                i++;
                if (i < args.size()) {
                    main = args.get(i++);
                }
                break;
            }
            if (!arg.startsWith("-") || arg.equals("-")) {
                main = arg;
                i++;
                break;
            }
            String name = arg;
            String inlineValue = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                inlineValue = arg.substring(eq + 1);
            }
            switch (name) {
                case "-h", "-help", "--help" -> {
                    noInlineValue(name, inlineValue);
                    action = Action.HELP;
                    i++;
                }
                case "--help-properties" -> {
                    noInlineValue(name, inlineValue);
                    if (action != Action.HELP) {
                        action = Action.HELP_PROPERTIES;
                    }
                    i++;
                }
                case "--np", "-np" -> {
                    String value = inlineValue != null ? inlineValue : valueAfter(args, i, name);
                    np = parseProcessCount(value);
                    i += inlineValue != null ? 1 : 2;
                }
                case "--pool" -> {
                    pool = nonEmpty(name, inlineValue != null ? inlineValue : valueAfter(args, i, name));
                    i += inlineValue != null ? 1 : 2;
                }
                case "--server" -> {
                    server = nonEmpty(name, inlineValue != null ? inlineValue : valueAfter(args, i, name));
                    i += inlineValue != null ? 1 : 2;
                }
                case "--impl" -> {
                    impl = nonEmpty(name, inlineValue != null ? inlineValue : valueAfter(args, i, name));
                    i += inlineValue != null ? 1 : 2;
                }
                case "-cp", "-classpath", "--class-path" -> {
                    String value = inlineValue != null ? inlineValue : valueAfter(args, i, name);
                    cp = cp == null || cp.isEmpty() ? value : cp + java.io.File.pathSeparator + value;
                    i += inlineValue != null ? 1 : 2;
                }
                case "--jvm-arg" -> {
                    jvmArgs.add(inlineValue != null ? inlineValue : valueAfter(args, i, name));
                    i += inlineValue != null ? 1 : 2;
                }
                case "--mpirun-arg" -> {
                    mpirunArgs.add(inlineValue != null ? inlineValue : valueAfter(args, i, name));
                    i += inlineValue != null ? 1 : 2;
                }
                case "-jar" -> {
                    String jar = valueAfter(args, i, name);
                    main = mainClassOfJar(jar);
                    cp = cp == null || cp.isEmpty() ? jar : jar + File.pathSeparator + cp;
                    i += 2;
                }
                default -> {
                    if (arg.startsWith("-D") && arg.length() > 2) {
                        String definition = arg.substring(2);
                        int sep = definition.indexOf('=');
                        String key = sep < 0 ? definition : definition.substring(0, sep);
                        String value = sep < 0 ? "" : definition.substring(sep + 1);
                        if (key.isEmpty()) {
                            throw new UsageException("property name missing in " + arg);
                        }
                        switch (key) {
                            case POOL_NAME -> pool = nonEmpty(arg, value);
                            case SERVER_ADDRESS -> server = nonEmpty(arg, value);
                            case IMPLEMENTATION -> impl = nonEmpty(arg, value);
                            default -> props.put(key, value);
                        }
                        i++;
                    } else if (isJvmOption(arg)) {
                        // An option of the java command: every member's JVM gets it, with its value.
                        jvmArgs.add(arg);
                        if (JVM_OPTIONS_WITH_VALUE.contains(name) && inlineValue == null) {
                            jvmArgs.add(valueAfter(args, i, name));
                            i++;
                        }
                        i++;
                    } else {
                        throw new UsageException("unknown option " + arg + " (options of the java command for the"
                                + " members can be given with --jvm-arg " + arg + ")");
                    }
                }
            }
            if (main != null) {
                break; // -jar JARFILE: the rest belongs to the program
            }
        }
        while (i < args.size()) {
            programArgs.add(args.get(i++));
        }

        if (action == Action.RUN) {
            if (main == null) {
                throw new UsageException("no main class given");
            }
            if (np != null && props.containsKey(POOL_SIZE)
                    && !props.get(POOL_SIZE).equals(Integer.toString(np))) {
                throw new UsageException("--np " + np + " contradicts -D" + POOL_SIZE + "="
                        + props.get(POOL_SIZE));
            }
            if (np != null && props.containsKey(POOL_MEMBER)) {
                throw new UsageException("-D" + POOL_MEMBER + " cannot be combined with --np:"
                        + " the launcher numbers the members itself");
            }
            if (!mpirunArgs.isEmpty() && (np == null || !MPI_IMPLEMENTATION.equals(impl))) {
                throw new UsageException("--mpirun-arg needs --np N --impl " + MPI_IMPLEMENTATION
                        + " (only then does ibis-run start mpirun itself)");
            }
        }
        return new LaunchOptions(action, np, pool, server, impl, cp, props, jvmArgs, mpirunArgs, main,
                programArgs);
    }

    private static void noInlineValue(String name, String inlineValue) throws UsageException {
        if (inlineValue != null) {
            throw new UsageException(name + " takes no value");
        }
    }

    private static String valueAfter(List<String> args, int index, String option) throws UsageException {
        if (index + 1 >= args.size()) {
            throw new UsageException(option + " needs a value");
        }
        return args.get(index + 1);
    }

    private static String nonEmpty(String option, String value) throws UsageException {
        if (value.isBlank()) {
            throw new UsageException(option + " needs a non-empty value");
        }
        return value;
    }

    private static int parseProcessCount(String value) throws UsageException {
        int n;
        try {
            n = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("--np needs a whole number, not '" + value + "'");
        }
        if (n < 1) {
            throw new UsageException("--np needs at least 1 process, not " + n);
        }
        return n;
    }

    /** What to do: run the program or print help. */
    public Action action() {
        return action;
    }

    /** The {@code --np} value, or null when not given. */
    public Integer processCount() {
        return processCount;
    }

    /** The pool name ({@code --pool} or {@code -Dibis.pool.name}), or null. */
    public String poolName() {
        return poolName;
    }

    /** The registry server address ({@code --server} or {@code -Dibis.server.address}), or null. */
    public String serverAddress() {
        return serverAddress;
    }

    /** The implementation nickname ({@code --impl} or {@code -Dibis.implementation}), or null. */
    public String implementation() {
        return implementation;
    }

    /** The user's class path ({@code -cp}, several joined with the path separator), or null. */
    public String classPath() {
        return classPath;
    }

    /** The user's other {@code -D} properties, in the order given. */
    public Map<String, String> systemProperties() {
        return systemProperties;
    }

    /** Extra JVM arguments for every member ({@code --jvm-arg}). */
    public List<String> jvmArguments() {
        return jvmArguments;
    }

    /** Extra arguments for {@code mpirun} ({@code --mpirun-arg}), placed before the member's command. */
    public List<String> mpirunArguments() {
        return mpirunArguments;
    }

    /** True when the implementation is MPI ({@code --impl mpi}). */
    public boolean mpi() {
        return MPI_IMPLEMENTATION.equals(implementation);
    }

    /** The program's main class, or null for the help actions. */
    public String mainClass() {
        return mainClass;
    }

    /** The arguments after the main class. */
    public List<String> programArguments() {
        return programArguments;
    }
}
