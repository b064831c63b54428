package ibis.benchmarks.serialization;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The {@code serialization} suite of BENCHMARKS.md: write and read of 100 KB {@code byte[]},
 * {@code int[]}, {@code double[]}, a 1023-node tree (MB/s) and of three small objects (µs per
 * object), to and from memory, for Ibis serialization on rewritten classes and on run-time
 * generated serializers, JDK serialization, Kryo 5 and Apache Fory, all in the same run. JMH is the
 * harness ({@link SerializationBench}); this class runs it programmatically, then prints and writes
 * the report with medians, min–max over the measurement iterations and ratios to the peers.
 *
 * <p>System properties (for focused runs while tuning): {@code ibis.bench.serialization.columns}
 * and {@code ibis.bench.serialization.workloads}, comma-separated JMH parameter values, restrict
 * what runs (the report then shows "—" for the rest). {@code --quick} leaves out the peers with
 * reference tracking unless the columns are chosen explicitly. {@code ibis.bench.serialization.forks}
 * (full mode, 3 by default) is the number of rounds; a round runs every cell once, in a JVM fork of
 * its own, the competing columns of a (workload, operation) one right after the other and in an
 * order rotated from round to round. One fork is one draw: on the shared machines these suites run
 * on, a memory-bound workload (the tree) runs up to 1.5 times slower for stretches of seconds to
 * a minute, in every column alike, and a JIT may compile a recursive serializer in a different
 * order in each JVM; cells measured side by side, several times over the run, see the same
 * conditions. A cell's median and min–max are over all its forks' measurement iterations.
 */
public final class SerializationSuite {

    /**
     * Peers whose best is the reference for the "best of Kryo and Fory" targets (their default: no
     * reference tracking).
     */
    private static final Column[] FAST_PEERS = {Column.KRYO, Column.FORY};

    /** The same peers with reference tracking: the guarantees Ibis and the JDK always give. */
    private static final Column[] REF_PEERS = {Column.KRYO_REFS, Column.FORY_REFS};

    /** Allowed run-time path / rewritten path time ratio (a project target). */
    private static final double RUNTIME_LIMIT = 1.2;

    private final boolean quick;
    private final Path outputDirectory;
    private final String command;
    private final Set<Column> columns;
    private final Set<Workload> workloads;

    /** Creates the suite; {@code command} is shown in the report as the command that ran it. */
    public SerializationSuite(boolean quick, Path outputDirectory, String command) {
        this.quick = quick;
        this.outputDirectory = outputDirectory;
        this.command = command;
        Set<Column> chosen = select(Column.class, System.getProperty("ibis.bench.serialization.columns"));
        if (quick && System.getProperty("ibis.bench.serialization.columns") == null) {
            chosen.removeAll(List.of(REF_PEERS)); // a short run: the peers in their default mode only
        }
        this.columns = chosen;
        this.workloads = select(Workload.class, System.getProperty("ibis.bench.serialization.workloads"));
    }

    private static <E extends Enum<E>> Set<E> select(Class<E> type, String list) {
        Set<E> all = new LinkedHashSet<>(Arrays.asList(type.getEnumConstants()));
        if (list == null || list.isBlank()) {
            return all;
        }
        Set<E> chosen = new LinkedHashSet<>();
        for (String key : list.split(",")) {
            E match = null;
            for (E e : all) {
                String k = e instanceof Column c ? c.key : ((Workload) e).key;
                if (k.equals(key.trim())) {
                    match = e;
                }
            }
            if (match == null) {
                throw new IllegalArgumentException("unknown " + type.getSimpleName() + " '" + key + "'");
            }
            chosen.add(match);
        }
        return chosen;
    }

    /** Measured ns/op of one (column, workload, operation), one value per measurement iteration. */
    record Key(Column column, Workload workload, boolean write) {
    }

