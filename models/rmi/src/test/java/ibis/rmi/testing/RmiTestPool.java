package ibis.rmi.testing;

import ibis.registry.server.CentralRegistryServer;
import ibis.rmi.registry.LocateRegistry;
import ibis.rmi.registry.Registry;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.rmi.RemoteException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The pool of the tests: one embedded registry server on loopback for the whole test JVM, whose
 * address and pool name are set as system properties before Ibis RMI starts here; the test JVM
 * serves the default RMI registry (so a killed child never takes it along). Child JVMs join the
 * same pool.
 */
public final class RmiTestPool {

    private static CentralRegistryServer server;
    private static String poolName;

    private RmiTestPool() {
    }

    /** Starts the pool (once per JVM) and this JVM's RMI, which serves the default registry. */
    public static synchronized void start() throws IOException {
        if (server != null) {
            return;
        }
        Properties serverProperties = new Properties();
        serverProperties.setProperty("ibis.registry.server.bind", "127.0.0.1");
        server = new CentralRegistryServer(0, serverProperties);
        server.start();
        poolName = "rmi-test-" + UUID.randomUUID();
        System.setProperty("ibis.server.address", server.address());
        System.setProperty("ibis.pool.name", poolName);
        System.setProperty("ibis.implementation", "tcp");
        System.setProperty("ibis.rmi.connect.timeout", "5000");
        System.setProperty("ibis.rmi.registry.timeout", "3000");
        LocateRegistry.createRegistry(Registry.REGISTRY_PORT);
    }

    /** A child JVM of the pool running {@link PeerMain} with the given arguments. */
    public static Child startChild(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        cmd.add("-Xmx256m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("-Dibis.server.address=" + server.address());
        cmd.add("-Dibis.pool.name=" + poolName);
        cmd.add("-Dibis.implementation=tcp");
        cmd.add("-Dibis.rmi.connect.timeout=5000");
        cmd.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        cmd.add(PeerMain.class.getName());
        for (String a : args) {
            cmd.add(a);
        }
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectErrorStream(true);
        return new Child(pb.start());
    }

    /** A child JVM and the lines it printed. */
    public static final class Child implements AutoCloseable {
        public final Process process;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final StringBuffer all = new StringBuffer();

        Child(Process process) {
            this.process = process;
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        all.append(line).append('\n');
                        lines.add(line);
                    }
                } catch (IOException e) {
                    // The child is gone.
                }
            }, "child-output");
            reader.setDaemon(true);
            reader.start();
        }

        /** Waits for a line starting with the prefix; returns it, or fails with the output so far. */
        public String awaitLine(String prefix, long timeoutMillis) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            while (true) {
                long left = end - System.nanoTime();
                String line = lines.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
                if (line == null) {
                    throw new AssertionError("child did not print " + prefix + " in time; output:\n" + all);
                }
                if (line.startsWith(prefix)) {
                    return line;
                }
                if (line.startsWith("FAILED")) {
                    throw new AssertionError("child failed: " + line + "\noutput:\n" + all);
                }
            }
        }

        /** @return everything the child printed so far */
        public String output() {
            return all.toString();
        }

        @Override
        public void close() {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
