package ibis.benchmarks.ipl;

import ibis.benchmarks.ChildProcesses;
import ibis.benchmarks.Host;
import ibis.benchmarks.MpiJavaPeers;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code bin/ibis-bench ipl --impl mpi}: Ibis over MPI beside MPI itself, in the same run. Under MPI
 * both sides of a measurement must be ranks of one {@code mpirun} job, so this suite does not use
 * the driver/peer pair of {@link IplSuite}: every measurement is a fresh job of 2 ranks on this
 * machine running one of three programs with the same protocol and output:
 * <ul>
 * <li>C: {@code mpi_pingpong.c} (a resource of this package), compiled by the suite with
 * {@code mpicc.openmpi};</li>
 * <li>Java over the Open MPI Java bindings with direct buffers: {@code MpiJavaPingPong.java} (a
 * resource too), compiled by the suite against the bindings' classes, which only builds that
 * fetched them have (scripts/fetch-ompi-java);</li>
 * <li>Ibis: {@link RankPingPong}, an ordinary IPL program, with {@code ibis.implementation=mpi}, once
 * over each of impl-mpi's backends ({@code ibis.mpi.backend=glue}, our JNI glue, and
 * {@code ibis.mpi.backend=bindings}, the Open MPI Java bindings), side by side.</li>
 * </ul>
 * Figures: the one-way latency of a 1-byte ping-pong and the throughput of a stream of 102,400-byte
 * messages, each over Open MPI's shared-memory transport ({@code btl self,vader}) and its tcp
 * transport on {@code lo} ({@code btl self,tcp}), both over the ob1 messaging layer. Repetitions are
 * interleaved (every program, transport and test once per repetition) and the report gives the
 * median and min–max of each, and Ibis's ratios to C and to the Java bindings paired per repetition.
 */
public final class MpiSuite {

    /** Open MPI's launcher and compiler wrapper, named explicitly (the plain names may be MPICH's). */
    static final String MPIRUN = "mpirun.openmpi";
    static final String MPICC = "mpicc.openmpi";
    /** System property: the Open MPI Java classes (a jar or folder), when not on the class path. */
    static final String CLASSES_PROPERTY = MpiJavaPeers.CLASSES_PROPERTY;
    /** Where Debian keeps libmpi_java.so; Temurin's default java.library.path lacks it. */
    private static final String MULTIARCH_LIBRARIES = "/usr/lib/x86_64-linux-gnu";
    private static final String RESOURCES = "/ibis/benchmarks/ipl/mpi/";
    private static final long JOB_TIMEOUT_SECONDS = 180;
    private static final Pattern RESULT = Pattern.compile("^(?:\\[\\d+\\] )?RESULT (lat|bwd|bw) ([0-9.]+)\\s*$",
            Pattern.MULTILINE);

    /** Open MPI's byte transfer layers measured. */
    enum Transport {
        SHARED_MEMORY("self,vader", "shared memory (`btl self,vader`)"),
        TCP("self,tcp", "tcp on lo (`btl self,tcp`)");

        final String btl;
        final String description;

        Transport(String btl, String description) {
            this.btl = btl;
            this.description = description;
        }
    }

    /** The two measurements. */
    enum Test {
        LATENCY("lat", 1, 20_000, 5_000),
        STREAM("bw", 102_400, 5_000, 1_500),
        /** Ibis only: the stream with writeByteBuffer/readByteBuffer of direct buffers, as the MPI peers send. */
        STREAM_DIRECT("bwd", 102_400, 5_000, 1_500);

        final String arg;
        final int bytes;
        final int fullCount;
        final int quickCount;

        Test(String arg, int bytes, int fullCount, int quickCount) {
            this.arg = arg;
            this.bytes = bytes;
            this.fullCount = fullCount;
            this.quickCount = quickCount;
        }
    }

    /** The programs measured. */
    enum Program {
        C("C, `mpi_pingpong.c` (MPI_Send/MPI_Recv)"),
        JAVA("Java, Open MPI Java bindings, direct buffers"),
        IBIS("Ibis mpi, own JNI glue, one-to-one ports, data serialization, explicit receive", "glue"),
        IBIS_BINDINGS("Ibis mpi, Open MPI Java bindings backend, one-to-one ports, data serialization,"
                + " explicit receive", "bindings");

        final String label;
        /** The value of {@code ibis.mpi.backend} for an Ibis program, else null. */
        final String backend;

        Program(String label) {
            this(label, null);
        }

        Program(String label, String backend) {
            this.label = label;
            this.backend = backend;
        }

        boolean ibis() {
            return backend != null;
        }

        /** The short name of an Ibis backend in column headings. */
        String column() {
            return "Ibis " + backend;
        }

        /** The label of this Ibis program's stream of direct buffers. */
        String directLabel() {
            return label + ", writeByteBuffer/readByteBuffer of direct buffers";
        }
    }

