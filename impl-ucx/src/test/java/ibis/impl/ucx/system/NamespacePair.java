package ibis.impl.ucx.system;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Two network namespaces of a test, joined by a veth pair, each with one address of a private
 * 10.x.y.0/24 network (NATIVE.md, "Several hosts on one machine"). Names are unique to this JVM
 * ({@code ibis-<pid>-<random>-a}); {@link #close()} kills every process still inside them and
 * deletes them (which deletes the veth pair), also when the test failed; a shutdown hook does the
 * same when the JVM ends before the test closed the pair.
 *
 * <p>Only processes inside the namespaces may talk to their addresses: {@link #exec} is the prefix
 * that runs a command in one, in a pid namespace of its own with its own {@code /proc} (UCX reads
 * {@code /proc/<peer pid>}), killed with the prefix process.
 *
 * <p>Needs root and iproute2's {@code ip} and util-linux's {@code unshare}: without them the
 * constructor fails with the reason.
 */
final class NamespacePair implements AutoCloseable {

    /** One side: namespace name, veth device, address. */
    record Side(String namespace, String device, String address) {
    }

    final Side a;
    final Side b;
    private final Thread cleanupAtExit = new Thread(this::deleteQuietly, "delete test namespaces");
    private boolean closed;

    NamespacePair() throws InterruptedException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long pid = ProcessHandle.current().pid();
        String unique = pid + "-" + Integer.toHexString(random.nextInt(0x1000, 0x10000));
        // Interface names have at most 15 characters.
        String device = "iv" + Long.toString(pid, 36) + Integer.toString(random.nextInt(36 * 36), 36);
        String net = "10." + random.nextInt(200, 250) + "." + random.nextInt(1, 255) + ".";
        a = new Side("ibis-" + unique + "-a", device + "a", net + "1");
        b = new Side("ibis-" + unique + "-b", device + "b", net + "2");
        requireTools();
        Runtime.getRuntime().addShutdownHook(cleanupAtExit);
        boolean made = false;
        try {
            run("ip", "netns", "add", a.namespace);
            run("ip", "netns", "add", b.namespace);
            run("ip", "link", "add", a.device, "type", "veth", "peer", "name", b.device);
            for (Side s : List.of(a, b)) {
                run("ip", "link", "set", s.device, "netns", s.namespace);
                run("ip", "-n", s.namespace, "addr", "add", s.address + "/24", "dev", s.device);
                run("ip", "-n", s.namespace, "link", "set", "lo", "up");
                run("ip", "-n", s.namespace, "link", "set", s.device, "up");
            }
            made = true;
        } finally {
            if (!made) {
                deleteQuietly();
                Runtime.getRuntime().removeShutdownHook(cleanupAtExit);
            }
        }
    }

    /** Fails with the reason when this JVM cannot create namespaces (not root, no ip, no unshare). */
    private static void requireTools() throws InterruptedException {
        String user = System.getProperty("user.name");
        for (String tool : List.of("ip", "unshare")) {
            try {
                run(tool, "-V");
            } catch (AssertionError e) {
                throw new AssertionError("the namespace tests need iproute2's ip and util-linux's unshare and root"
                        + " (running as " + user + "): " + e.getMessage(), e);
            }
        }
    }

    /**
     * The command prefix that runs a program in {@code side}'s namespace, in a new pid namespace with
     * its own {@code /proc}; killing the prefix process (SIGKILL too) kills the program.
     */
    List<String> exec(Side side) {
        return List.of("ip", "netns", "exec", side.namespace, "unshare", "--pid", "--mount-proc", "--kill-child",
                "--fork");
    }

    /** Runs a command (bounded), returns its output; fails with the output when it fails. */
    static String run(String... command) throws InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        }
        String output;
        try (InputStream in = p.getInputStream()) {
            p.getOutputStream().close();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not end in 30 s");
            }
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new AssertionError("reading the output of " + String.join(" ", command) + ": " + e, e);
        }
        if (p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed (status " + p.exitValue() + ", running as "
                    + System.getProperty("user.name") + "): " + output);
        }
        return output;
    }

    /**
     * Kills what is left in the namespaces and deletes them; fails when that does not work. Also
     * works in a thread that was interrupted (a test that timed out), whose interrupt status stays set.
     */
    @Override
    public void close() throws InterruptedException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        boolean interrupted = Thread.interrupted();
        List<String> problems;
        try {
            problems = delete();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(cleanupAtExit);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs anyway, harmlessly
        }
        if (!problems.isEmpty()) {
            throw new AssertionError("cleaning up the test namespaces: " + problems);
        }
    }

    private void deleteQuietly() {
        try {
            delete();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private List<String> delete() throws InterruptedException {
        List<String> problems = new ArrayList<>();
        String existing;
        try {
            existing = run("ip", "netns", "list");
        } catch (AssertionError e) {
            problems.add(e.getMessage());
            return problems;
        }
        for (Side s : List.of(a, b)) {
            if (!List.of(existing.split("\\s+")).contains(s.namespace)) {
                continue;
            }
            try {
                // Every process in the namespace was started by this test (its pool members).
                for (String pid : run("ip", "netns", "pids", s.namespace).split("\\s+")) {
                    if (!pid.isEmpty()) {
                        ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                    }
                }
                run("ip", "netns", "del", s.namespace);
            } catch (AssertionError e) {
                problems.add(e.getMessage());
            }
        }
        return problems;
    }
}
