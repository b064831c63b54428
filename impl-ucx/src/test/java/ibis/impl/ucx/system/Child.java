package ibis.impl.ucx.system;

import ibis.testsupport.ChildJvm;
import ibis.testsupport.PeerMain;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM of the system tests, running a {@link PeerMain} role, possibly behind a command
 * prefix ({@code ip netns exec NS unshare ...}) and with environment variables of its own. Unlike
 * {@link ChildJvm} it keeps every line it printed, so a test may wait for lines in any order.
 * {@link #close()} kills it (SIGKILL) and closes its standard input, on which {@link PeerMain}
 * halts.
 */
final class Child implements AutoCloseable {

    private final String name;
    private final Process process;
    private final List<String> lines = new ArrayList<>();
    private boolean ended;

    private Child(String name, Process process) {
        this.name = name;
        this.process = process;
        Thread pump = new Thread(this::pump, "output of " + name);
        pump.setDaemon(true);
        pump.start();
    }

    /**
     * Starts {@code prefix java --enable-native-access=ALL-UNNAMED jvmOptions -cp <test class path>
     * ibis.testsupport.PeerMain role args}, its output and errors merged.
     *
     * @param name what the test calls this child, in failure messages
     * @param prefix the command the JVM runs under (empty: none)
     * @param environment variables set for the child, on top of this JVM's environment
     */
    static Child start(String name, List<String> prefix, Map<String, String> environment, List<String> jvmOptions,
            Class<? extends PeerMain.Role> role, String... args) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.add(ChildJvm.javaCommand());
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(ChildJvm.testClassPath());
        command.add(PeerMain.class.getName());
        command.add(role.getName());
        command.addAll(Arrays.asList(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        return new Child(name, builder.start());
    }

    private void pump() {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                synchronized (this) {
                    lines.add(line);
                    notifyAll();
                }
            }
        } catch (IOException e) {
            // the child is gone
        } finally {
            synchronized (this) {
                ended = true;
                notifyAll();
            }
        }
    }

    /** The process (for a prefixed child: the prefix command's, which takes the JVM along when killed). */
    Process process() {
        return process;
    }

    /**
     * Waits until the child printed a line starting with {@code prefix} (at any time, before or after
     * other lines) and returns the first such line; fails with the child's output when it does not
     * come in {@code timeoutSeconds}, when its output ends first, or when it reports a failed role
     * ({@link PeerMain#FAILED}).
     */
    synchronized String awaitLine(String prefix, long timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (true) {
            for (String line : lines) {
                if (line.startsWith(prefix)) {
                    return line;
                }
                if (line.startsWith(PeerMain.FAILED)) {
                    throw new AssertionError(name + " failed while the test waited for '" + prefix + "':\n" + output());
                }
            }
            long left = deadline - System.nanoTime();
            if (ended || left <= 0) {
                throw new AssertionError(name + " did not print '" + prefix + "' " + (ended
                        ? "before its output ended" : "in " + timeoutSeconds + " s (alive: " + process.isAlive() + ")")
                        + "; its output:\n" + output());
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    /** The rest of the line {@link #awaitLine} returns, after the prefix, trimmed. */
    String await(String prefix, long timeoutSeconds) throws InterruptedException {
        return awaitLine(prefix, timeoutSeconds).substring(prefix.length()).trim();
    }

    /** Waits for the child to end by itself; fails with its output when it does not in time. */
    int awaitExit(long timeoutSeconds) throws InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            throw new AssertionError(name + " did not end in " + timeoutSeconds + " s; its output:\n" + output());
        }
        return process.exitValue();
    }

    /** Everything the child printed so far, each line indented, for failure messages. */
    synchronized String output() {
        StringBuilder all = new StringBuilder();
        for (String line : lines) {
            all.append("  | ").append(line).append('\n');
        }
        return all.toString();
    }

    /** Kills the process with SIGKILL and waits (bounded) until it is gone; fails when it is not. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError(name + " (pid " + process.pid() + ") survived SIGKILL for 30 s");
        }
    }

    @Override
    public String toString() {
        return name;
    }

    /**
     * Kills the child (if still running) and closes its standard input; also in a thread that was
     * interrupted (a test that timed out), whose interrupt status stays set.
     */
    @Override
    public void close() {
        boolean interrupted = Thread.interrupted();
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // already closed
        }
        try {
            kill();
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
