package ibis.benchmarks.gmi.apps;

import ibis.benchmarks.ChildProcesses;
import ibis.benchmarks.Host;
import ibis.benchmarks.MpiJavaPeers;
import ibis.registry.RegistryProperties;
import ibis.registry.server.CentralRegistryServer;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.tools.ToolProvider;

/**
 * Starts the applications on N processes and returns what process 0 printed, for the gmi suite and
 * the tests alike.
 * <ul>
 * <li>{@link #gmi}: a registry server embedded in this JVM (bound to 127.0.0.1), a fresh pool of N
 * members, and N JVMs of {@link GmiAppMain} over Ibis tcp, all started at once.</li>
 * <li>{@link #mpi}: {@code MpiJavaApps.java} (a resource of this package) compiled once per JVM
 * against the Open MPI Java classes, then {@code mpirun.openmpi --oversubscribe -np N} of it over
 * Open MPI's shared-memory transport, waiting ranks yielding the processor
 * ({@code mpi_yield_when_idle}: on a loaded 2-core machine, busy-polling ranks starve the JIT and
 * the rank they wait for; 2 ranks took 5-10 times longer than 1 or 4 without it).</li>
 * </ul>
 * Every child JVM gets {@link ChildProcesses#jvmOptions()} (native access, the driver's heap and
 * JIT options). A run that fails or does not end in time throws an {@link IOException} with the
 * command and the tail of every process's output.
 */
public final class AppRuns {

    /** Open MPI's launcher, named explicitly (the plain name may be MPICH's). */
    public static final String MPIRUN = "mpirun.openmpi";
    /** System property: the Open MPI Java classes (a jar or folder), when not on the class path. */
    public static final String MPI_CLASSES_PROPERTY = MpiJavaPeers.CLASSES_PROPERTY;
    /** Where Debian keeps libmpi_java.so; Temurin's default java.library.path lacks it. */
    private static final String MULTIARCH_LIBRARIES = "/usr/lib/x86_64-linux-gnu";
    private static final Pattern LINE = Pattern.compile(
            "^(?:\\[\\d+\\] )?APP (\\S+) (gmi|mpi) (\\d+) ([0-9.]+) ([0-9a-f]{16})\\s*$", Pattern.MULTILINE);

    private static Path mpiProgram;

    private AppRuns() {
    }

    /**
     * What process 0 printed for one application.
     *
     * @param app the application
     * @param style {@code gmi} or {@code mpi}
     * @param processes the number of processes
     * @param seconds the time the application computed
     * @param checksum its result's checksum, 16 hex digits
     */
    public record AppResult(String app, String style, int processes, double seconds, String checksum) {
    }

    /**
     * Runs the applications, in order, in one GMI program of {@code processes} JVMs over Ibis tcp.
     *
     * @param specs the applications
     * @param processes the number of JVMs
     * @param timeout how long the whole run may take
     * @return one result per application, in order
     * @throws IOException when a process fails, the run times out, or a result line is missing
     * @throws InterruptedException when interrupted while waiting
     */
    public static List<AppResult> gmi(List<AppSpec> specs, int processes, Duration timeout)
            throws IOException, InterruptedException {
        return gmi(specs, processes, timeout, "tcp");
    }

