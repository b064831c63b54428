package ibis.testsupport;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JVM a test started (usually running {@link PeerMain}), with the lines it printed (output and
 * errors merged); {@link #close()} kills it. It gets the test's own class path (the Surefire test
 * class path when there is one), so it runs the same classes as the test.
 */
public final class ChildJvm implements AutoCloseable {

    /** Lets the child's class path load native libraries without a warning (JDK 22 and later). */
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    /** System properties with this prefix are passed on to every child. */
    static final String INHERITED_PREFIX = "ibis.ucx.";

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuffer all = new StringBuffer();

    private ChildJvm(Process process) {
        this.process = process;
        Thread pump = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    all.append(line).append('\n');
                    lines.add(line);
                }
            } catch (IOException e) {
                // the child is gone
            }
        }, "child-jvm-output");
        pump.setDaemon(true);
        pump.start();
    }

    /**
     * Starts {@code java --enable-native-access=ALL-UNNAMED [inherited] [jvmOptions] -cp <test class
     * path> mainClass args}. Native access is allowed in every child (JDK 17 accepts the option
     * too), so that an implementation with native code (impl-ucx) runs there without warnings; the
     * environment (for example {@code UCX_*} variables) is inherited, and so are this JVM's system
     * properties that start with {@value #INHERITED_PREFIX} (settings all members of a pool must
     * share, such as {@code ibis.ucx.error.mode}; {@code jvmOptions} may override them).
     *
     * @param jvmOptions options before the main class, for example {@code -Xmx256m} and {@code -Dkey=value}
     */
    public static ChildJvm start(List<String> jvmOptions, String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(javaCommand());
        command.add(NATIVE_ACCESS);
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith(INHERITED_PREFIX)) {
                command.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(testClassPath());
        command.add(mainClass);
        command.addAll(Arrays.asList(args));
        return new ChildJvm(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /** Starts {@link PeerMain} with {@code role} (a {@link PeerMain.Role} class) and its arguments. */
    public static ChildJvm startPeer(List<String> jvmOptions, Class<? extends PeerMain.Role> role, String... args)
            throws IOException {
        List<String> all = new ArrayList<>();
        all.add(role.getName());
        all.addAll(Arrays.asList(args));
        return start(jvmOptions, PeerMain.class.getName(), all.toArray(new String[0]));
    }

    /**
     * Wraps a process that stands for a peer elsewhere (a {@link HostedPeers} role), so that tests
     * handle it as a child JVM: its output lines, {@link #kill} (for a hosted role: a stop, not a
     * crash), {@link #awaitExit}.
     */
    public static ChildJvm of(Process process) {
        return new ChildJvm(process);
    }

    /** The {@code java} executable of the running JVM. */
    public static String javaCommand() {
        return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    }

    /**
     * The class path of the tests: Surefire's test class path when running under Surefire (the
     * classes of the module under test and every test dependency), else this JVM's class path.
     */
    public static String testClassPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isEmpty() ? surefire : System.getProperty("java.class.path");
    }

    /** The process. */
    public Process process() {
        return process;
    }

    /**
     * Waits for the next line starting with {@code prefix} and returns it whole; fails with the
     * output so far when it does not come in time, or when a line starting with {@code FAILED} (a
     * {@link PeerMain} role that threw) comes first.
     */
    public String awaitLine(String prefix, long timeoutMillis) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            long left = end - System.nanoTime();
            String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
            if (line == null) {
                throw new AssertionError("the child JVM (alive: " + process.isAlive() + ") did not print "
                        + prefix + " in time; its output:\n" + all);
            }
            if (line.startsWith(prefix)) {
                return line;
            }
            if (line.startsWith(PeerMain.FAILED) && !prefix.startsWith(PeerMain.FAILED)) {
                throw new AssertionError("the child JVM failed: " + line + "\nits output:\n" + all);
            }
        }
    }

    /**
     * Waits (at most {@link Waits#EVENTUALLY_MILLIS}) for a line starting with {@code prefix};
     * returns the rest, trimmed.
     */
    public String await(String prefix) throws InterruptedException {
        return awaitLine(prefix, Waits.EVENTUALLY_MILLIS).substring(prefix.length()).trim();
    }

    /** Everything the child printed so far. */
    public String output() {
        return all.toString();
    }

    /** Waits for the child to end by itself; fails with its output when it does not in time. */
    public int awaitExit(long timeoutSeconds) throws InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            throw new AssertionError("the child JVM did not end in " + timeoutSeconds + " s; its output:\n" + all);
        }
        return process.exitValue();
    }

    /** Kills the process (SIGKILL) and waits until it is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        try {
            kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
