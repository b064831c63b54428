package ibis.benchmarks.rmi;

import ibis.benchmarks.ChildProcesses;
import ibis.registry.server.CentralRegistryServer;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * Starts JVMs that run the rmi suite's plain {@code java.rmi} programs, on this machine and on
 * 127.0.0.1 only, in one of two modes:
 * <ul>
 * <li>{@link Mode#JDK}: the classes as compiled, on the JDK's {@code java.rmi}
 * ({@code -Djava.rmi.server.hostname=127.0.0.1}, so stubs name the loopback address);</li>
 * <li>{@link Mode#IBIS}: the copy of {@code ibis.benchmarks.rmi.**} rewritten at build time by
 * {@code ibisc --java-rmi} ({@link #ibisRmiClassPath()}) first on the class path, so the same
 * programs run over Ibis RMI; this object then embeds an Ibis registry server and gives every JVM
 * {@code ibis.server.address}, {@code ibis.pool.name} and {@code ibis.implementation}.</li>
 * </ul>
 * Every JVM's standard output is collected line by line ({@link Child#nextLine}), its standard
 * error is copied to ours with a prefix, and nothing outlives {@link #close()} (nor the driver JVM:
 * a shutdown hook kills what is left).
 */
public final class RmiProcesses implements AutoCloseable {

    /** Which RMI the started programs use. */
    public enum Mode {
        /** The JDK's {@code java.rmi}, the classes as compiled. */
        JDK,
        /** Ibis RMI, through the classes rewritten by {@code ibisc --java-rmi}. */
        IBIS;

        /** @return the name in reports */
        public String displayName() {
            return this == JDK ? "java.rmi (JDK)" : "Ibis RMI";
        }
    }

    /**
     * System property: the class path (path-separator list of jars or folders) of the rewritten
     * {@code ibis.benchmarks.rmi} classes. Default: found next to this class (see
     * {@link #ibisRmiClassPath()}).
     */
    public static final String IBIS_CLASSPATH_PROPERTY = "ibis.bench.rmi.ibisClassPath";

    /** The folder of the rewritten classes in a build tree ({@code benchmarks/target/}). */
    static final String BUILD_FOLDER = "ibis-rmi-classes";

    /** The folder of the rewritten jar in the distribution ({@code dist/target/}). */
    static final String DIST_FOLDER = "lib-ibisrmi";

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    private static final AtomicLong POOLS = new AtomicLong();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(RmiProcesses::kill), "rmi-bench-kill"));
    }

    private final Mode mode;
    private final String classPath;
    private final CentralRegistryServer registryServer;
    private final List<Child> children = Collections.synchronizedList(new ArrayList<>());

    /**
     * Prepares starting JVMs of a mode; in {@link Mode#IBIS} starts the embedded registry server.
     *
     * @param mode the mode
     * @throws IOException when the rewritten classes are missing or the registry server cannot start
     */
    public RmiProcesses(Mode mode) throws IOException {
        this.mode = mode;
        String base = System.getProperty("java.class.path");
        if (mode == Mode.IBIS) {
            classPath = ibisRmiClassPath() + File.pathSeparator + base;
            Properties p = new Properties();
            p.setProperty("ibis.registry.server.bind", "127.0.0.1");
            registryServer = new CentralRegistryServer(0, p);
            registryServer.start();
        } else {
            classPath = base;
            registryServer = null;
        }
    }

    /** @return the mode of the JVMs this starts */
    public Mode mode() {
        return mode;
    }

    /** @return the address of the embedded Ibis registry server ({@link Mode#IBIS} only) */
    public String registryServerAddress() {
        if (registryServer == null) {
            throw new IllegalStateException("no Ibis registry server in mode " + mode);
        }
        return registryServer.address();
    }

    /** @return a pool name not used before by this driver (Ibis pools of the embedded server) */
    public String newPoolName() {
        return "rmi-bench-" + ProcessHandle.current().pid() + "-" + POOLS.incrementAndGet() + "-" + System.nanoTime();
    }

    /**
     * Starts {@code count} JVMs running {@code mainClass}.
     *
     * @param label prefix of their standard error lines and of error messages, e.g. {@code "ibis server"}
     * @param count how many
     * @param mainClass the main class
     * @param args the arguments of the JVM with index i (0-based)
     * @param pool the Ibis pool (ignored in {@link Mode#JDK})
     * @param poolSize the {@code ibis.pool.size} to give, or 0 for none
     * @return the started JVMs, in index order
     * @throws IOException when a JVM cannot be started (those already started are killed)
     */
    public List<Child> start(String label, int count, String mainClass, IntFunction<List<String>> args, String pool,
            int poolSize) throws IOException {
        List<Child> started = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                List<String> cmd = command(mainClass, args.apply(i), pool, poolSize);
                String name = count == 1 ? label : label + " " + i;
                Process p = ChildProcesses.prepare(new ProcessBuilder(cmd)).start();
                LIVE.add(p);
                Child c = new Child(name, p);
                started.add(c);
                children.add(c);
            }
        } catch (IOException | RuntimeException e) {
            started.forEach(Child::close);
            throw e;
        }
        return started;
    }

    private List<String> command(String mainClass, List<String> args, String pool, int poolSize) {
        String java = ProcessHandle.current().info().command()
                .orElse(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        List<String> cmd = new ArrayList<>(List.of(java));
        // The same JVM options (heap, GC, JIT) and logging properties as the driver.
        cmd.addAll(ChildProcesses.jvmOptions());
        for (String name : System.getProperties().stringPropertyNames()) {
            boolean ibisSetting = name.startsWith("ibis.") && !name.startsWith("ibis.bench.")
                    && !name.startsWith("ibis.server.") && !name.startsWith("ibis.pool.");
            if (ibisSetting || name.startsWith("org.slf4j.")) {
                cmd.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        if (mode == Mode.JDK) {
            cmd.add("-Djava.rmi.server.hostname=127.0.0.1");
        } else {
            cmd.add("-Dibis.server.address=" + registryServer.address());
            cmd.add("-Dibis.pool.name=" + pool);
            if (poolSize > 0) {
                cmd.add("-Dibis.pool.size=" + poolSize);
            }
            if (System.getProperty(ChildProcesses.IMPLEMENTATION_PROPERTY) == null) {
                cmd.add("-D" + ChildProcesses.IMPLEMENTATION_PROPERTY + "=" + ChildProcesses.DEFAULT_IMPLEMENTATION);
            }
        }
        cmd.addAll(List.of("-cp", classPath, mainClass));
        cmd.addAll(args);
        return cmd;
    }

    /** Kills every JVM started here that is still running, and stops the registry server. */
    @Override
    public void close() {
        List<Child> all;
        synchronized (children) {
            all = new ArrayList<>(children);
            children.clear();
        }
        closeAll(all);
        if (registryServer != null) {
            registryServer.close();
        }
    }

    /**
     * The class path of the {@code ibis.benchmarks.rmi} classes rewritten by {@code ibisc --java-rmi}:
     * the system property {@value #IBIS_CLASSPATH_PROPERTY}; else, when this class comes from a jar in
     * {@code dist/target/lib-bench} (or {@code lib-bench/} of the binary distribution), the jars in the
     * sibling {@code lib-ibisrmi}; else, when it comes from
     * {@code benchmarks/target/classes}, the folder {@code benchmarks/target/ibis-rmi-classes}.
     *
     * @return the class path
     * @throws IOException when none of them exists
     */
    public static String ibisRmiClassPath() throws IOException {
        String configured = System.getProperty(IBIS_CLASSPATH_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        Path here;
        try {
            here = Path.of(RmiProcesses.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IOException("cannot tell where " + RmiProcesses.class.getName() + " was loaded from: " + e, e);
        }
        Path parent = here.toAbsolutePath().getParent();
        if (Files.isDirectory(here)) {
            Path build = parent.resolve(BUILD_FOLDER);
            if (Files.isDirectory(build.resolve("ibis/benchmarks/rmi"))) {
                return build.toString();
            }
            throw new IOException("the rewritten rmi classes are missing: no " + build + " (build benchmarks/ with"
                    + " mvn, phase process-classes or later)");
        }
        Path dist = parent.getParent().resolve(DIST_FOLDER);
        List<String> jars = new ArrayList<>();
        if (Files.isDirectory(dist)) {
            try (Stream<Path> files = Files.list(dist)) {
                files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted()
                        .forEach(f -> jars.add(f.toString()));
            }
        }
        if (jars.isEmpty()) {
            throw new IOException("the rewritten rmi jar is missing: no jar in " + dist + " (build the distribution:"
                    + " mvn -DskipTests package), or set -D" + IBIS_CLASSPATH_PROPERTY);
        }
        return String.join(File.pathSeparator, jars);
    }

    /**
     * Ends JVMs: closes all their standard inputs first (so they end in parallel), then waits for
     * each and kills what is left.
     *
     * @param all the JVMs
     */
    public static void closeAll(List<Child> all) {
        all.forEach(Child::closeInput);
        all.forEach(Child::close);
    }

    private static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    /** One started JVM: its output lines, its standard input, its end. */
    public static final class Child implements AutoCloseable {

        /** Marks the end of the output in the queue of lines. */
        private static final String END = new String("<end of output>");

        private final String name;
        private final Process process;
        private final Writer stdin;
        private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
        private volatile boolean ended;

        private Child(String name, Process process) {
            this.name = name;
            this.process = process;
            this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            daemon(name + "-out", () -> {
                try (BufferedReader in = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        lines.add(line);
                    }
                } catch (IOException e) {
                    // the process is gone
                }
                lines.add(END);
            });
            daemon(name + "-err", () -> {
                try (BufferedReader in = new BufferedReader(
                        new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        System.err.println("[" + name + "] " + line);
                        if (errors.size() < 200) {
                            errors.add(line);
                        }
                    }
                } catch (IOException e) {
                    // the process is gone
                }
            });
        }

        /** @return the label of this JVM, e.g. {@code "jdk client"} */
        public String name() {
            return name;
        }

        /** @return the process */
        public Process process() {
            return process;
        }

        /**
         * Writes one line to the JVM's standard input.
         *
         * @param line the line
         * @throws IOException when the JVM does not read any more
         */
        public void send(String line) throws IOException {
            stdin.write(line);
            stdin.write('\n');
            stdin.flush();
        }

        /**
         * The next line of standard output.
         *
         * @param timeoutMillis how long to wait
         * @return the line
         * @throws IOException when the JVM ended (or ends) without printing one, or none came in time
         * @throws InterruptedException when interrupted
         */
        public String nextLine(long timeoutMillis) throws IOException, InterruptedException {
            if (ended) {
                throw new IOException(name + " has ended" + exitInfo());
            }
            String line = lines.poll(timeoutMillis, TimeUnit.MILLISECONDS);
            if (line == null) {
                throw new IOException(name + " printed nothing within " + timeoutMillis + " ms");
            }
            if (line == END) {
                ended = true;
                throw new IOException(name + " ended" + exitInfo());
            }
            return line;
        }

        /**
         * Reads lines until one starts with {@code prefix}; returns it.
         *
         * @param prefix e.g. {@code "READY"}
         * @param timeoutMillis how long to wait in all
         * @param skipped receives the lines before it
         * @return the line
         * @throws IOException when the JVM ends first or the time is up
         * @throws InterruptedException when interrupted
         */
        public String awaitLine(String prefix, long timeoutMillis, List<String> skipped)
                throws IOException, InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            while (true) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    throw new IOException(name + " printed no line starting with '" + prefix + "' within "
                            + timeoutMillis + " ms");
                }
                String line = nextLine(left);
                if (line.startsWith(prefix)) {
                    return line;
                }
                if (skipped != null) {
                    skipped.add(line);
                }
            }
        }

        /**
         * Waits for the JVM to exit; kills it when it does not in time.
         *
         * @param timeoutMillis how long to wait
         * @return the exit status
         * @throws IOException when it had to be killed
         * @throws InterruptedException when interrupted
         */
        public int awaitExit(long timeoutMillis) throws IOException, InterruptedException {
            if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
                close();
                throw new IOException(name + " did not end within " + timeoutMillis + " ms and was killed");
            }
            LIVE.remove(process);
            return process.exitValue();
        }

        /**
         * The lines of standard output not read yet, up to the end of the output (for a JVM that
         * has ended or is about to).
         *
         * @param timeoutMillis how long to wait for the end of the output
         * @return the lines
         * @throws InterruptedException when interrupted
         */
        public List<String> remainingLines(long timeoutMillis) throws InterruptedException {
            List<String> rest = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            while (!ended) {
                String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null) {
                    break;
                }
                if (line == END) {
                    ended = true;
                } else {
                    rest.add(line);
                }
            }
            return rest;
        }

        /** @return the first lines the JVM wrote to standard error (at most 200) */
        public List<String> errorLines() {
            synchronized (errors) {
                return new ArrayList<>(errors);
            }
        }

        private String exitInfo() {
            try {
                if (process.waitFor(2, TimeUnit.SECONDS)) {
                    List<String> err = errorLines();
                    return " (exit status " + process.exitValue() + (err.isEmpty() ? ""
                            : "; stderr: " + String.join(" | ", err.subList(Math.max(0, err.size() - 5), err.size())))
                            + ")";
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "";
        }

        /** Closes standard input: the suite's programs end on that. */
        public void closeInput() {
            try {
                stdin.close();
            } catch (IOException e) {
                // gone already
            }
        }

        /** Closes standard input, then kills the JVM if it still runs after 5 s. */
        @Override
        public void close() {
            closeInput();
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    kill(process);
                    process.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                kill(process);
                Thread.currentThread().interrupt();
            }
            LIVE.remove(process);
        }

        @Override
        public String toString() {
            return name.toLowerCase(Locale.ROOT);
        }
    }

    private static void daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }
}