    /**
     * Runs the applications, in order, in one GMI program of {@code processes} JVMs over the Ibis
     * implementation {@code implementation}: plain JVMs in a pool of a registry server embedded in
     * this JVM, or for {@code mpi} the ranks of one {@code mpirun.openmpi} job (registry over MPI,
     * shared memory between the ranks, as {@link #mpi} runs the MPI-style programs).
     *
     * @param specs the applications
     * @param processes the number of JVMs
     * @param timeout how long the whole run may take
     * @param implementation the Ibis implementation's nickname
     * @return one result per application, in order
     * @throws IOException when a process fails, the run times out, or a result line is missing
     * @throws InterruptedException when interrupted while waiting
     */
    public static List<AppResult> gmi(List<AppSpec> specs, int processes, Duration timeout, String implementation)
            throws IOException, InterruptedException {
        String pool = "gmi-apps-" + UUID.randomUUID();
        List<String> jvm = new ArrayList<>(List.of(java(), "-cp", System.getProperty("java.class.path")));
        jvm.addAll(ChildProcesses.jvmOptions());
        jvm.addAll(List.of("-Dibis.pool.name=" + pool, "-Dibis.pool.size=" + processes,
                "-Dibis.implementation=" + implementation, "-Dibis.gmi.connect.timeout=30000",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
        if (implementation.equals("mpi")) {
            if (Host.onPath(MPIRUN).isEmpty()) {
                throw new IOException("Ibis mpi runs as the ranks of an MPI job, and " + MPIRUN
                        + " is not installed: `apt-get install openmpi-bin libopenmpi-dev` (scripts/setup)");
            }
            // -cp right after java: Open MPI's mpirun rewrites the argument after the first one that
            // contains "cp" as a java program's class path.
            List<String> cmd = new ArrayList<>(mpirun(processes));
            cmd.addAll(jvm);
            cmd.add(GmiAppMain.class.getName());
            specs.forEach(s -> cmd.add(s.toString()));
            return results(specs, "gmi", processes, run(List.of(cmd), timeout, true));
        }
        Properties p = new Properties();
        p.setProperty(RegistryProperties.SERVER_BIND, "127.0.0.1");
        try (CentralRegistryServer server = new CentralRegistryServer(0, p)) {
            server.start();
            List<String> cmd = new ArrayList<>(jvm);
            cmd.addAll(List.of("-Dibis.server.address=" + server.address(), GmiAppMain.class.getName()));
            specs.forEach(s -> cmd.add(s.toString()));
            List<List<String>> commands = new ArrayList<>();
            for (int i = 0; i < processes; i++) {
                commands.add(cmd);
            }
            return results(specs, "gmi", processes, run(commands, timeout, false));
        }
    }

    /** {@code mpirun.openmpi} with the options of every job here, for {@code processes} ranks. */
    private static List<String> mpirun(int processes) {
        return List.of(MPIRUN, "--oversubscribe", "-np", Integer.toString(processes),
                "--bind-to", "none", "--mca", "pml", "ob1", "--mca", "btl", "self,vader",
                "--mca", "mpi_yield_when_idle", "1", "--mca", "oob_tcp_if_include", "lo");
    }

    /**
     * Runs the applications, in order, in one MPI job of {@code processes} ranks.
     *
     * @param specs the applications
     * @param processes the number of ranks
     * @param timeout how long the job may take
     * @return one result per application, in order
     * @throws IOException when MPI is missing ({@link #mpiMissing()}), the job fails or times out, or
     *         a result line is missing
     * @throws InterruptedException when interrupted while waiting
     */
    public static List<AppResult> mpi(List<AppSpec> specs, int processes, Duration timeout)
            throws IOException, InterruptedException {
        String missing = mpiMissing();
        if (missing != null) {
            throw new IOException(missing);
        }
        Path program = mpiProgram();
        List<String> cmd = new ArrayList<>(mpirun(processes));
        cmd.add(java());
        cmd.addAll(ChildProcesses.jvmOptions());
        cmd.addAll(List.of("-Djava.library.path=" + MULTIARCH_LIBRARIES, "-cp", program + File.pathSeparator
                + MpiJavaPeers.classes() + File.pathSeparator + System.getProperty("java.class.path"), "MpiJavaApps"));
        specs.forEach(s -> cmd.add(s.toString()));
        return results(specs, "mpi", processes, run(List.of(cmd), timeout, true));
    }

    /**
     * Why {@link #mpi} cannot run here, or null when it can.
     *
     * @return the reason, naming what to install or fetch, or null
     */
    public static String mpiMissing() {
        if (Host.onPath(MPIRUN).isEmpty()) {
            return MPIRUN + " is not installed: `apt-get install openmpi-bin libopenmpi-dev` (scripts/setup)";
        }
        if (MpiJavaPeers.classes() == null) {
            return MpiJavaPeers.classesMissing();
        }
        if (ToolProvider.getSystemJavaCompiler() == null) {
            return "this JVM has no Java compiler (a JRE?) to compile MpiJavaApps.java";
        }
        return null;
    }

    /**
     * Command line: {@code AppRuns gmi|mpi <processes>[,<processes>...] [small|benchmark|name:n:steps:seed...]}
     * runs the applications (default: all five in benchmark sizes) and prints process 0's lines and
     * the sequential program's checksum of each.
     *
     * @param args style, process counts, applications
     * @throws Exception when a run fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: AppRuns gmi|mpi <processes>[,<processes>...]"
                    + " [small|benchmark|name:n:steps:seed...]");
            System.exit(2);
        }
        List<AppSpec> specs = new ArrayList<>();
        if (args.length == 2 || args[2].equals("small") || args[2].equals("benchmark")) {
            boolean small = args.length > 2 && args[2].equals("small");
            AppSpec.APPS.forEach(a -> specs.add(small ? AppSpec.small(a) : AppSpec.benchmark(a)));
        } else {
            specs.addAll(AppSpec.parseAll(java.util.Arrays.copyOfRange(args, 2, args.length)));
        }
        for (AppSpec s : specs) {
            System.out.printf("SEQUENTIAL %s %016x%n", s, MpiStyleMain.sequential(s));
        }
        for (String p : args[1].split(",")) {
            int n = Integer.parseInt(p);
            List<AppResult> results = args[0].equals("mpi") ? mpi(specs, n, Duration.ofMinutes(30))
                    : gmi(specs, n, Duration.ofMinutes(30));
            for (AppResult r : results) {
                System.out.printf(java.util.Locale.ROOT, "APP %s %s %d %.6f %s%n", r.app(), r.style(), r.processes(),
                        r.seconds(), r.checksum());
            }
        }
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }


    /** Compiles MpiJavaApps.java once per JVM; returns the folder of its class. */
    private static synchronized Path mpiProgram() throws IOException {
        if (mpiProgram != null) {
            return mpiProgram;
        }
        Path dir = Files.createTempDirectory("ibis-gmi-apps-mpi");
        dir.toFile().deleteOnExit();
        String failed = MpiJavaPeers.compile("/ibis/benchmarks/gmi/apps/MpiJavaApps.java", MpiJavaPeers.classes()
                + File.pathSeparator + System.getProperty("java.class.path"), dir);
        if (failed != null) {
            throw new IOException(failed);
        }
        Path source = dir.resolve("MpiJavaApps.java");
        source.toFile().delete();
        dir.resolve("MpiJavaApps.class").toFile().deleteOnExit();
        mpiProgram = dir;
        return dir;
    }

    /** Starts every command at once, waits for all; returns their outputs (stdout and stderr). */
    private static List<String> run(List<List<String>> commands, Duration timeout, boolean mpi)
            throws IOException, InterruptedException {
        List<Process> processes = new ArrayList<>();
        List<Path> outputs = new ArrayList<>();
        try {
            for (List<String> cmd : commands) {
                ProcessBuilder b = ChildProcesses.prepare(new ProcessBuilder(cmd)).redirectErrorStream(true);
                if (mpi && "root".equals(System.getProperty("user.name"))) {
                    b.environment().putIfAbsent("OMPI_ALLOW_RUN_AS_ROOT", "1");
                    b.environment().putIfAbsent("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
                }
                Path out = Files.createTempFile("ibis-gmi-app", ".out");
                outputs.add(out);
                b.redirectOutput(out.toFile()).redirectInput(new File("/dev/null"));
                processes.add(b.start());
            }
            List<String> failures = awaitAll(processes, timeout);
            List<String> texts = new ArrayList<>();
            for (Path out : outputs) {
                texts.add(Files.readString(out, StandardCharsets.UTF_8));
            }
            if (!failures.isEmpty()) {
                StringBuilder why = new StringBuilder(String.join("; ", failures));
                for (int i = 0; i < commands.size(); i++) {
                    why.append("\n--- ").append(String.join(" ", commands.get(i))).append("\n")
                            .append(Host.tail(texts.get(i), 30));
                }
                throw new IOException(why.toString());
            }
            return texts;
        } finally {
            for (Process p : processes) {
                if (p.isAlive()) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                    p.waitFor(10, TimeUnit.SECONDS);
                }
            }
            for (Path out : outputs) {
                Files.deleteIfExists(out);
            }
        }
    }

    /**
     * Waits until every process ended, one failed (the others would wait for it until the time-out:
     * the caller kills them), or the time-out passed; returns what went wrong, empty when all
     * ended with 0.
     */
    private static List<String> awaitAll(List<Process> processes, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> failures = new ArrayList<>();
        boolean running = true;
        while (running && failures.isEmpty()) {
            running = false;
            for (int i = 0; i < processes.size(); i++) {
                Process p = processes.get(i);
                if (p.waitFor(100, TimeUnit.MILLISECONDS)) {
                    if (p.exitValue() != 0) {
                        failures.add("process " + i + " exited with " + p.exitValue());
                    }
                } else {
                    running = true;
                }
            }
            if (running && System.nanoTime() > deadline) {
                failures.add("the processes did not all end within " + timeout.toSeconds() + " s");
            }
        }
        return failures;
    }

    private static List<AppResult> results(List<AppSpec> specs, String style, int processes, List<String> outputs)
            throws IOException {
        List<AppResult> results = new ArrayList<>();
        String all = String.join("\n", outputs);
        Matcher m = LINE.matcher(all);
        while (m.find()) {
            results.add(new AppResult(m.group(1), m.group(2), Integer.parseInt(m.group(3)),
                    Double.parseDouble(m.group(4)), m.group(5)));
        }
        boolean ok = results.size() == specs.size();
        for (int i = 0; ok && i < specs.size(); i++) {
            AppResult r = results.get(i);
            ok = r.app().equals(specs.get(i).app()) && r.style().equals(style) && r.processes() == processes;
        }
        if (!ok) {
            throw new IOException("expected one APP line per application " + specs + " for " + style + " on "
                    + processes + " processes, got " + results + " in:\n" + Host.tail(all, 30));
        }
        return results;
    }

}
