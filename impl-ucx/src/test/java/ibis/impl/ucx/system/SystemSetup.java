package ibis.impl.ucx.system;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the system tests share: the implementation under test, the child JVMs' options and
 * environment.
 *
 * <p>The implementation is {@code ucx} unless the system property {@value #IMPLEMENTATION_PROPERTY}
 * names another (for example {@code tcp}, when impl-tcp is on the class path, to check the tests
 * themselves).
 */
final class SystemSetup {

    /** System property naming the implementation the system tests run (default {@code ucx}). */
    static final String IMPLEMENTATION_PROPERTY = "systemtest.implementation";

    private SystemSetup() {
    }

    /** The implementation under test. */
    static String implementation() {
        return System.getProperty(IMPLEMENTATION_PROPERTY, "ucx");
    }

    /** Whether the implementation under test is ucx. */
    static boolean ucx() {
        return implementation().equals("ucx");
    }

    /** The options of every child JVM, then {@code extra}. */
    static List<String> jvmOptions(String... extra) {
        List<String> options = new ArrayList<>(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:-UsePerfData",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
        options.addAll(List.of(extra));
        return options;
    }

    /**
     * The environment of a child JVM on this host: UCX uses the loopback device only (the machine's
     * other interfaces must never carry test traffic) and leaves the JVM's signal handlers alone.
     */
    static Map<String, String> hostEnvironment() {
        return Map.of("UCX_NET_DEVICES", "lo", "UCX_ERROR_SIGNALS", "");
    }

    /**
     * The environment of a child JVM in a test namespace: UCX's tcp transport only (the members of
     * a namespace pool are "hosts" without shared memory), over the namespace's veth device only.
     */
    static Map<String, String> namespaceEnvironment(NamespacePair.Side side) {
        return Map.of("UCX_TLS", "tcp", "UCX_NET_DEVICES", side.device(), "UCX_ERROR_SIGNALS", "");
    }

    /**
     * Starts a pool member on this host ({@link SystemPeer} {@code role} with the server, pool and
     * implementation, then {@code args}) and adds it to {@code children}.
     */
    static Child startMember(List<Child> children, String name, List<String> jvmOptions, String role,
            String server, String pool, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of(role, server, pool, implementation()));
        all.addAll(List.of(args));
        Child child = Child.start(name, List.of(), hostEnvironment(), jvmOptions, SystemPeer.class,
                all.toArray(new String[0]));
        children.add(child);
        return child;
    }

    /** Asserts that a member's {@code STARTED} line names an Ibis of the implementation under test. */
    static void assertImplementation(Child member) throws InterruptedException {
        String started = member.await("STARTED", 60);
        if (!started.startsWith("ibis.impl." + implementation() + ".")) {
            throw new AssertionError(member + " runs " + started + ", not " + implementation() + ":\n"
                    + member.output());
        }
    }

    /**
     * Kills every child (also when the test failed) and prints what each printed (to the test's
     * output); for {@code finally} blocks.
     */
    static void closeAll(List<Child> children) {
        for (Child c : children) {
            c.close();
            System.out.println("--- " + c + ":\n" + c.output());
        }
        children.clear();
    }
}
