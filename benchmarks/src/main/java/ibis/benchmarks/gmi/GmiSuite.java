package ibis.benchmarks.gmi;

import ibis.benchmarks.ChildProcesses;
import ibis.benchmarks.Host;
import ibis.benchmarks.MpiJavaPeers;
import ibis.benchmarks.ipl.Series;
import ibis.benchmarks.rmi.LatencyPlot;
import ibis.ipl.IbisStarter;
import ibis.registry.server.CentralRegistryServer;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code bin/ibis-bench gmi}: the gmi suite of BENCHMARKS.md. Per network implementation (tcp, ucx,
 * mpi: the one given, or every installed one) and group size (1, 2, 4, 8), one job of that many
 * processes, each a {@link GmiRank}: every process joins the Ibis pool for GMI and, when the Open MPI
 * Java bindings are there, initializes MPI through them for the peer. Measured in each job:
 * <ul>
 * <li>the invocation schemes of {@link GmiRank#SCHEMES} as time per operation (process 0 invokes,
 * except the combined invocation, where every process does), discarded calls followed by a group
 * call that waits until every member has run them all;</li>
 * <li>allreduce (sum of {@code double[]}) and broadcast of 8 B, 8 KB and 1 MB by
 * {@code ibis.gmi.collectives}, and the same with the same data by {@code MPI.COMM_WORLD.allReduce}
 * and {@code bcast} of the bindings on direct buffers, interleaved per repetition, each run
 * followed by a barrier of its own system.</li>
 * </ul>
 * With {@code mpirun.openmpi} the processes are the ranks of one
 * {@code mpirun --oversubscribe -np N} job (shared memory between the ranks: {@code btl self,vader}),
 * so that the peer runs in the same processes; for tcp and ucx the pool's registry is a registry
 * server embedded in this JVM on 127.0.0.1, for mpi it is the registry over MPI. impl-mpi
 * initializes MPI only when it is not yet, so it shares the peer's initialization. Without
 * {@code mpirun} the processes are plain JVMs and the report says why there is no peer.
 *
 * <p>More sections (the applications) are added with {@link #addSection}.
 */
public final class GmiSuite {

    /** Open MPI's launcher, named explicitly (the plain name may be MPICH's). */
    static final String MPIRUN = "mpirun.openmpi";

    /**
     * The Open MPI options on waiting of a job whose Ibis members use {@code impl}. Open MPI's
     * blocking calls poll without yielding the processor unless it counts more ranks than
     * processors. With Ibis over tcp or ucx only the MPI peer waits in MPI, and its figures for
     * groups of 2 swung by up to 100x within a run against the JVMs' own threads (tcp allreduce
     * 8 KB: 1205 µs median, min 386; 11.4 µs with the option): those jobs yield at every group size.
     * With Ibis over mpi, Ibis polls MPI too ({@code MPI_Test} in its waits, which decide
     * themselves when to yield or park), and the option makes every test that finds nothing yield
     * the processor: a group of 2 (GmiRank over mpi, no peer, 5 runs each) took 5.85 µs per
     * single/return with it and 2.10 without, 275 against 222 µs per 1 MB allreduce. So mpi jobs get
     * what a user of {@code mpirun} gets: Open MPI's default, which yields from 3 ranks on here.
     */
    static List<String> yieldOptions(String impl) {
        return impl.equals("mpi") ? List.of() : List.of("--mca", "mpi_yield_when_idle", "1");
    }

    /** System property: the Open MPI Java classes (a jar or folder), when not on the class path. */
    static final String CLASSES_PROPERTY = MpiJavaPeers.CLASSES_PROPERTY;
    /** Group sizes to measure, comma-separated (default {@code 1,2,4,8}): to look at one size closely. */
    public static final String SIZES_PROPERTY = "ibis.bench.gmi.sizes";
    /** {@code false}: skip the sections added by {@link #addSection} (the applications). */
    public static final String SECTIONS_PROPERTY = "ibis.bench.gmi.apps";
    /** The implementations measured when {@code --impl} is not given, if installed. */
    static final List<String> IMPLEMENTATIONS = List.of("tcp", "ucx", "mpi");
    /** Where Debian keeps libmpi_java.so; the JVM's default java.library.path lacks it. */
    private static final String MULTIARCH_LIBRARIES = "/usr/lib/x86_64-linux-gnu";
    private static final String PEER_RESOURCE = "/ibis/benchmarks/gmi/mpi/MpiJavaCollectives.java";
    private static final String PEER_CLASS = "MpiJavaCollectives";
    /**
     * The longest a job of the quick run may take; a job of the full run may take four times as
     * long: at 8 members on this VM's slow state the full run's schemes alone took over 300 s
     * (10,000 operations of 1-2 ms, six times), and the job's collectives were lost.
     */
    private static final long QUICK_JOB_TIMEOUT_SECONDS = 300;
    /** The warm-up of each measurement in the quick run, in milliseconds. */
    private static final long QUICK_WARMUP_MS = 300;
    private static final Pattern SCHEME = Pattern.compile("^(?:\\[\\d+\\] )?RESULT scheme (\\S+) ([0-9.]+)\\s*$",
            Pattern.MULTILINE);
    private static final Pattern COLLECTIVE = Pattern.compile(
            "^(?:\\[\\d+\\] )?RESULT coll (ibis|mpi) (allreduce|broadcast) (\\d+) ([0-9.]+)\\s*$", Pattern.MULTILINE);
    private static final Pattern PEER = Pattern.compile("^(?:\\[\\d+\\] )?PEER (.*)$", Pattern.MULTILINE);

    /** A further part of the suite (e.g. the applications), run after the micro-benchmarks. */
    public interface Section {
        /**
         * Measures and returns the section's report lines (Markdown, starting with a {@code ##} title).
         *
         * @param quick whether this is the quick run
         * @param implementations the implementations the suite measures
         */
        List<String> run(boolean quick, List<String> implementations) throws Exception;

        /** @return whether the last {@link #run} found a failure (a failed run, a wrong result): the suite fails */
        default boolean failed() {
            return false;
        }
    }

    private final boolean quick;
    private final String implementation;
    private final int[] groupSizes;
    private final int ops;
    private final int repetitions;
    private final int mediumOps;
    private final int largeOps;
    /** The untimed warm-up of each measurement ({@link GmiRank#WARMUP_MS_PROPERTY}). */
    private final long warmupMillis;
    private final Path outputDirectory;
    private final String command;
    private final List<Section> sections = new ArrayList<>();
    /** Series by implementation, group size and figure ("scheme NAME" or "ibis|mpi OP BYTES"). */
    private final Map<String, Series> series = new LinkedHashMap<>();
    /** Why an implementation or the peer is not measured. */
    private final Map<String, String> missing = new LinkedHashMap<>();
    /** The first failed job per implementation and group size. */
    private final Map<String, String> failures = new LinkedHashMap<>();
    private final List<String> implementations = new ArrayList<>();
    private Path work;
    private Path peerClasses;
    private String mpiClasses;
    private boolean mpirun;
    private Path reportFile;

    /**
     * Creates the suite with the sizes of BENCHMARKS.md (quick: fewer operations and repetitions).
     *
     * @param implementation the implementation to measure, or null for every installed one
     */
    public GmiSuite(boolean quick, Path outputDirectory, String command, String implementation) {
        this(quick, implementation, groupSizes(System.getProperty(SIZES_PROPERTY, "1,2,4,8")),
                quick ? 2_000 : 10_000, quick ? 3 : 5, quick ? 500 : 2_000, quick ? 20 : 100,
                Long.getLong(GmiRank.WARMUP_MS_PROPERTY, quick ? QUICK_WARMUP_MS : GmiRank.DEFAULT_WARMUP_MS),
                outputDirectory, command);
    }

    /** A suite of explicit sizes (tests use tiny ones). */
    GmiSuite(boolean quick, String implementation, int[] groupSizes, int ops, int repetitions, int mediumOps,
            int largeOps, long warmupMillis, Path outputDirectory, String command) {
        this.quick = quick;
        this.implementation = implementation;
        this.groupSizes = groupSizes.clone();
        this.ops = ops;
        this.repetitions = repetitions;
        this.mediumOps = mediumOps;
        this.largeOps = largeOps;
        this.warmupMillis = warmupMillis;
        this.outputDirectory = outputDirectory;
        this.command = command;
    }

    /** Adds a section run after the micro-benchmarks, whose lines go into the report. */
    public GmiSuite addSection(Section section) {
        if (Boolean.parseBoolean(System.getProperty(SECTIONS_PROPERTY, "true"))) {
            sections.add(section);
        }
        return this;
    }

    private static int[] groupSizes(String list) {
        try {
            int[] sizes = Arrays.stream(list.split(",")).map(String::trim).mapToInt(Integer::parseInt).toArray();
            if (sizes.length == 0 || Arrays.stream(sizes).anyMatch(n -> n < 1)) {
                throw new NumberFormatException("a size below 1");
            }
            return sizes;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + SIZES_PROPERTY + "=" + list
                    + ": give group sizes of 1 or more, comma-separated, such as 2,4", e);
        }
    }

    /** @return the report written by the last {@link #run}, or null */
    Path reportFile() {
        return reportFile;
    }

    /** Runs the suite, prints the report and writes it; returns the process exit status. */
    public int run() throws Exception {
        String loadBefore = Host.state();
        work = Files.createTempDirectory("ibis-bench-gmi");
        Properties p = new Properties();
        p.setProperty("ibis.registry.server.bind", "127.0.0.1");
        CentralRegistryServer registry = new CentralRegistryServer(0, p);
        registry.start();
        List<String> extra = new ArrayList<>();
        try {
            prepare();
            for (String impl : implementations) {
                for (int size : groupSizes) {
                    System.out.println("gmi over " + impl + ", group size " + size);
                    System.out.flush();
                    job(impl, size, registry.address());
                }
            }
            for (Section s : sections) {
                extra.addAll(s.run(quick, implementations));
            }
            Files.createDirectories(outputDirectory);
            String base = "gmi-" + LocalDate.now() + (quick ? "-quick" : "");
            List<String> report = report(loadBefore, base);
            report.addAll(extra);
            report.forEach(System.out::println);
            Path file = outputDirectory.resolve(base + ".md");
            Files.write(file, report, StandardCharsets.UTF_8);
            reportFile = file;
            System.out.println();
            System.out.println("Report written to " + file.toAbsolutePath());
            return failures.isEmpty() && sections.stream().noneMatch(Section::failed) ? 0 : 1;
        } finally {
            registry.close();
            try (Stream<Path> files = Files.walk(work)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    // ---------------------------------------------------------------- preparation

    private void prepare() throws IOException {
        Map<String, String> installed = new LinkedHashMap<>();
        for (IbisStarter s : ServiceLoader.load(IbisStarter.class)) {
            String why = s.unavailableReason();
            installed.put(s.getNickName(), why == null ? "" : why);
        }
        for (String impl : implementation != null ? List.of(implementation) : IMPLEMENTATIONS) {
            String why = installed.get(impl);
            if (why == null) {
                missing.put("Ibis " + impl, "not on the class path (build it: mvn -DskipTests package)");
            } else if (!why.isEmpty()) {
                missing.put("Ibis " + impl, why);
            } else {
                implementations.add(impl);
            }
        }
        mpirun = Host.onPath(MPIRUN).isPresent();
        if (!mpirun) {
            missing.put("MPI peer", MPIRUN + " is not installed (`apt-get install openmpi-bin libopenmpi-dev`,"
                    + " scripts/setup): the processes are plain JVMs, without MPI");
            if (implementations.remove("mpi")) {
                missing.put("Ibis mpi", "impl-mpi runs as the ranks of an MPI job, and " + MPIRUN
                        + " is not installed");
            }
            return;
        }
        mpiClasses = MpiJavaPeers.classes();
        if (mpiClasses == null) {
            missing.put("MPI peer", MpiJavaPeers.classesMissing());
            return;
        }
        peerClasses = work.resolve("mpi-peer");
        String failed = MpiJavaPeers.compile(PEER_RESOURCE, mpiClasses + File.pathSeparator
                + System.getProperty("java.class.path"), peerClasses);
        if (failed != null) {
            missing.put("MPI peer", failed);
            peerClasses = null;
        }
    }

    // ---------------------------------------------------------------- jobs

    private void job(String impl, int size, String registryAddress) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        String cp = System.getProperty("java.class.path");
        if (peerClasses != null) {
            cp = peerClasses + File.pathSeparator + mpiClasses + File.pathSeparator + cp;
        }
        // -cp first: Open MPI's mpirun takes the argument after the first one that contains "cp"
        // (such as -Dibis.implementation=tcp) for the class path of a java program and rewrites it.
        List<String> jvm = new ArrayList<>(List.of(java, "-cp", cp));
        jvm.addAll(ChildProcesses.jvmOptions());
        if (peerClasses != null) {
            jvm.add("-Djava.library.path=" + MULTIARCH_LIBRARIES);
        }
        String pool = "gmi-bench-" + ProcessHandle.current().pid() + "-" + impl + "-" + size + "-" + System.nanoTime();
        jvm.addAll(List.of("-Dibis.implementation=" + impl, "-Dibis.pool.name=" + pool, "-Dibis.pool.size=" + size,
                "-D" + GmiRank.WARMUP_MS_PROPERTY + "=" + warmupMillis,
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
        if (!impl.equals("mpi")) {
            jvm.add("-Dibis.server.address=" + registryAddress);
        }
        jvm.addAll(List.of(GmiRank.class.getName(), Integer.toString(ops), Integer.toString(repetitions),
                Integer.toString(mediumOps), Integer.toString(largeOps)));
        if (peerClasses != null) {
            jvm.add(PEER_CLASS);
        }
        Path output = work.resolve("job.out");
        List<Process> processes = new ArrayList<>();
        List<String> cmd;
        if (mpirun) {
            cmd = new ArrayList<>(List.of(MPIRUN, "--oversubscribe", "-np", Integer.toString(size), "--bind-to", "none",
                    "--mca", "pml", "ob1", "--mca", "btl", "self,vader", "--mca", "oob_tcp_if_include", "lo"));
            cmd.addAll(yieldOptions(impl));
            cmd.addAll(jvm);
            ProcessBuilder b = ChildProcesses.prepare(new ProcessBuilder(cmd)).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).redirectInput(new File("/dev/null"));
            if ("root".equals(System.getProperty("user.name"))) {
                b.environment().putIfAbsent("OMPI_ALLOW_RUN_AS_ROOT", "1");
                b.environment().putIfAbsent("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
            }
            processes.add(b.start());
        } else {
            cmd = jvm;
            for (int i = 0; i < size; i++) {
                ProcessBuilder b = ChildProcesses.prepare(new ProcessBuilder(cmd)).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
                        .redirectInput(new File("/dev/null"));
                processes.add(b.start());
            }
        }
        boolean ended = true;
        int status = 0;
        long timeoutSeconds = quick ? QUICK_JOB_TIMEOUT_SECONDS : 4 * QUICK_JOB_TIMEOUT_SECONDS;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        for (Process p : processes) {
            ended &= p.waitFor(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (!ended) {
                break;
            }
            status = Math.max(status, p.exitValue());
        }
        if (!ended) {
            for (Process p : processes) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
        String text = Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
        Files.deleteIfExists(output);
        Matcher m = SCHEME.matcher(text);
        int results = 0;
        while (m.find()) {
            series.computeIfAbsent(key(impl, size, "scheme " + m.group(1)), k -> new Series())
                    .add(Double.parseDouble(m.group(2)));
            results++;
        }
        m = COLLECTIVE.matcher(text);
        while (m.find()) {
            series.computeIfAbsent(key(impl, size, m.group(1) + " " + m.group(2) + " " + m.group(3)),
                    k -> new Series()).add(Double.parseDouble(m.group(4)));
        }
        m = PEER.matcher(text);
        if (m.find()) {
            missing.putIfAbsent("MPI peer over " + impl, m.group(1));
        }
        if (!ended || status != 0 || results == 0) {
            String why = !ended ? "did not end within " + timeoutSeconds + " s" : "exit " + status;
            failures.putIfAbsent(impl + ", group size " + size,
                    why + ": " + String.join(" ", cmd) + "\n" + Host.tail(text, 25));
        }
    }

    private static String key(String impl, int size, String figure) {
        return impl + "/" + size + "/" + figure;
    }

    private Series get(String impl, int size, String figure) {
        Series s = series.get(key(impl, size, figure));
        return s == null || s.size() == 0 ? null : s;
    }

    // ---------------------------------------------------------------- report

    private List<String> report(String loadBefore, String base) throws IOException {
        List<String> r = new ArrayList<>();
        r.add("# Ibis benchmark suite `gmi`" + (quick ? " (quick)" : ""));
        r.add("");
        r.add("- Date: " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        r.add("- Command: `" + command + "`");
        r.add("- JVM: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + "; processors: " + Runtime.getRuntime().availableProcessors());
        r.add("- Machine (" + Host.STATE_LEGEND + "): " + loadBefore + " before, " + Host.state() + " after");
        r.add("- Implementations: " + (implementations.isEmpty() ? "none" : String.join(", ", implementations))
                + "; group sizes: " + joinInts(groupSizes) + " (all processes on this machine)");
        r.add("- Processes: " + (mpirun ? "per implementation and group size one job `" + MPIRUN
                + " --oversubscribe -np N --bind-to none --mca pml ob1 --mca btl self,vader` of N JVMs (GmiRank),"
                + " for tcp and ucx with `" + String.join(" ", yieldOptions("tcp"))
                + "` (mpi: Open MPI's default, yielding only with more ranks than processors);"
                + " each initializes MPI through the Open MPI Java bindings (the peer) and then joins the Ibis pool"
                + " (tcp, ucx: registry server embedded in the driver on 127.0.0.1; mpi: the registry over MPI)."
                + " With mpi, impl-mpi finds MPI initialized and shares it (MPI_Initialized, then it duplicates"
                + " MPI_COMM_WORLD for its own traffic), so peer and Ibis run in the same processes in every case"
                : "N plain JVMs per implementation and group size (no mpirun), registry server embedded in the driver"
                        + " on 127.0.0.1"));
        r.add("- Schemes: " + ops + " operations per run, " + repetitions + " runs after an untimed warm-up (runs"
                + " repeated for " + warmupMillis + " ms, then while any process's JIT compiled for more than a"
                + " twentieth of the last run, at most " + GmiRank.WARMUP_EXTENSION + " times as long in all: the"
                + " JVMs' steady state, see docs/benchmarks.md); process 0"
                + " invokes (every process in `combined/allreduce`); a run of discarded calls ends with a group call"
                + " that returns when every member has run them all. Collectives: " + ops + " (8 B), " + mediumOps
                + " (8 KB), " + largeOps + " (1 MB) operations per run, each run followed by a barrier of the same"
                + " system, after the same warm-up (MPI: as many operations as Ibis's); Ibis and MPI alternate"
                + " within each run. Figures: median (min–max) of µs per operation;"
                + " ratios: median of the per-run ratios Ibis/MPI.");
        r.add("");
        missing.forEach((what, why) -> r.add("- **" + what + ": not measured**: " + why));
        if (!missing.isEmpty()) {
            r.add("");
        }
        for (String impl : implementations) {
            LatencyPlot plot = new LatencyPlot("GMI over " + impl + ": time per operation against group size",
                    "group size", "time per operation (µs)");
            schemesTable(r, impl, plot);
            collectivesTable(r, impl, plot);
            if (plot.hasCurves()) {
                Path png = outputDirectory.resolve(base + "-" + impl + ".png");
                plot.write(png);
                r.add("![" + impl + ": time per operation against group size](" + png.getFileName() + ")");
                r.add("");
            }
        }
        targets(r);
        Host.addFailures(r, "## Failed jobs (the first of each)", failures);
        return r;
    }

    private void schemesTable(List<String> r, String impl, LatencyPlot plot) {
        r.add("## Group method invocation over " + impl + " (µs per operation, lower is better)");
        r.add("");
        StringBuilder head = new StringBuilder("| scheme |");
        StringBuilder rule = new StringBuilder("| --- |");
        for (int size : groupSizes) {
            head.append(" group of ").append(size).append(" |");
            rule.append(" ---: |");
        }
        head.append(" largest growth per doubling / round trip |");
        rule.append(" ---: |");
        r.add(head.toString());
        r.add(rule.toString());
        double roundTrip = roundTrip(impl);
        for (String scheme : GmiRank.SCHEMES) {
            StringBuilder row = new StringBuilder("| " + scheme + " |");
            double growth = Double.NaN;
            Series previous = null;
            for (int size : groupSizes) {
                Series s = get(impl, size, "scheme " + scheme);
                row.append(' ').append(cell(s)).append(" |");
                if (s != null) {
                    plot.add(scheme, size, s.median());
                    if (previous != null) {
                        double g = s.median() - previous.median();
                        growth = Double.isNaN(growth) ? g : Math.max(growth, g);
                    }
                }
                previous = s;
            }
            row.append(' ').append(Double.isNaN(growth) || Double.isNaN(roundTrip) ? "—"
                    : String.format(Locale.ROOT, "%.2f", growth / roundTrip)).append(" |");
            r.add(row.toString());
        }
        r.add("");
        r.add("Round trip: the median of `single/return` at the smallest group of more than one process ("
                + (Double.isNaN(roundTrip) ? "not measured" : String.format(Locale.ROOT, "%.2f µs", roundTrip))
                + "); growth per doubling: the largest increase of the median from one group size to the next"
                + " listed one.");
        r.add("");
    }

    /** {@code single/return} at the smallest group of two or more processes: one round trip. */
    private double roundTrip(String impl) {
        for (int size : groupSizes) {
            Series s = get(impl, size, "scheme single/return");
            if (size > 1 && s != null) {
                return s.median();
            }
        }
        return Double.NaN;
    }

    private void collectivesTable(List<String> r, String impl, LatencyPlot plot) {
        r.add("## Collectives over " + impl + ": ibis.gmi.collectives beside the Open MPI Java bindings");
        r.add("");
        r.add("µs per operation, lower is better; MB/s = 10^6 bytes of the vector per second, 1 MB only.");
        r.add("");
        r.add("| collective | bytes | group size | Ibis µs | MPI µs | Ibis / MPI | Ibis MB/s | MPI MB/s |");
        r.add("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (String op : List.of("allreduce", "broadcast")) {
            for (int bytes : GmiRank.COLLECTIVE_BYTES) {
                for (int size : groupSizes) {
                    Series ibis = get(impl, size, "ibis " + op + " " + bytes);
                    Series mpi = get(impl, size, "mpi " + op + " " + bytes);
                    String ratio = ibis == null || mpi == null ? "—"
                            : String.format(Locale.ROOT, "%.2f", Series.pairedRatio(ibis, mpi));
                    boolean large = bytes == GmiRank.COLLECTIVE_BYTES[GmiRank.COLLECTIVE_BYTES.length - 1];
                    r.add("| " + op + " | " + bytes + " | " + size + " | " + cell(ibis) + " | " + cell(mpi) + " | "
                            + ratio + " | " + (large ? throughput(ibis, bytes) : "") + " | "
                            + (large ? throughput(mpi, bytes) : "") + " |");
                    if (bytes == 8 && op.equals("allreduce") && size > 1) { // 1: no message, no curve
                        if (ibis != null) {
                            plot.add("Ibis allreduce 8 B", size, ibis.median());
                        }
                        if (mpi != null) {
                            plot.add("MPI allreduce 8 B", size, mpi.median());
                        }
                    }
                }
            }
        }
        r.add("");
    }

    /** The targets, per implementation and group size of more than one process. */
    private void targets(List<String> r) {
        r.add("## Targets (issue 19): allreduce 8 B ≤ 2x MPI's time, 1 MB ≥ 0.5x MPI's throughput");
        r.add("");
        r.add("| implementation | group size | allreduce 8 B Ibis / MPI | met"
                + " | allreduce 1 MB throughput Ibis / MPI | met |");
        r.add("| --- | ---: | ---: | --- | ---: | --- |");
        int large = GmiRank.COLLECTIVE_BYTES[GmiRank.COLLECTIVE_BYTES.length - 1];
        for (String impl : implementations) {
            for (int size : groupSizes) {
                if (size == 1) {
                    continue;
                }
                Series i8 = get(impl, size, "ibis allreduce 8");
                Series m8 = get(impl, size, "mpi allreduce 8");
                Series iL = get(impl, size, "ibis allreduce " + large);
                Series mL = get(impl, size, "mpi allreduce " + large);
                double small = i8 == null || m8 == null ? Double.NaN : Series.pairedRatio(i8, m8);
                double big = iL == null || mL == null ? Double.NaN : 1 / Series.pairedRatio(iL, mL);
                r.add("| " + impl + " | " + size + " | " + ratio(small) + " | " + (Double.isNaN(small) ? "—"
                        : small <= 2 ? "yes" : "no") + " | " + ratio(big) + " | " + (Double.isNaN(big) ? "—"
                        : big >= 0.5 ? "yes" : "no") + " |");
            }
        }
        r.add("");
    }

    private static String ratio(double v) {
        return Double.isNaN(v) ? "—" : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String cell(Series s) {
        if (s == null) {
            return "—";
        }
        return String.format(Locale.ROOT, "%s (%s–%s)", fmt(s.median()), fmt(s.min()), fmt(s.max()));
    }

    private static String fmt(double micros) {
        return String.format(Locale.ROOT, micros < 100 ? "%.2f" : "%.0f", micros);
    }

    private static String throughput(Series s, int bytes) {
        return s == null ? "—" : String.format(Locale.ROOT, "%.0f", bytes / s.median());
    }

    private static String joinInts(int[] values) {
        StringBuilder b = new StringBuilder();
        for (int v : values) {
            b.append(b.length() == 0 ? "" : ", ").append(v);
        }
        return b.toString();
    }



}