    /** The Ibis programs, one per impl-mpi backend, in report order. */
    private static final List<Program> IBIS_PROGRAMS = List.of(Program.IBIS, Program.IBIS_BINDINGS);

    /** The bindings backend's provider, present in impl-mpi's jar only when the bindings' classes were fetched. */
    private static final String BINDINGS_PROVIDER = "ibis/impl/mpi/OpenMpiBindingsProvider.class";

    private final boolean quick;
    private final int repetitions;
    private final int latencyCount;
    private final int streamCount;
    private final Path outputDirectory;
    private final String command;
    /** One series per program, transport and test. */
    private final Map<String, Series> series = new LinkedHashMap<>();
    /** Why a program is not measured (missing tool or classes), by program. */
    private final Map<Program, String> missing = new LinkedHashMap<>();
    /** The first failed run per program and transport, for the report. */
    private final Map<String, String> failures = new LinkedHashMap<>();
    private Path work;
    private Path cProgram;
    private Path javaClasses;
    private String mpiClasses;

    /** Creates the suite; {@code command} is shown in the report as the command that ran it. */
    public MpiSuite(boolean quick, Path outputDirectory, String command) {
        this(quick, quick ? 3 : 7, quick ? Test.LATENCY.quickCount : Test.LATENCY.fullCount,
                quick ? Test.STREAM.quickCount : Test.STREAM.fullCount, outputDirectory, command);
    }

    /** A suite of explicit sizes (tests use tiny ones; they count as quick). */
    MpiSuite(boolean quick, int repetitions, int latencyCount, int streamCount, Path outputDirectory,
            String command) {
        this.quick = quick;
        this.repetitions = repetitions;
        this.latencyCount = latencyCount;
        this.streamCount = streamCount;
        this.outputDirectory = outputDirectory;
        this.command = command;
    }

    /** The path of the last report written (for tests). */
    private Path reportFile;

    Path reportFile() {
        return reportFile;
    }