    /** Median, minimum and maximum of some values. */
    record Stats(double median, double min, double max) {
        static Stats of(List<Double> values) {
            double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int n = v.length;
            double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
            return new Stats(median, v[0], v[n - 1]);
        }
    }

    /** Runs the suite, prints the report and writes it; returns the process exit status. */
    public int run() throws Exception {
        List<String> report = new ArrayList<>(header());
        report.add("");
        report.addAll(paths());
        report.forEach(System.out::println);
        System.out.println();
        System.out.flush();

        Map<Key, List<Double>> nanos = new HashMap<>();
        List<Key> cells = new ArrayList<>();
        for (Workload w : workloads) {
            for (boolean write : new boolean[] {true, false}) {
                for (Column c : columns) {
                    if (c.measures(w)) {
                        cells.add(new Key(c, w, write));
                    }
                }
            }
        }
        int total = quick ? cells.size() : cells.size() * rounds();
        Progress progress = new Progress(System.out, total);
        long start = System.nanoTime();
        if (quick) {
            // two runs, so that JMH's cross product of columns and workloads is exactly the cells
            for (boolean classes : new boolean[] {false, true}) {
                List<Key> part = cells.stream().filter(k -> k.workload().hasClasses() == classes).toList();
                if (!part.isEmpty()) {
                    collect(jmh(part, 0, progress), nanos);
                }
            }
        } else {
            for (int round = 0; round < rounds(); round++) {
                for (List<Key> group : roundOrder(cells, round)) {
                    for (Key cell : group) {
                        collect(jmh(List.of(cell), 1, progress), nanos);
                    }
                }
            }
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        System.out.println("(" + total + " benchmarks in " + seconds + " s)");
        System.out.println();

        List<String> tables = tables(nanos, messageSizes());
        tables.forEach(System.out::println);
        report.add("");
        report.addAll(tables);

        Files.createDirectories(outputDirectory);
        Path file = outputDirectory.resolve("serialization-" + LocalDate.now() + (quick ? "-quick" : "") + ".md");
        Files.write(file, report, StandardCharsets.UTF_8);
        System.out.println();
        System.out.println("Report written to " + file);
        return 0;
    }

    // ---- set-up and JMH

    private List<String> header() {
        Runtime rt = Runtime.getRuntime();
        List<String> h = new ArrayList<>();
        h.add("# Ibis benchmark suite `serialization`" + (quick ? " (quick)" : ""));
        h.add("");
        h.add("- Date: " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        h.add("- JDK: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.vendor") + ")");
        h.add("- OS: " + System.getProperty("os.name") + " " + System.getProperty("os.version") + ", "
                + rt.availableProcessors() + " cores");
        h.add("- Command: `" + command + "`");
        h.add("- Harness: JMH " + jmhVersion() + ", average time per operation; "
                + (quick ? "quick: no forks, every benchmark in the suite's own JVM (indicative figures); "
                        : rounds() + " rounds, each running every (column, workload, operation) in a JVM fork of its "
                        + "own, the columns of a (workload, operation) one after the other in an order rotated per "
                        + "round; ")
                + warmupIterations() + " warm-up iterations of "
                + warmupTime() + ", " + measurementIterations() + " measurement iterations of " + measurementTime()
                + " (the median and min–max below are over the measurement iterations); fork JVM options: "
                + String.join(" ", forkJvmArgs()));
        h.add("- Set-up: to and from memory, one object (or array, or whole tree) per message. Writes go to a sink "
                + "that discards the bytes (no column pays a copy after serializing; Ibis hands the large parts of "
                + "primitive arrays to its sink as they are, as to the TCP transport, which copies them once into its "
                + "direct staging buffer, where the peers' output buffers would be copied too); every read first "
                + "receives the message from an in-memory wire with one copy into the serializer's input buffer, as a "
                + "transport would deliver it (Ibis: the block stream's source, straight into the reader's array for "
                + "large arrays, as the TCP source stores them from its direct staging buffer; JDK: its input stream; "
                + "Kryo and Fory: a copy into their reused input buffer"
                + (Codec.PEER_TRANSPORT_COPY ? "" : " — switched OFF in this run") + ").");
        h.add("- Ibis: `Serialization.createOutput(\"ibis\", BlockOutputStream)` with 64 KiB blocks and "
                + "`createInput` over a `BlockInputStream`; per message `writeObject`/`readObject` and both "
                + "`endMessage` calls, as a port does. JDK: one `ObjectOutputStream` per stream, `writeObject`, "
                + "`reset()`, `flush()` per message (as RMI). Kryo "
                + version("com.esotericsoftware.kryo.Kryo", "com.esotericsoftware/kryo")
                + ": registered classes, `UnsafeOutput`/`UnsafeInput` over reused byte arrays, fixed-length "
                + "numbers (faster here than its variable-length default), `writeClassAndObject`/"
                + "`readClassAndObject`. Fory " + version("org.apache.fory.Fory", "org.apache.fory/fory-core")
                + ": Java mode, class registration required, generated serializers, fixed-length numbers (faster here "
                + "than its compressed default), reused heap `MemoryBuffer`s. Kryo and Fory run in their default mode "
                + "without reference tracking (shared objects are duplicated, cycles unsupported; the workloads have "
                + "none) and, as \"+refs\", with reference tracking, which gives the guarantees Ibis and the JDK "
                + "always give.");
        h.add("- Classes: the tree node (`Tree`: `left`, `right`, 4 `int`s), `Ints32` (32 `int`s) and `Ints4Null2`"
                + " (4 `int`s, 2 references of its own type, null) are ordinary non-final `Serializable` classes with "
                + "public fields; MB = 10^6 bytes; 100 KB = 102,400 bytes; "
                + "a tree's user payload is 16 bytes per node.");
        return h;
    }

    /** Which code path each Ibis column uses, checked on the classes themselves. */
    private List<String> paths() {
        List<String> t = new ArrayList<>();
        t.add("## Code paths (checked at run time)");
        t.add("");
        t.add("| column | class | implements `ibis.io.Serializable` (rewritten) | has `_ibis_io_Generator` | path |");
        t.add("| --- | --- | --- | --- | --- |");
        for (Column c : List.of(Column.IBIS_REWRITTEN, Column.IBIS_RUNTIME)) {
            Set<Class<?>> seen = new LinkedHashSet<>();
            for (Workload w : Workload.values()) {
                if (w.hasClasses()) {
                    seen.add(w.create(c.plainClasses).getClass());
                }
            }
            for (Class<?> cls : seen) {
                boolean rewritten = ibis.io.Serializable.class.isAssignableFrom(cls);
                t.add("| " + c.label + " | `" + cls.getName() + "` | " + rewritten + " | " + hasGenerator(cls) + " | "
                        + (rewritten ? "rewritten code (build time)" : "serializer generated at run time") + " |");
            }
        }
        return t;
    }

    static boolean hasGenerator(Class<?> cls) {
        try {
            Class.forName(cls.getName() + "_ibis_io_Generator", false, cls.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static String version(String className, String mavenCoordinates) {
        try {
            Class<?> c = Class.forName(className);
            Package p = c.getPackage();
            String v = p == null ? null : p.getImplementationVersion();
            if (v == null) {
                try (java.io.InputStream in = c.getClassLoader().getResourceAsStream(
                        "META-INF/maven/" + mavenCoordinates + "/pom.properties")) {
                    if (in != null) {
                        java.util.Properties pom = new java.util.Properties();
                        pom.load(in);
                        v = pom.getProperty("version");
                    }
                } catch (IOException e) {
                    v = null;
                }
            }
            return v != null ? v : "(version unknown)";
        } catch (ClassNotFoundException e) {
            return "(missing)";
        }
    }

    private static String jmhVersion() {
        Package p = Runner.class.getPackage();
        String v = p == null ? null : p.getImplementationVersion();
        return v != null ? v : "1.37";
    }

    /**
     * Full mode: the number of rounds, each of which runs every (column, workload, operation) in a
     * JVM fork of its own, so each serializer is compiled for itself alone
     * ({@code ibis.bench.serialization.forks}, 3 by default). Quick mode: none, everything in this
     * JVM, one benchmark after the other, because starting 64 JVMs (Fory generates its serializers
     * anew in each) alone takes most of a minute; its figures are indicative (the JIT sees all
     * columns' and workloads' classes at once).
     */
    private int rounds() {
        return quick ? 0 : Math.max(1, Integer.getInteger("ibis.bench.serialization.forks", 3));
    }

    private int warmupIterations() {
        return 3;
    }

    private TimeValue warmupTime() {
        return quick ? TimeValue.milliseconds(100) : TimeValue.seconds(1);
    }

    private int measurementIterations() {
        return 5;
    }

    private TimeValue measurementTime() {
        return quick ? TimeValue.milliseconds(60) : TimeValue.seconds(1);
    }

    /** Whether Linux offers transparent huge pages on request (mode "always" or "madvise"). */
    private static boolean transparentHugePages() {
        try {
            String mode = Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled"));
            return mode.contains("[always]") || mode.contains("[madvise]");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * The host JVM's options (system properties, JAVA_OPTS) plus a fixed heap for every fork, touched
     * before the benchmark starts: on a virtual machine whose memory the host backs only on first
     * touch, a fork's first passes through a young generation it had never used cost a page fault
     * per page (measured on this machine: single 1 s iterations of the tree read at 200 µs per
     * message instead of 10, and medians moved by 2x in allocating workloads; with the heap
     * touched, 8.3–8.7 µs in every iteration).
     */
    private static List<String> forkJvmArgs() {
        List<String> args = new ArrayList<>();
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-agentlib:jdwp") && !a.startsWith("-Xms") && !a.startsWith("-Xmx")) {
                args.add(a);
            }
        }
        args.add("-Xms2g");
        args.add("-Xmx2g");
        args.add("-XX:+AlwaysPreTouch");
        if (transparentHugePages()) {
            args.add("-XX:+UseTransparentHugePages"); // touching 2 GiB takes 2 s instead of 4 (every fork)
        }
        return args;
    }

    /**
     * One round of the full mode: the cells grouped by (workload, operation), each group's columns
     * one after the other, starting at column {@code round} of the group (rotated), so that
     * competing columns are measured minutes apart at most and none always goes first.
     */
    static List<List<Key>> roundOrder(List<Key> cells, int round) {
        Map<List<Object>, List<Key>> groups = new LinkedHashMap<>();
        for (Key k : cells) {
            groups.computeIfAbsent(List.of(k.workload(), k.write()), g -> new ArrayList<>()).add(k);
        }
        List<List<Key>> order = new ArrayList<>();
        for (List<Key> g : groups.values()) {
            List<Key> rotated = new ArrayList<>(g);
            Collections.rotate(rotated, -(round % g.size()));
            order.add(rotated);
        }
        return order;
    }

    /**
     * Runs {@code cells} (quick: all in this JVM; full: one cell, in one fork of its own), which
     * must be the cross product of their columns, workloads and operations.
     */
    private Collection<RunResult> jmh(List<Key> cells, int forks, Progress progress) throws RunnerException {
        Set<String> ops = new TreeSet<>();
        Set<String> columnKeys = new LinkedHashSet<>();
        Set<String> workloadKeys = new LinkedHashSet<>();
        for (Key k : cells) {
            ops.add(k.write() ? "write" : "read");
            columnKeys.add(k.column().key);
            workloadKeys.add(k.workload().key);
        }
        ChainedOptionsBuilder o = new OptionsBuilder()
                .include(
                        "^" + Pattern.quote(SerializationBench.class.getName()) + "\\.(" + String.join("|", ops) + ")$")
                .param("column", columnKeys.toArray(new String[0]))
                .param("workload", workloadKeys.toArray(new String[0]))
                .forks(forks)
                .warmupIterations(warmupIterations())
                .warmupTime(warmupTime())
                .measurementIterations(measurementIterations())
                .measurementTime(measurementTime())
                .jvmArgs(forkJvmArgs().toArray(new String[0]))
                .shouldFailOnError(true);
        return new Runner(o.build(), progress).run();
    }

    private static void collect(Collection<RunResult> results, Map<Key, List<Double>> nanos) {
        for (RunResult r : results) {
            BenchmarkParams p = r.getParams();
            String b = p.getBenchmark();
            Key key = new Key(Column.of(p.getParam("column")), Workload.of(p.getParam("workload")),
                    b.endsWith(".write"));
            List<Double> values = nanos.computeIfAbsent(key, k -> new ArrayList<>());
            for (BenchmarkResult br : r.getBenchmarkResults()) {
                for (IterationResult ir : br.getIterationResults()) {
                    values.add(ir.getPrimaryResult().getScore());
                }
            }
        }
    }

    /** Bytes of one steady-state message per column and workload (Ibis: with its 4-byte block header). */
    private Map<Column, Map<Workload, Integer>> messageSizes() throws IOException {
        Map<Column, Map<Workload, Integer>> sizes = new EnumMap<>(Column.class);
        for (Column c : columns) {
            Codec codec = c.open();
            Map<Workload, Integer> m = new EnumMap<>(Workload.class);
            for (Workload w : workloads) {
                if (c.measures(w)) {
                    m.put(w, codec.message(w.create(c.plainClasses)).length);
                }
            }
            sizes.put(c, m);
        }
        return sizes;
    }

    // ---- tables

    private List<String> tables(Map<Key, List<Double>> nanos, Map<Column, Map<Workload, Integer>> sizes) {
        List<String> t = new ArrayList<>();
        List<String> targets = new ArrayList<>();

        t.add("## Throughput: arrays and the 1023-node tree (MB/s of user payload, higher is better)");
        t.add("");
        t.add(columnHeader("workload", "Ibis ÷ best of Kryo, Fory", "Ibis ÷ best +refs", "Ibis ÷ JDK",
                "run-time ÷ rewritten (time)"));
        t.add(separator(4));
        for (Workload w : workloads) {
            if (w.throughput) {
                for (boolean write : new boolean[] {true, false}) {
                    t.add(row(w, write, nanos, v -> w.payloadBytes / v * 1000, true, targets));
                }
            }
        }
        t.add("");
        t.add("Cells: median (min–max) over the measurement iterations. Ratios are of medians, as speed: "
                + "above 1 means Ibis (rewritten) is faster. The run-time column is the ibis serialization of the "
                + "same classes without the rewriter (for arrays the two Ibis paths are one and the same code, "
                + "so it is not measured separately).");

        if (workloads.contains(Workload.TREE1023)) {
            t.add("");
            t.add("## 1023-node tree: total stream throughput (MB/s of each serializer's own bytes) and message size");
            t.add("");
            t.add("| operation | " + join(columns, c -> c.label) + " |");
            t.add("| --- |" + " ---: |".repeat(columns.size()));
            for (boolean write : new boolean[] {true, false}) {
                StringBuilder b = new StringBuilder("| " + (write ? "write" : "read") + " |");
                for (Column c : columns) {
                    List<Double> v = nanos.get(new Key(c, Workload.TREE1023, write));
                    Integer size = sizes.get(c).get(Workload.TREE1023);
                    b.append(' ').append(v == null || size == null ? "—" : cell(convert(v, x -> size / x * 1000)))
                            .append(" |");
                }
                t.add(b.toString());
            }
            StringBuilder b = new StringBuilder("| bytes per message |");
            for (Column c : columns) {
                Integer size = sizes.get(c).get(Workload.TREE1023);
                b.append(' ').append(size == null ? "—" : size.toString()).append(" |");
            }
            t.add(b.toString());
        }

        t.add("");
        t.add("## Per-object cost (µs per object, lower is better)");
        t.add("");
        t.add(columnHeader("object", "best of Kryo, Fory ÷ Ibis", "best +refs ÷ Ibis", "JDK ÷ Ibis",
                "run-time ÷ rewritten (time)"));
        t.add(separator(4));
        for (Workload w : workloads) {
            if (!w.throughput) {
                for (boolean write : new boolean[] {true, false}) {
                    t.add(row(w, write, nanos, v -> v / 1000, false, targets));
                }
            }
        }
        t.add("");
        t.add("One object per message (for the tree of 15 nodes: the whole tree). Ratios as speed: above 1 "
                + "means Ibis (rewritten) is faster.");

        t.add("");
        t.add("## Message sizes (bytes per steady-state message)");
        t.add("");
        t.add("| workload | " + join(columns, c -> c.label) + " |");
        t.add("| --- |" + " ---: |".repeat(columns.size()));
        for (Workload w : workloads) {
            StringBuilder b = new StringBuilder("| " + w.label + " |");
            for (Column c : columns) {
                Integer size = sizes.get(c).get(w);
                b.append(' ').append(size == null ? "—" : size.toString()).append(" |");
            }
            t.add(b.toString());
        }
        t.add("");
        t.add("Ibis: the payload plus the 4-byte block header; the first message of a stream also carries the "
                + "type definitions (JDK: class descriptors are in every message, since reset() forgets them).");

        t.add("");
        t.add("## Targets");
        t.add("");
        t.add("| target | figure | ratio | met |");
        t.add("| --- | --- | ---: | --- |");
        t.addAll(targets);
        return t;
    }

    private interface Conversion {
        double apply(double nanosPerOp);
    }

    private String columnHeader(String first, String... ratios) {
        return "| " + first + " | operation | " + join(columns, c -> c.label) + " | " + String.join(" | ", ratios)
                + " |";
    }

    private String separator(int ratios) {
        return "| --- | --- |" + " ---: |".repeat(columns.size() + ratios);
    }

    private static <T> String join(Collection<T> items, java.util.function.Function<T, String> f) {
        List<String> s = new ArrayList<>();
        for (T x : items) {
            s.add(f.apply(x));
        }
        return String.join(" | ", s);
    }

    private static Stats convert(List<Double> nanos, Conversion f) {
        List<Double> v = new ArrayList<>();
        for (double x : nanos) {
            v.add(f.apply(x));
        }
        return Stats.of(v);
    }

    /** One table row; adds the row's target checks to {@code targets}. */
    private String row(Workload w, boolean write, Map<Key, List<Double>> nanos, Conversion f, boolean higherIsBetter,
            List<String> targets) {
        String op = write ? "write" : "read";
        StringBuilder b = new StringBuilder("| " + w.label + " | " + op + " |");
        Map<Column, Double> medians = new EnumMap<>(Column.class);
        for (Column c : columns) {
            List<Double> v = nanos.get(new Key(c, w, write));
            if (v == null || v.isEmpty()) {
                b.append(" — |");
                continue;
            }
            Stats s = convert(v, f);
            medians.put(c, Stats.of(v).median()); // ns per op, for the ratios
            b.append(' ').append(cell(s)).append(" |");
        }
        Double ibis = medians.get(Column.IBIS_REWRITTEN);
        Double best = best(medians, FAST_PEERS);
        Double bestRefs = best(medians, REF_PEERS);
        Double jdk = medians.get(Column.JDK);
        Double runtime = medians.get(Column.IBIS_RUNTIME);
        String figure = w.label + ", " + op;
        String vsBest = ibis == null || best == null ? "—" : ratio(best / ibis);
        String vsBestRefs = ibis == null || bestRefs == null ? "—" : ratio(bestRefs / ibis);
        String vsJdk = ibis == null || jdk == null ? "—" : ratio(jdk / ibis);
        String rt = ibis == null || runtime == null ? "—" : ratio(runtime / ibis);
        b.append(' ').append(vsBest).append(" | ").append(vsBestRefs).append(" | ").append(vsJdk).append(" | ")
                .append(rt).append(" |");
        if (ibis != null && jdk != null) {
            targets.add(target("faster than JDK", figure, jdk / ibis, jdk / ibis > 1));
        }
        if (ibis != null && best != null && w.throughput) {
            targets.add(target("≥ best of Kryo, Fory (default: no reference tracking)", figure, best / ibis,
                    best / ibis >= 1));
        }
        if (ibis != null && bestRefs != null && w.throughput) {
            targets.add(target("≥ best of Kryo +refs, Fory +refs (same guarantees; not an issue target)", figure,
                    bestRefs / ibis, bestRefs / ibis >= 1));
        }
        if (ibis != null && runtime != null) {
            targets.add(target("run-time path within " + RUNTIME_LIMIT + "x", figure, runtime / ibis,
                    runtime / ibis <= RUNTIME_LIMIT));
        }
        return b.toString();
    }

    private static Double best(Map<Column, Double> medians, Column[] peers) {
        Double best = null;
        for (Column c : peers) {
            Double m = medians.get(c);
            if (m != null && (best == null || m < best)) {
                best = m;
            }
        }
        return best;
    }

    private static String target(String what, String figure, double ratio, boolean met) {
        return "| " + what + " | " + figure + " | " + ratio(ratio) + " | " + (met ? "yes" : "**no**") + " |";
    }

    private static String cell(Stats s) {
        return fmt(s.median()) + " (" + fmt(s.min()) + "–" + fmt(s.max()) + ")";
    }

    private static String fmt(double v) {
        if (v >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (v >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String ratio(double r) {
        return String.format(Locale.ROOT, "%.2f", r);
    }

    /**
     * JMH output reduced to one line per finished benchmark (JMH's own text report would repeat
     * what the tables say); whatever JMH or a fork prints otherwise (errors included) passes through.
     */
    private static final class Progress implements OutputFormat {
        private final PrintStream out;
        private final int total;
        private int done;

        Progress(PrintStream out, int total) {
            this.out = out;
            this.total = total;
        }

        @Override
        public void iteration(BenchmarkParams benchParams, IterationParams params, int iteration) {
        }

        @Override
        public void iterationResult(BenchmarkParams benchParams, IterationParams params, int iteration,
                IterationResult data) {
        }

        @Override
        public void startBenchmark(BenchmarkParams benchParams) {
        }

        @Override
        public void endBenchmark(BenchmarkResult result) {
            done++;
            if (result == null) {
                return;
            }
            BenchmarkParams p = result.getParams();
            String name = p.getBenchmark().substring(p.getBenchmark().lastIndexOf('.') + 1);
            out.printf(Locale.ROOT, "[%d/%d] %-15s %-11s %-5s %12.1f ns/op%n", done, total, p.getParam("column"),
                    p.getParam("workload"), name, result.getPrimaryResult().getScore());
            out.flush();
        }

        @Override
        public void startRun() {
        }

        @Override
        public void endRun(Collection<RunResult> result) {
        }

        @Override
        public void print(String s) {
            if (!s.isBlank()) {
                out.print(s);
            }
        }

        @Override
        public void println(String s) {
            if (!s.isBlank()) {
                out.println(s);
            }
        }

        @Override
        public void flush() {
            out.flush();
        }

        @Override
        public void close() {
            out.flush();
        }

        @Override
        public void verbosePrintln(String s) {
        }

        @Override
        public void write(int b) {
            out.write(b);
        }

        @Override
        public void write(byte[] b) throws IOException {
            out.write(b);
        }
    }
}
