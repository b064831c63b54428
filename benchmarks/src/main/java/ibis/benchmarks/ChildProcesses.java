package ibis.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What every process a suite starts gets, whichever implementation it measures: the JVMs get
 * {@value #NATIVE_ACCESS} (a native implementation such as {@code ucx} loads its JNI library from
 * the unnamed module) and the driver's heap, GC and JIT options; JVMs and C tools alike get
 * {@link #ENVIRONMENT_DEFAULTS} unless the environment sets them already.
 */
public final class ChildProcesses {

    /** The JVM option that lets code of the class path load native libraries without warnings. */
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    /** The system property that names the Ibis implementation (as {@code IbisProperties.IMPLEMENTATION}). */
    public static final String IMPLEMENTATION_PROPERTY = "ibis.implementation";

    /** The implementation measured when neither {@code --impl} nor {@value #IMPLEMENTATION_PROPERTY} says. */
    public static final String DEFAULT_IMPLEMENTATION = "tcp";

    /**
     * Environment variables every started process gets unless the environment sets them:
     * {@code UCX_NET_DEVICES=lo}, because benchmark traffic stays on this machine's loopback (the
     * machine's other network devices are not UCX's to use), and {@code UCX_ERROR_SIGNALS} empty,
     * because UCX's own SIGSEGV/SIGBUS handlers must not take the signals the JVM raises on purpose.
     */
    public static final Map<String, String> ENVIRONMENT_DEFAULTS = defaults();

    private ChildProcesses() {
    }

    private static Map<String, String> defaults() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("UCX_NET_DEVICES", "lo");
        m.put("UCX_ERROR_SIGNALS", "");
        return Collections.unmodifiableMap(m);
    }

    /** @return the implementation the suites measure: {@value #IMPLEMENTATION_PROPERTY}, or tcp */
    public static String implementation() {
        String impl = System.getProperty(IMPLEMENTATION_PROPERTY);
        return impl == null || impl.isBlank() ? DEFAULT_IMPLEMENTATION : impl.trim();
    }

    /**
     * The JVM options of a child JVM: {@value #NATIVE_ACCESS}, then the driver's own {@code -X}
     * options (heap, GC, JIT) and a {@code -Djava.library.path} given on its command line, so a child
     * runs and finds native libraries as the driver does.
     *
     * @return the options, in order
     */
    public static List<String> jvmOptions() {
        List<String> options = new ArrayList<>();
        options.add(NATIVE_ACCESS);
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("-X") || arg.startsWith("-Djava.library.path=")) {
                options.add(arg);
            }
        }
        return options;
    }

    /**
     * Adds {@link #ENVIRONMENT_DEFAULTS} to a process's environment where it has no value of its
     * own (a {@link ProcessBuilder}'s starts as a copy of this JVM's, so the user's settings stay).
     *
     * @param environment the environment to complete, e.g. {@link ProcessBuilder#environment()}
     * @return the same map
     */
    public static Map<String, String> completeEnvironment(Map<String, String> environment) {
        ENVIRONMENT_DEFAULTS.forEach(environment::putIfAbsent);
        return environment;
    }

    /**
     * Completes a process builder's environment ({@link #completeEnvironment}).
     *
     * @param builder the builder
     * @return the same builder
     */
    public static ProcessBuilder prepare(ProcessBuilder builder) {
        completeEnvironment(builder.environment());
        return builder;
    }

    /**
     * This JVM's values of the {@link #ENVIRONMENT_DEFAULTS} variables, for reports: {@code NAME=value},
     * or that the driver runs without it ({@code bin/ibis-bench} sets them for the driver too).
     *
     * @return one text per variable
     */
    public static List<String> describeEnvironment() {
        List<String> d = new ArrayList<>();
        ENVIRONMENT_DEFAULTS.forEach((name, value) -> {
            String own = System.getenv(name);
            d.add(own != null ? "`" + name + "=" + own + "`"
                    : "`" + name + "=" + value + "` (child processes only; unset in the driver JVM)");
        });
        return d;
    }
}