    /** Runs the suite, prints the report and writes it; returns the process exit status. */
    public int run() throws Exception {
        String loadBefore = Host.state();
        work = Files.createTempDirectory("ibis-bench-mpi");
        try {
            prepare();
            for (int r = 0; r < repetitions; r++) {
                System.out.println("repetition " + (r + 1) + " of " + repetitions);
                System.out.flush();
                for (Transport t : Transport.values()) {
                    for (Test test : Test.values()) {
                        for (Program p : Program.values()) {
                            measure(p, t, test);
                        }
                    }
                }
            }
            List<String> report = report(loadBefore);
            report.forEach(System.out::println);
            Files.createDirectories(outputDirectory);
            Path file = outputDirectory.resolve("ipl-mpi-" + LocalDate.now() + (quick ? "-quick" : "") + ".md");
            Files.write(file, report, StandardCharsets.UTF_8);
            reportFile = file;
            System.out.println();
            System.out.println("Report written to " + file.toAbsolutePath());
            return failures.isEmpty() ? 0 : 1;
        } finally {
            try (Stream<Path> files = Files.walk(work)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /** Finds the tools, compiles the C and Java peers; notes what cannot be measured and why. */
    private void prepare() throws IOException, InterruptedException {
        if (Host.onPath(MPIRUN).isEmpty()) {
            String why = MPIRUN + " is not installed: `apt-get install openmpi-bin libopenmpi-dev` (scripts/setup)";
            for (Program p : Program.values()) {
                missing.put(p, why);
            }
            return;
        }
        if (Host.onPath(MPICC).isEmpty()) {
            missing.put(Program.C, MPICC + " is not installed: `apt-get install libopenmpi-dev` (scripts/setup)");
        } else {
            Path source = copyResource("mpi_pingpong.c");
            cProgram = work.resolve("mpi_pingpong");
            String out = runTool(List.of(MPICC, "-O2", "-o", cProgram.toString(), source.toString()));
            if (!Files.isExecutable(cProgram)) {
                missing.put(Program.C, "compiling mpi_pingpong.c with " + MPICC + " failed: " + out);
            }
        }
        mpiClasses = MpiJavaPeers.classes();
        if (mpiClasses == null) {
            missing.put(Program.JAVA, MpiJavaPeers.classesMissing());
        } else {
            javaClasses = work.resolve("java-peer");
            String failed = MpiJavaPeers.compile(RESOURCES + "MpiJavaPingPong.java", mpiClasses, javaClasses);
            if (failed != null) {
                missing.put(Program.JAVA, failed);
            }
        }
        if (!ibisMpiPresent()) {
            for (Program p : IBIS_PROGRAMS) {
                missing.put(p, "impl-mpi (`ibis-impl-mpi`, nickname mpi) is not on the class path: build it"
                        + " (mvn -DskipTests package) so that dist/target/lib has it");
            }
        } else if (MpiSuite.class.getClassLoader().getResource(BINDINGS_PROVIDER) == null) {
            missing.put(Program.IBIS_BINDINGS, "impl-mpi was built without its Open MPI Java bindings backend:"
                    + " fetch the classes with scripts/fetch-ompi-java and rebuild impl-mpi");
        }
    }

    private static boolean ibisMpiPresent() {
        for (ibis.ipl.IbisStarter s : java.util.ServiceLoader.load(ibis.ipl.IbisStarter.class)) {
            if (s.getNickName().equals("mpi")) {
                return true;
            }
        }
        return false;
    }

    /** One job of 2 ranks; adds its figure to the series or notes the failure. */
    private void measure(Program p, Transport t, Test test) throws InterruptedException, IOException {
        if (missing.containsKey(p) || (test == Test.STREAM_DIRECT && !p.ibis())) {
            return;
        }
        int count = test == Test.LATENCY ? latencyCount : streamCount;
        List<String> cmd = new ArrayList<>(List.of(MPIRUN, "--oversubscribe", "-np", "2", "--bind-to", "none",
                "--mca", "pml", "ob1", "--mca", "btl", t.btl, "--mca", "btl_tcp_if_include", "lo",
                "--mca", "oob_tcp_if_include", "lo"));
        List<String> args = new ArrayList<>(List.of(test.arg, Integer.toString(count)));
        if (test != Test.LATENCY) {
            args.add(Integer.toString(test.bytes));
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        switch (p) {
            case C -> cmd.add(cProgram.toString());
            case JAVA -> cmd.addAll(List.of(java, "-Djava.library.path=" + MULTIARCH_LIBRARIES,
                    "-D" + RankPingPong.WARMUP_PROPERTY + "=" + warmupMillis(),
                    "-cp", javaClasses + File.pathSeparator + mpiClasses, "MpiJavaPingPong"));
            default -> {
                cmd.add(java);
                cmd.addAll(ChildProcesses.jvmOptions());
                cmd.addAll(List.of("-Dibis.implementation=mpi", "-Dibis.mpi.backend=" + p.backend,
                        "-Djava.library.path=" + MULTIARCH_LIBRARIES, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                        "-D" + RankPingPong.WARMUP_PROPERTY + "=" + warmupMillis(),
                        "-cp", System.getProperty("java.class.path"), RankPingPong.class.getName()));
            }
        }
        cmd.addAll(args);
        ProcessBuilder b = ChildProcesses.prepare(new ProcessBuilder(cmd)).redirectErrorStream(true);
        if ("root".equals(System.getProperty("user.name"))) {
            b.environment().putIfAbsent("OMPI_ALLOW_RUN_AS_ROOT", "1");
            b.environment().putIfAbsent("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        }
        Path output = work.resolve("job.out");
        b.redirectOutput(output.toFile()).redirectInput(new File("/dev/null"));
        Process job = b.start();
        boolean ended = job.waitFor(JOB_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!ended) {
            job.descendants().forEach(ProcessHandle::destroyForcibly);
            job.destroyForcibly();
            job.waitFor(10, TimeUnit.SECONDS);
        }
        String text = Files.readString(output, StandardCharsets.UTF_8);
        Matcher m = RESULT.matcher(text);
        if (ended && job.exitValue() == 0 && m.find() && m.group(1).equals(test.arg)) {
            series.computeIfAbsent(key(p, t, test), k -> new Series()).add(Double.parseDouble(m.group(2)));
        } else {
            String why = !ended ? "did not end within " + JOB_TIMEOUT_SECONDS + " s" : "exit " + job.exitValue();
            failures.putIfAbsent(key(p, t, test), why + ": " + String.join(" ", cmd) + "\n" + Host.tail(text, 15));
        }
    }

    /** Milliseconds of untimed rounds of the Ibis program ({@link RankPingPong#WARMUP_PROPERTY}). */
    private long warmupMillis() {
        return quick ? 300 : RankPingPong.DEFAULT_WARMUP_MILLIS;
    }

    private static String key(Program p, Transport t, Test test) {
        return p + "/" + t + "/" + test;
    }

    private List<String> report(String loadBefore) {
        List<String> r = new ArrayList<>();
        r.add("# Ibis benchmark suite `ipl` over `mpi`" + (quick ? " (quick)" : ""));
        r.add("");
        r.add("- Date: " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        r.add("- Command: `" + command + "`");
        r.add("- JVM: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + "; processors: " + Runtime.getRuntime().availableProcessors());
        r.add("- Every figure is a fresh job of 2 ranks: `" + MPIRUN + " --oversubscribe -np 2 --bind-to none --mca pml"
                + " ob1 --mca btl <btl> ...` on this machine; " + repetitions + " interleaved repetitions; each"
                + " program does as many untimed round trips or messages before it times as many again ("
                + latencyCount + " round trips, " + streamCount + " messages); the Java programs (Ibis and the"
                + " Java MPI peer) repeat their untimed rounds until rank 0 has spent " + warmupMillis()
                + " ms in them (the JIT compiles Ibis's message path only after some 10,000 messages, and the"
                + " Java peer's ping-pong took 0.215-0.229 µs one way after 20,000 untimed round trips, 0.179-0.194"
                + " after 200,000), Ibis then also while either rank's JIT compiled for more than a twentieth of"
                + " the last round (at most five times as long in all).");
        r.add("- Machine (" + Host.STATE_LEGEND + "): " + loadBefore + " before, " + Host.state()
                + " after");
        r.add("");
        for (Program p : missing.keySet()) {
            r.add("- **" + p.label + ": not measured**: " + missing.get(p));
        }
        if (!missing.isEmpty()) {
            r.add("");
        }
        table(r, Test.LATENCY, "## One-way latency, 1-byte ping-pong (µs, lower is better)");
        table(r, Test.STREAM, "## Throughput, 102,400-byte messages (MB/s = 10^6 bytes/s, higher is better)");
        Host.addFailures(r, "## Failed runs (the first of each figure)", failures);
        return r;
    }

    private void table(List<String> r, Test test, String title) {
        r.add(title);
        r.add("");
        boolean stream = test == Test.STREAM;
        StringBuilder head = new StringBuilder("| program | transport | median | min–max |");
        StringBuilder rule = new StringBuilder("| --- | --- | ---: | ---: |");
        for (Program i : IBIS_PROGRAMS) {
            head.append(' ').append(i.column()).append(" / this (paired) |");
            rule.append(" ---: |");
        }
        if (stream) {
            for (Program i : IBIS_PROGRAMS) {
                head.append(' ').append(i.column()).append(", direct buffers / this (paired) |");
                rule.append(" ---: |");
            }
        }
        r.add(head.toString());
        r.add(rule.toString());
        int columns = IBIS_PROGRAMS.size() * (stream ? 2 : 1);
        for (Transport t : Transport.values()) {
            for (Program p : Program.values()) {
                addRow(r, p.label, series.get(key(p, t, test)), t, test, p.ibis() ? null : p, columns);
            }
            if (stream) {
                for (Program i : IBIS_PROGRAMS) {
                    Series direct = series.get(key(i, t, Test.STREAM_DIRECT));
                    if (direct != null && direct.size() > 0) {
                        addRow(r, i.directLabel(), direct, t, test, null, columns);
                    }
                }
            }
        }
        r.add("");
    }

    /** One row; {@code peer} (a non-Ibis program) gets the paired ratios of each Ibis figure to it. */
    private void addRow(List<String> r, String label, Series s, Transport t, Test test, Program peer, int columns) {
        StringBuilder row = new StringBuilder("| " + label + " | " + t.description + " | ");
        if (s == null || s.size() == 0) {
            row.append("— | — |");
        } else {
            row.append(fmt(s.median(), test)).append(" | ").append(fmt(s.min(), test)).append('–')
                    .append(fmt(s.max(), test)).append(" |");
        }
        List<String> ratios = new ArrayList<>();
        if (peer != null && s != null) {
            for (Program i : IBIS_PROGRAMS) {
                ratios.add(paired(series.get(key(i, t, test)), s));
            }
            if (test == Test.STREAM) {
                for (Program i : IBIS_PROGRAMS) {
                    ratios.add(paired(series.get(key(i, t, Test.STREAM_DIRECT)), s));
                }
            }
        }
        for (int c = 0; c < columns; c++) {
            row.append(' ').append(c < ratios.size() ? ratios.get(c) : "—").append(" |");
        }
        r.add(row.toString());
    }

    /** The paired ratio of {@code ibis} to {@code peer}, or a dash when one is missing. */
    private static String paired(Series ibis, Series peer) {
        return ibis == null || peer == null || ibis.size() == 0 || ibis.size() != peer.size() ? "—"
                : String.format(Locale.ROOT, "%.2f", Series.pairedRatio(ibis, peer));
    }

    private static String fmt(double v, Test test) {
        return String.format(Locale.ROOT, test == Test.LATENCY ? "%.2f" : "%.0f", v);
    }

    private Path copyResource(String name) throws IOException {
        Path target = work.resolve(name);
        try (InputStream in = MpiSuite.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IOException("resource " + RESOURCES + name + " is missing from the benchmarks jar");
            }
            Files.copy(in, target);
        }
        return target;
    }

    private String runTool(List<String> cmd) throws IOException, InterruptedException {
        Path output = work.resolve("tool.out");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!p.waitFor(JOB_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return "timed out";
        }
        return Host.tail(Files.readString(output, StandardCharsets.UTF_8), 15);
    }


}
