package ibis.benchmarks.ipl;

import ibis.benchmarks.ChildProcesses;
import ibis.benchmarks.Host;
import ibis.benchmarks.ipl.BenchPorts.Stream;
import ibis.benchmarks.rmi.LatencyPlot;
import ibis.io.config.Property;
import ibis.ipl.impl.ImplPropertyTable;
import ibis.registry.server.CentralRegistryServer;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The {@code ipl} suite of BENCHMARKS.md for one implementation ({@code ibis.implementation}, set
 * by {@code ibis-bench --impl}; default tcp): 1-byte round-trip latency
 * (explicit receive and upcalls) and one-way throughput of 100 KB {@code byte[]}, {@code int[]} and
 * {@code double[]} messages and of a 1023-node tree, through the data, byte, Ibis object and JDK
 * object serializations, beside raw Java sockets measured in the same run; and the throughput of
 * one-to-many (1, 2, 4, 8 receive ports) and many-to-one (1, 2, 4, 8 send ports) data streams,
 * beside the one-to-one stream; and round-trip latency and one-way throughput against message size
 * (1 B to 1 MiB, {@link SizedMessages}) beside raw blocking sockets, with their plots. For another
 * implementation than tcp, the tcp round trip too (a second peer JVM in a pool of its own), and for
 * ucx, UCX's own C benchmark {@code ucx_perftest} ({@link UcxPerftest}) over shared memory and over
 * tcp on loopback, as further figures of the same repetitions.
 *
 * <p>Set-up: two JVMs on this machine. This (driver) JVM embeds the registry server, starts the
 * peer JVM ({@link IplBenchPeer}), and times everything from its side; the peer echoes round trips
 * and sinks streams. All traffic is on 127.0.0.1. Every run checks what came back (echoed bytes,
 * checksums of the received payloads), so a broken path fails the suite instead of looking fast.
 *
 * <p>Method (why the figures can be trusted on a shared, noisy machine):
 * <ul>
 * <li>Warm-up by time, not by count, in several passes over all figures, so that both JVMs have
 * compiled the code of every path, including the call sites that only become polymorphic once all
 * figures ran; the last warm-up batch calibrates how many iterations one repetition takes, so every
 * figure is measured for about the same time.</li>
 * <li>Repetitions are interleaved: each repetition runs every figure once, group by group (a
 * group is one payload, or the round trips, with its raw peer), alternating the order within the
 * group from one repetition to the next. An Ibis figure and its raw peer thus see the same state of
 * the machine.</li>
 * <li>Reported: the median and the min–max over the repetitions, and as the ratio to the peer the
 * median over the repetitions of the paired ratio (Ibis / peer of the same repetition).</li>
 * </ul>
 */
public final class IplSuite {

    /** The sizes of a run. */
    record Settings(String name, int warmupPasses, long warmupMillisPerPass, int repetitions, long repetitionMillis,
            int minRoundTrips, int minMessages, int plainPools) {
    }

    /** About half a minute (and the plain programs: 2 pools per serialization). */
    static final Settings QUICK = new Settings("quick", 2, 250, 7, 120, 1_000, 10, 2);
    /** A few minutes (and the plain programs: 5 pools per serialization). */
    static final Settings FULL = new Settings("full", 3, 1_000, 15, 500, 5_000, 50, 5);

    /**
     * System property: a comma-separated list of the figure groups to run ({@code latency},
     * {@code BYTES}, {@code INTS}, {@code DOUBLES}, {@code TREE}, {@code MULTICAST}, {@code MANYTOONE},
     * {@code SIZES}, {@code PLAIN}); default all. For looking at one
     * figure closely; a partial report says so in its tables.
     */
    public static final String GROUPS_PROPERTY = "ibis.bench.ipl.groups";

    /** The label of the tcp round trip measured beside another implementation. */
    static final String TCP_REFERENCE_LABEL = "Ibis tcp, explicit receive (the tcp reference)";

    /** Figure groups of one-to-many and many-to-one ports. */
    static final String MULTICAST = "MULTICAST";
    static final String MANY_TO_ONE = "MANYTOONE";
    /** Suffix of the figure groups of the raw-socket peers of the group figures ({@link RawGroups}). */
    static final String RAW_SUFFIX = "-RAW";

    /** The plain programs ({@link PlainStream}) started by {@code bin/ibis-run}. */
    static final String PLAIN = "PLAIN";

    /** Prefix of the figure groups of one message size each ({@link #GROUPS_PROPERTY} name: {@code SIZES}). */
    static final String SIZE_PREFIX = "SIZE-";

    /** The figure group of {@code ucx_perftest} (ucx only): tag_lat and tag_bw, shared memory and tcp. */
    static final String PERFTEST = "PERFTEST";

    /** The ucx report's plain two-member ping-pong ({@link PlainPingPong}), in the PERFTEST group. */
    private final PlainPingPong plainPingPong = new PlainPingPong("ucx");
    private static final String PLAIN_PING_PONG_LABEL = "Ibis ucx, a plain two-member program (one-way)";
    /** The same program's 100 KB streams, {@code byte[]} and direct buffers, in the PERFTEST group. */
    private final PlainPingPong plainStream = new PlainPingPong("ucx", PlainPingPong.Mode.BW);
    private final PlainPingPong plainDirectStream = new PlainPingPong("ucx", PlainPingPong.Mode.BWD);
    private static final String PLAIN_STREAM_LABEL = "Ibis ucx, a plain two-member program, byte[],"
            + " writeArray/readArray, data";
    private static final String PLAIN_DIRECT_LABEL = "Ibis ucx, a plain two-member program,"
            + " writeByteBuffer/readByteBuffer, direct buffers, data";

    /** The implementation every other one is compared with, and the suite's default. */
    static final String TCP = ChildProcesses.DEFAULT_IMPLEMENTATION;

    private final Settings settings;
    private final boolean quick;
    private final Path outputDirectory;
    private final String command;
    /** The implementation measured ({@code ibis.implementation}; tcp by default). */
    private final String implementation;
    /** How the figures of Ibis are labelled: "Ibis tcp", "Ibis ucx". */
    private final String ibisLabel;
    /** The ucx_perftest of a ucx run, or null (not ucx, or not installed). */
    private UcxPerftest perftest;

    /** One measured figure: a workload, its place in the report and its repetitions. */
    private static final class Figure {
        final String label;
        final String serialization;
        /** The payload of a throughput figure of a fixed workload; null for a round trip or a sized message. */
        final Payload payload;
        /** Bytes of user payload per message of a sized throughput figure; 0 otherwise. */
        final int messageBytes;
        final boolean latency;
        final Workload workload;
        /** Receivers each message reaches (a multicast delivers its payload this many times). */
        final int copies;
        /** A peer program that reports the figure itself (no workload of this JVM), or null. */
        final SelfTimedPeer selfTimed;
        final Series series = new Series();
        int iterations;
        /** Why a self-timed figure could not be measured (its series is then empty), or null. */
        String failure;

        Figure(String label, String serialization, Payload payload, Workload workload) {
            this(label, serialization, payload, workload, 1);
        }

        Figure(String label, String serialization, Payload payload, Workload workload, int copies) {
            this.label = label;
            this.serialization = serialization;
            this.payload = payload;
            this.workload = workload;
            this.copies = copies;
            this.messageBytes = 0;
            this.latency = payload == null;
            this.selfTimed = null;
        }

        /** A figure that {@code peer} measures and reports itself: µs when {@code latency}, else MB/s. */
        Figure(String label, boolean latency, SelfTimedPeer peer) {
            this.label = label;
            this.serialization = "—";
            this.payload = null;
            this.workload = null;
            this.copies = 1;
            this.messageBytes = 0;
            this.latency = latency;
            this.selfTimed = peer;
        }

        /** A figure of messages of {@code messageBytes} bytes: round trips when {@code latency}, else a stream. */
        Figure(String label, String serialization, int messageBytes, boolean latency, Workload workload) {
            this.label = label;
            this.serialization = serialization;
            this.payload = null;
            this.workload = workload;
            this.copies = 1;
            this.messageBytes = messageBytes;
            this.latency = latency;
            this.selfTimed = null;
        }

        boolean latency() {
            return latency;
        }

        /** Microseconds per round trip, or MB/s (10^6 bytes per second) of user payload. */
        double value(long nanos, int n) {
            if (latency()) {
                return nanos / 1000.0 / n;
            }
            long bytes = payload != null ? payload.userBytes() : messageBytes;
            return (double) bytes * copies * n / (nanos / 1e9) / 1e6;
        }
    }

    /** Creates the suite; {@code command} is shown in the report as the command that ran it. */
    public IplSuite(boolean quick, Path outputDirectory, String command) {
        this(quick ? QUICK : FULL, outputDirectory, command);
    }

    /** Creates the suite with explicit sizes (tests use tiny ones). */
    IplSuite(Settings settings, Path outputDirectory, String command) {
        this.settings = settings;
        this.quick = settings != FULL;
        this.outputDirectory = outputDirectory;
        this.command = command;
        this.implementation = ChildProcesses.implementation();
        this.ibisLabel = "Ibis " + implementation;
    }

    /** True when this run measures ucx, and so has the ucx_perftest figures. */
    private boolean ucx() {
        return implementation.equals("ucx");
    }

    /** Runs the suite, prints the report and writes it; returns the process exit status. */
    public int run() throws Exception {
        String loadBefore = Host.state();
        List<String> header = header();
        header.forEach(System.out::println);
        System.out.println();
        System.out.flush();

        Properties serverProps = new Properties();
        serverProps.setProperty("ibis.registry.server.bind", "127.0.0.1");
        String pool = "ibis-bench-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        try (CentralRegistryServer server = new CentralRegistryServer(0, serverProps)) {
            server.start();
            return runWith(server.address(), pool, header, loadBefore);
        }
    }

    /** The path of the last report written (for tests). */
    private Path reportFile;

    Path reportFile() {
        return reportFile;
    }

    /** Runs everything against the given registry; the peers and all Ibises end before it closes. */
    private int runWith(String server, String pool, List<String> header, String loadBefore) throws Exception {
        Process peer = null;
        IbisDriver ibis = null;
        Process tcpPeer = null;
        IbisDriver tcpIbis = null;
        List<Workload> raw = new ArrayList<>();
        try {
            peer = startPeer(server, pool, implementation);
            int[] ports = awaitReady(peer);
            ibis = new IbisDriver(server, pool, implementation);
            if (!implementation.equals(TCP)) {
                // The tcp round trip of the same run, for the ratio of the two implementations: a pair
                // of its own (this JVM and a second peer JVM) in a second pool.
                String tcpPool = pool + "-tcp";
                tcpPeer = startPeer(server, tcpPool, TCP);
                awaitReady(tcpPeer);
                tcpIbis = new IbisDriver(server, tcpPool, TCP);
            }

            Map<String, List<Figure>> groups = new LinkedHashMap<>();
            RawSockets.BlockingPingPong rawPing = new RawSockets.BlockingPingPong(ports[0]);
            raw.add(rawPing);
            RawSockets.NioPingPong nioPing = new RawSockets.NioPingPong(ports[1]);
            raw.add(nioPing);
            List<Figure> latency = new ArrayList<>();
            latency.add(new Figure("raw Java socket, blocking", "—", null, rawPing));
            latency.add(new Figure("raw Java NIO SocketChannel, blocking", "—", null, nioPing));
            latency.add(new Figure(ibisLabel + ", explicit receive", "data", null, ibis.explicitPingPong()));
            latency.add(new Figure(ibisLabel + ", upcalls", "data", null, ibis.upcallPingPong()));
            if (tcpIbis != null) {
                latency.add(new Figure(TCP_REFERENCE_LABEL, "data", null, tcpIbis.explicitPingPong()));
            }
            groups.put("latency", latency);
            if (ucx()) {
                perftest = UcxPerftest.find().orElse(null);
                if (perftest != null) {
                    List<Figure> c = new ArrayList<>();
                    for (UcxPerftest.Test test : UcxPerftest.Test.values()) {
                        for (UcxPerftest.Transport t : UcxPerftest.Transport.values()) {
                            c.add(new Figure(perftestLabel(test, t), test.latency, perftest.peer(test, t)));
                        }
                    }
                    c.add(new Figure(PLAIN_PING_PONG_LABEL, true, plainPingPong));
                    c.add(new Figure(PLAIN_STREAM_LABEL, false, plainStream));
                    c.add(new Figure(PLAIN_DIRECT_LABEL, false, plainDirectStream));
                    groups.put(PERFTEST, c);
                }
            }
            for (ArrayKind kind : ArrayKind.values()) {
                Payload payload = Payload.values()[kind.ordinal()];
                RawSockets.BlockingStream s = new RawSockets.BlockingStream(ports[0], kind);
                raw.add(s);
                List<Figure> g = new ArrayList<>();
                g.add(new Figure("raw Java socket, ByteBuffer conversion", "—", payload, s));
                g.add(new Figure(ibisLabel + ", writeArray/readArray", Stream.DATA.serialization, payload,
                        ibis.stream(payload, Stream.DATA)));
                if (kind == ArrayKind.BYTE) {
                    g.add(new Figure(ibisLabel + ", writeArray/readArray", Stream.BYTE.serialization, payload,
                            ibis.stream(payload, Stream.BYTE)));
                    g.add(new Figure(ibisLabel + DIRECT_SUFFIX, Stream.DATA.serialization, payload,
                            ibis.directStream(Stream.DATA)));
                }
                g.add(new Figure(ibisLabel + ", writeObject/readObject", Stream.IBIS.serialization, payload,
                        ibis.stream(payload, Stream.IBIS)));
                g.add(new Figure(ibisLabel + ", writeObject/readObject", Stream.SUN.serialization, payload,
                        ibis.stream(payload, Stream.SUN)));
                groups.put(payload.name(), g);
            }
            RawSockets.ObjectStream tree = new RawSockets.ObjectStream(ports[0]);
            raw.add(tree);
            List<Figure> trees = new ArrayList<>();
            trees.add(new Figure("raw Java socket, ObjectOutputStream (reset per message)", "JDK", Payload.TREE,
                    tree));
            trees.add(new Figure(ibisLabel + ", writeObject/readObject", Stream.IBIS.serialization, Payload.TREE,
                    ibis.stream(Payload.TREE, Stream.IBIS)));
            trees.add(new Figure(ibisLabel + ", writeObject/readObject", Stream.SUN.serialization, Payload.TREE,
                    ibis.stream(Payload.TREE, Stream.SUN)));
            groups.put(Payload.TREE.name(), trees);
            // Groups: the one-to-one data stream of byte[] again (the reference of the group
            // figures, measured in the same repetition), then the group figures.
            List<Figure> multicast = new ArrayList<>();
            List<Figure> manyToOne = new ArrayList<>();
            Workload oneToOne = ibis.stream(Payload.BYTES, Stream.DATA);
            multicast.add(new Figure("one-to-one send port (reference)", Stream.DATA.serialization, Payload.BYTES,
                    oneToOne));
            manyToOne.add(new Figure("one-to-one send port (reference)", Stream.DATA.serialization, Payload.BYTES,
                    oneToOne));
            for (int g = 0; g < BenchPorts.GROUP_SIZES.length; g++) {
                int size = BenchPorts.GROUP_SIZES[g];
                multicast.add(new Figure("multicast to " + size + " receive port" + (size == 1 ? "" : "s"),
                        Stream.DATA.serialization, Payload.BYTES, ibis.multicast(g), size));
                manyToOne.add(new Figure("many-to-one from " + size + " send port" + (size == 1 ? "" : "s"),
                        Stream.DATA.serialization, Payload.BYTES, ibis.manyToOne(g)));
            }
            groups.put(MULTICAST, multicast);
            // The raw-socket peers of the group figures, each beside a raw one-to-one stream.
            List<Figure> rawMulticast = new ArrayList<>();
            List<Figure> rawManyToOne = new ArrayList<>();
            RawGroups.Multicast rawOneToOne = new RawGroups.Multicast(ports[0], 1);
            raw.add(rawOneToOne);
            rawMulticast.add(new Figure("raw one-to-one socket (reference)", "—", Payload.BYTES, rawOneToOne));
            rawManyToOne.add(new Figure("raw one-to-one socket (reference)", "—", Payload.BYTES, rawOneToOne));
            for (int size : BenchPorts.GROUP_SIZES) {
                if (size > 1) {
                    RawGroups.Multicast m = new RawGroups.Multicast(ports[0], size);
                    raw.add(m);
                    rawMulticast.add(new Figure("raw multicast to " + size + " sockets (one writing thread)", "—",
                            Payload.BYTES, m, size));
                }
                RawGroups.ManyToOne selector = new RawGroups.ManyToOne(ports[0], ports[2], size, true);
                raw.add(selector);
                rawManyToOne.add(new Figure("raw many-to-one from " + size + " socket" + (size == 1 ? "" : "s")
                        + ", one selector thread", "—", Payload.BYTES, selector));
                if (size > 1) {
                    RawGroups.ManyToOne threads = new RawGroups.ManyToOne(ports[0], ports[2], size, false);
                    raw.add(threads);
                    rawManyToOne.add(new Figure("raw many-to-one from " + size + " sockets, a thread each", "—",
                            Payload.BYTES, threads));
                }
            }
            groups.put(MULTICAST + RAW_SUFFIX, rawMulticast);
            groups.put(MANY_TO_ONE, manyToOne);
            groups.put(MANY_TO_ONE + RAW_SUFFIX, rawManyToOne);
            // Message sizes: round trips and streams of byte[] messages, Ibis beside raw blocking sockets.
            for (int n : SizedMessages.SIZES) {
                SizedMessages.RawEcho echo = new SizedMessages.RawEcho(ports[0], n);
                raw.add(echo);
                SizedMessages.RawStream stream = new SizedMessages.RawStream(ports[0], n);
                raw.add(stream);
                List<Figure> g = new ArrayList<>();
                g.add(new Figure("raw Java socket, round trip", "—", n, true, echo));
                g.add(new Figure(ibisLabel + ", round trip", Stream.DATA.serialization, n, true,
                        ibis.sizedPingPong(n)));
                g.add(new Figure("raw Java socket, stream", "—", n, false, stream));
                g.add(new Figure(ibisLabel + ", stream", Stream.DATA.serialization, n, false, ibis.sizedStream(n)));
                groups.put(SIZE_PREFIX + n, g);
            }

            String only = System.getProperty(GROUPS_PROPERTY);
            boolean plain = true;
            if (only != null && !only.isBlank()) {
                List<String> wanted = List.of(only.toUpperCase(Locale.ROOT).split("\\s*,\\s*"));
                plain = wanted.contains(PLAIN);
                groups.keySet().removeIf(g -> !wanted.contains(g.startsWith(SIZE_PREFIX) ? "SIZES"
                        : g.toUpperCase(Locale.ROOT).replace(RAW_SUFFIX, "")));
                if (groups.isEmpty() && !plain) {
                    throw new IllegalArgumentException(GROUPS_PROPERTY + "=" + only + " selects no figure; groups are"
                            + " latency, " + String.join(", ", List.of("BYTES", "INTS", "DOUBLES", "TREE", MULTICAST,
                                    MANY_TO_ONE, "SIZES", PLAIN, PERFTEST + " (ucx)")));
                }
            }
            warmUp(groups);
            measure(groups);
            List<PlainPrograms.Result> plainResults = plain
                    ? new PlainPrograms(settings.plainPools(), implementation).run()
                    : List.of();
            List<String> report = new ArrayList<>(header);
            report.add("- Ibis: " + ibis.implementationDescription() + "; " + ibisSettings());
            report.add("- Tree class: " + TreeNode.class.getName() + ", "
                    + (rewritten() ? "rewritten by ibisc (generated serializer in the class)"
                            : "not rewritten (Ibis serialization generates its serializer at run time)"));
            report.add("- Machine (" + Host.STATE_LEGEND + "): " + loadBefore + " before, " + Host.state()
                    + " after");
            report.add("");
            report.addAll(tables(groups, plainResults));
            report.forEach(System.out::println);
            reportFile = write(report);
            System.out.println();
            System.out.println("Report written to " + reportFile);
            return 0;
        } finally {
            for (Workload w : raw) {
                try {
                    w.close();
                } catch (IOException e) {
                    // closing anyway
                }
            }
            if (ibis != null) {
                closeBounded(ibis);
            }
            if (tcpIbis != null) {
                closeBounded(tcpIbis);
            }
            for (Process p : new Process[] {peer, tcpPeer}) {
                if (p != null) {
                    p.getOutputStream().close();
                    if (!p.waitFor(15, TimeUnit.SECONDS)) {
                        p.destroyForcibly();
                    }
                }
            }
        }
    }

    private static List<Figure> all(Map<String, List<Figure>> groups) {
        List<Figure> all = new ArrayList<>();
        groups.values().forEach(all::addAll);
        return all;
    }

    /**
     * Runs every figure for the warm-up time, in several passes over all figures, and sets each
     * figure's iterations per repetition from the speed of its last warm-up batch.
     */
    private void warmUp(Map<String, List<Figure>> groups) throws Exception {
        List<Figure> all = all(groups);
        long budget = settings.warmupMillisPerPass() * 1_000_000L;
        long target = settings.repetitionMillis() * 1_000_000L;
        for (int pass = 1; pass <= settings.warmupPasses(); pass++) {
            System.out.println("warming up, pass " + pass + " of " + settings.warmupPasses() + " ("
                    + all.size() + " figures, " + settings.warmupMillisPerPass() + " ms each)");
            for (Figure f : all) {
                if (f.selfTimed != null) {
                    calibrate(f, pass == 1, target);
                    continue;
                }
                int n = f.latency() ? 50 : 2;
                long spent = 0;
                long lastNanos = 1;
                int lastN = 1;
                while (spent < budget) {
                    long start = System.nanoTime();
                    f.workload.run(n);
                    long elapsed = System.nanoTime() - start;
                    spent += elapsed;
                    lastNanos = Math.max(1, elapsed);
                    lastN = n;
                    if (elapsed < budget / 8 && n < (1 << 24)) {
                        n *= 2;
                    }
                }
                double perIteration = (double) lastNanos / lastN;
                int min = f.latency() ? settings.minRoundTrips() : settings.minMessages();
                f.iterations = (int) Math.max(min, Math.min(Integer.MAX_VALUE / 2, target / perIteration));
            }
        }
        System.out.flush();
    }

    /** Fewest operations of a self-timed figure's run (its program warms up within the run, too). */
    private static final int SELF_TIMED_MIN_ROUND_TRIPS = 10_000;
    private static final int SELF_TIMED_MIN_MESSAGES = 1_000;

    /**
     * One warm-up run of a self-timed figure (a first one of a fixed size), which sets its
     * iterations per repetition; a failure takes the figure out of the run, with the reason.
     */
    private static void calibrate(Figure f, boolean first, long targetNanos) {
        if (f.failure != null) {
            return;
        }
        try {
            f.selfTimed.measure(first ? 2 * selfTimedMinimum(f) : f.iterations);
            resize(f, targetNanos);
            System.out.println("  " + f.label + ": " + f.iterations + " iterations per repetition");
        } catch (IOException e) {
            f.failure = e.getMessage();
            System.out.println(f.label + " failed: " + f.failure);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            f.failure = "interrupted";
        }
    }

    private static int selfTimedMinimum(Figure f) {
        return f.latency() ? SELF_TIMED_MIN_ROUND_TRIPS : SELF_TIMED_MIN_MESSAGES;
    }

    /**
     * Sizes the next run of a self-timed figure from the speed of its last one, for about the
     * repetition time: a program with busy-polling processes slows down by orders of magnitude when
     * the machine gets busy, and a run sized for an idle machine would then take minutes.
     */
    private static void resize(Figure f, long targetNanos) {
        double perIteration = Math.max(1, f.selfTimed.lastNanosPerIteration());
        f.iterations = (int) Math.max(selfTimedMinimum(f), Math.min(50_000_000, targetNanos / perIteration));
    }

    /** The repetitions: every figure once per repetition, group by group, alternating the order. */
    private void measure(Map<String, List<Figure>> groups) throws Exception {
        for (int rep = 1; rep <= settings.repetitions(); rep++) {
            System.out.println("repetition " + rep + " of " + settings.repetitions());
            for (List<Figure> group : groups.values()) {
                List<Figure> order = new ArrayList<>(group);
                if (rep % 2 == 0) {
                    Collections.reverse(order);
                }
                for (Figure f : order) {
                    if (f.selfTimed != null) {
                        measureSelfTimed(f, settings.repetitionMillis() * 1_000_000L);
                        continue;
                    }
                    long start = System.nanoTime();
                    f.workload.run(f.iterations);
                    f.series.add(f.value(System.nanoTime() - start, f.iterations));
                }
            }
        }
        System.out.println();
    }

    /**
     * One repetition of a self-timed figure. A failure drops the figure from the report's ratios
     * (its series is emptied, so no value pairs with the wrong repetition of another figure).
     */
    private static void measureSelfTimed(Figure f, long targetNanos) throws InterruptedException {
        if (f.failure != null) {
            return;
        }
        try {
            f.series.add(f.selfTimed.measure(f.iterations));
            resize(f, targetNanos);
        } catch (IOException e) {
            f.failure = e.getMessage();
            System.out.println(f.label + " failed: " + f.failure);
            f.series.clear();
        }
    }

    private List<String> header() {
        Runtime rt = Runtime.getRuntime();
        List<String> h = new ArrayList<>();
        h.add("# Ibis benchmark suite `ipl`" + (implementation.equals(TCP) ? "" : " over `" + implementation + "`")
                + (quick ? " (" + settings.name() + ")" : ""));
        h.add("");
        h.add("- Date: " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        h.add("- JDK: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.vendor") + ")");
        h.add("- OS: " + System.getProperty("os.name") + " " + System.getProperty("os.version") + ", "
                + rt.availableProcessors() + " cores");
        h.add("- Command: `" + command + "`");
        h.add("- Implementation: `" + implementation + "` (`ibis.implementation`)" + (implementation.equals(TCP) ? ""
                : "; the tcp round trip beside it (a second peer JVM, in a pool of its own)"
                        + (ucx() ? "; " + UcxPerftest.NAME + ": " + UcxPerftest.find().map(UcxPerftest::executable)
                                .orElse("not installed") : "")
                        + "; every process started with " + String.join(", ", ChildProcesses.describeEnvironment())));
        h.add("- Set-up: two JVMs on one machine (driver and peer), loopback 127.0.0.1, TCP_NODELAY everywhere."
                + " Warm-up: " + settings.warmupPasses() + " passes of " + settings.warmupMillisPerPass()
                + " ms per figure; then " + settings.repetitions() + " interleaved repetitions of about "
                + settings.repetitionMillis() + " ms per figure (at least " + settings.minRoundTrips()
                + " round trips / " + settings.minMessages() + " messages).");
        return h;
    }

    private static String ibisSettings() {
        StringBuilder b = new StringBuilder();
        for (Property<?> p : List.of(ImplPropertyTable.RECEIVE_SPIN_MICROS_PROPERTY,
                ImplPropertyTable.UPCALL_SPIN_MICROS_PROPERTY, ImplPropertyTable.UPCALL_HANDOFF_MICROS_PROPERTY,
                ImplPropertyTable.BUFFER_SIZE_PROPERTY)) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append('`').append(p.name()).append('=').append(p.get(null)).append('`');
        }
        return b.toString();
    }

    private static boolean rewritten() {
        try {
            return Class.forName("ibis.io.Serializable").isAssignableFrom(TreeNode.class);
        } catch (ClassNotFoundException e) {
            return false;
        }
    }


    private List<String> tables(Map<String, List<Figure>> groups, List<PlainPrograms.Result> plain) throws IOException {
        List<String> t = new ArrayList<>();
        List<Figure> latency = groups.get("latency");
        if (latency != null) {
            Figure rawPing = latency.get(0);
            Figure nioPing = latency.get(1);
            t.add("## Round-trip latency, 1-byte message (µs, lower is better)");
            t.add("");
            t.add("| sender and receiver | serialization | median | min–max | ratio to raw blocking | ratio to NIO |");
            t.add("| --- | --- | ---: | ---: | ---: | ---: |");
            for (Figure x : latency) {
                t.add("| " + x.label + " | " + x.serialization + " | " + fmt(x.series.median()) + " | "
                        + range(x.series) + " | " + ratio(x, rawPing) + " | " + ratio(x, nioPing) + " |");
            }
            t.add("");
        }
        t.add("## One-way throughput (MB/s = 10^6 bytes/s of user payload, higher is better)");
        t.add("");
        t.add("User payload per message: 102,400 bytes for the arrays, " + TreeNode.NODES + " × 16 = "
                + TreeNode.PAYLOAD_BYTES + " bytes for the tree. Object ports allocate a new array or tree"
                + " per message on the receiver; data and byte ports read into a reused array.");
        t.add("");
        t.add("| payload | sender and receiver | serialization | median | min–max | ratio to raw |");
        t.add("| --- | --- | --- | ---: | ---: | ---: |");
        for (Map.Entry<String, List<Figure>> g : groups.entrySet()) {
            if (g.getKey().equals("latency") || g.getKey().startsWith(MULTICAST) || g.getKey().startsWith(MANY_TO_ONE)
                    || g.getKey().startsWith(SIZE_PREFIX) || g.getKey().equals(PERFTEST)) {
                continue;
            }
            Figure peer = g.getValue().get(0);
            for (Figure x : g.getValue()) {
                t.add("| " + x.payload.displayName() + " | " + x.label + " | " + x.serialization + " | "
                        + fmt(x.series.median()) + " | " + range(x.series) + " | " + ratio(x, peer) + " |");
            }
        }
        t.add("");
        t.add("Ratios are Ibis / peer: the median over the repetitions of the ratio of the two values measured"
                + " in the same repetition. Below 1 is faster for latency, above 1 is faster for throughput.");
        t.add("");
        t.addAll(ucxTables(groups));
        t.addAll(groupTable(groups));
        t.addAll(sizeTable(groups));
        Map<String, Double> byteStreams = new LinkedHashMap<>(); // the suite's byte[] streams, by serialization
        for (Figure f : groups.getOrDefault(Payload.BYTES.name(), List.of())) {
            if (f.label.startsWith("Ibis")) {
                byteStreams.putIfAbsent(f.serialization, f.series.median());
            }
        }
        t.addAll(PlainPrograms.table(plain, byteStreams, implementation));
        t.addAll(targets(groups));
        t.add("## Not yet measured");
        t.add("");
        t.add("- other implementations: `--impl " + (ucx() ? "tcp" : "ucx") + "`; `--impl mpi` (Ibis over MPI beside a"
                + " C MPI ping-pong and the Open MPI Java bindings, a report of its own);");
        t.add("- a raw NIO streaming peer.");
        return t;
    }

    /** The label suffix of the 100 KB stream through direct buffers. */
    static final String DIRECT_SUFFIX = ", writeByteBuffer/readByteBuffer, direct buffers";

    /** The label of a ucx_perftest figure. */
    private static String perftestLabel(UcxPerftest.Test test, UcxPerftest.Transport transport) {
        return UcxPerftest.NAME + " " + test.label() + ", " + transport.description;
    }

    /** The first figure of a group with this label (and serialization, when not null), or null. */
    private static Figure find(Map<String, List<Figure>> groups, String group, String label, String serialization) {
        for (Figure f : groups.getOrDefault(group, List.of())) {
            if (f.label.equals(label) && (serialization == null || f.serialization.equals(serialization))) {
                return f;
            }
        }
        return null;
    }

    /**
     * For ucx: Ibis beside ucx_perftest (one-way latency and 100 KB throughput, over shared memory
     * and over tcp on lo) and beside Ibis tcp, with the ucx targets; what is missing when
     * ucx_perftest is not installed.
     */
    private List<String> ucxTables(Map<String, List<Figure>> groups) {
        List<String> t = new ArrayList<>();
        if (!ucx()) {
            return t;
        }
        Figure explicit = find(groups, "latency", ibisLabel + ", explicit receive", null);
        Figure upcalls = find(groups, "latency", ibisLabel + ", upcalls", null);
        Figure tcpReference = find(groups, "latency", TCP_REFERENCE_LABEL, null);
        Figure stream = find(groups, Payload.BYTES.name(), ibisLabel + ", writeArray/readArray",
                Stream.DATA.serialization);
        Figure direct = find(groups, Payload.BYTES.name(), ibisLabel + DIRECT_SUFFIX, Stream.DATA.serialization);
        List<Figure> c = groups.getOrDefault(PERFTEST, List.of());
        // Test × transport, in the order of the enums: tag_lat shm, tag_lat tcp, tag_bw shm, tag_bw tcp.
        Figure latShm = c.size() >= 4 ? c.get(0) : null;
        Figure latTcp = c.size() >= 4 ? c.get(1) : null;
        Figure bwShm = c.size() >= 4 ? c.get(2) : null;
        Figure bwTcp = c.size() >= 4 ? c.get(3) : null;
        Figure eagerShm = find(groups, PERFTEST, perftestLabel(UcxPerftest.Test.TAG_BW_EAGER,
                UcxPerftest.Transport.SHARED_MEMORY), null);
        Figure eagerTcp = find(groups, PERFTEST, perftestLabel(UcxPerftest.Test.TAG_BW_EAGER,
                UcxPerftest.Transport.TCP), null);
        Figure plain = find(groups, PERFTEST, PLAIN_PING_PONG_LABEL, null);
        Figure plainStreamFigure = find(groups, PERFTEST, PLAIN_STREAM_LABEL, null);
        Figure plainDirectFigure = find(groups, PERFTEST, PLAIN_DIRECT_LABEL, null);
        t.add("## ucx beside " + UcxPerftest.NAME + ", UCX's own C benchmark, and beside tcp (same run)");
        t.add("");
        if (perftest == null) {
            t.add("**" + UcxPerftest.NAME + " is not installed** (not on the PATH), so the C peer was not measured: "
                    + UcxPerftest.INSTALL_HINT + ". The Ibis figures are complete.");
            t.add("");
        } else if (c.isEmpty()) {
            t.add(UcxPerftest.NAME + " (`" + perftest.executable() + "`) was not run: the figure group " + PERFTEST
                    + " was not selected (" + GROUPS_PROPERTY + ").");
            t.add("");
        } else {
            t.add("`" + perftest.executable() + "`: a server and a client process on this machine (they exchange"
                    + " their UCX addresses over a TCP port on 127.0.0.1), started again for every repetition;"
                    + " `tag_lat` is a ping-pong of 1-byte tagged messages and reports the one-way latency (half"
                    + " the round trip), `tag_bw` a stream of 102,400-byte tagged messages; its figure of a run is"
                    + " the client's overall average, its MB/s (MiB/s) converted to 10^6 bytes/s. Shared memory:"
                    + " UCX's default transports between two processes of one machine; tcp: `UCX_TLS=tcp` over"
                    + " `lo`. Ibis: the 1-byte round trip of the latency table / 2, and the 100 KB `byte[]` data"
                    + " stream (`writeArray/readArray`) of the throughput table, and the same 100 KB through"
                    + " `writeByteBuffer`/`readByteBuffer` of direct buffers (sent from and received into them"
                    + " without a copy, as ucx_perftest's buffers). A plain two-member program: `"
                    + plainPingPong.command() + "` (`" + RankPingPong.class.getSimpleName() + "`: one-to-one ports,"
                    + " data serialization, explicit receive, as the suite's ping-pong; default settings, a fresh"
                    + " pool per repetition, which warms up and times itself, as ucx_perftest does), beside the"
                    + " suite's own ping-pong, whose JVMs also hold a tcp Ibis, the raw-socket peers and the ports"
                    + " of every other figure (docs/benchmarks.md); the same program's 100 KB streams (`"
                    + plainStream.command() + "`, and `bwd`: direct buffers) beside the suite's own."
                    + " Ratios: Ibis / peer, paired per repetition.");
            t.add("");
        }
        t.add("One-way latency, 1-byte message (µs, lower is better):");
        t.add("");
        t.add("| sender and receiver | median | min–max | ratio to " + UcxPerftest.NAME + ", shared memory"
                + " | ratio to " + UcxPerftest.NAME + ", tcp |");
        t.add("| --- | ---: | ---: | ---: | ---: |");
        t.add(ucxRow(perftestLabel(UcxPerftest.Test.TAG_LAT, UcxPerftest.Transport.SHARED_MEMORY), latShm, 1, latShm,
                latTcp));
        t.add(ucxRow(perftestLabel(UcxPerftest.Test.TAG_LAT, UcxPerftest.Transport.TCP), latTcp, 1, latShm, latTcp));
        t.add(ucxRow(ibisLabel + ", explicit receive, round trip / 2", explicit, 0.5, latShm, latTcp));
        t.add(ucxRow(ibisLabel + ", upcalls, round trip / 2", upcalls, 0.5, latShm, latTcp));
        t.add(ucxRow(PLAIN_PING_PONG_LABEL, plain, 1, latShm, latTcp));
        t.add(ucxRow("Ibis tcp, explicit receive, round trip / 2", tcpReference, 0.5, latShm, latTcp));
        t.add("");
        t.add("One-way throughput, 100 KB messages (MB/s = 10^6 bytes/s, higher is better):");
        t.add("");
        t.add("| sender and receiver | median | min–max | ratio to " + UcxPerftest.NAME + ", shared memory"
                + " | ratio to " + UcxPerftest.NAME + ", tcp |");
        t.add("| --- | ---: | ---: | ---: | ---: |");
        t.add(ucxRow(perftestLabel(UcxPerftest.Test.TAG_BW, UcxPerftest.Transport.SHARED_MEMORY), bwShm, 1, bwShm,
                bwTcp));
        t.add(ucxRow(perftestLabel(UcxPerftest.Test.TAG_BW, UcxPerftest.Transport.TCP), bwTcp, 1, bwShm, bwTcp));
        t.add(ucxRow(perftestLabel(UcxPerftest.Test.TAG_BW_EAGER, UcxPerftest.Transport.SHARED_MEMORY), eagerShm, 1,
                bwShm, bwTcp));
        t.add(ucxRow(perftestLabel(UcxPerftest.Test.TAG_BW_EAGER, UcxPerftest.Transport.TCP), eagerTcp, 1, bwShm,
                bwTcp));
        t.add(ucxRow(ibisLabel + ", byte[], writeArray/readArray, data", stream, 1, bwShm, bwTcp));
        t.add(ucxRow(ibisLabel + DIRECT_SUFFIX + ", data", direct, 1, bwShm, bwTcp));
        t.add(ucxRow(PLAIN_STREAM_LABEL, plainStreamFigure, 1, bwShm, bwTcp));
        t.add(ucxRow(PLAIN_DIRECT_LABEL, plainDirectFigure, 1, bwShm, bwTcp));
        t.add("");
        t.add("ucx_perftest's stream is shown twice: with UCX's own choice of protocol (rendezvous for 100 KB: the"
                + " receiver reads the sender's memory with `cma`, pinning its pages one by one, which is slow on"
                + " this virtual machine) and with every message sent eagerly, copied through UCX's shared-memory"
                + " FIFO (`UCX_RNDV_THRESH=inf`). Ibis uses UCX's choice unless `ibis.ucx.eager.max` says otherwise"
                + " (impl-ucx README, \"Eager or rendezvous\").");
        t.add("");
        t.add("Targets of ucx:");
        t.add("");
        t.add("| target | measured | goal | status |");
        t.add("| --- | ---: | ---: | --- |");
        t.add(target(ibisLabel + " one-way latency (explicit receive) / " + UcxPerftest.NAME + " tag_lat, shared"
                + " memory", half(explicit, latShm), 2.5, false));
        t.add(target(ibisLabel + " one-way latency, a plain two-member program / " + UcxPerftest.NAME + " tag_lat,"
                + " shared memory", ratioOrNaN(plain, latShm), 2.5, false));
        t.add(target(ibisLabel + " 100 KB byte[] throughput (data) / " + UcxPerftest.NAME + " tag_bw, shared"
                + " memory", ratioOrNaN(stream, bwShm), 0.9, true));
        t.add(target(ibisLabel + " 100 KB direct-buffer throughput (data) / " + UcxPerftest.NAME + " tag_bw, shared"
                + " memory", ratioOrNaN(direct, bwShm), 0.9, true));
        t.add(target(ibisLabel + " 100 KB byte[] throughput, a plain two-member program / " + UcxPerftest.NAME
                + " tag_bw, shared memory", ratioOrNaN(plainStreamFigure, bwShm), 0.9, true));
        t.add(target(ibisLabel + " 100 KB direct-buffer throughput, a plain two-member program / " + UcxPerftest.NAME
                + " tag_bw, shared memory", ratioOrNaN(plainDirectFigure, bwShm), 0.9, true));
        t.add(target("Ibis tcp round trip / " + ibisLabel + " round trip (explicit receive)",
                ratioOrNaN(tcpReference, explicit), 5, true));
        t.add("");
        return t;
    }

    /** A row of the ucx tables; {@code scale} turns a round trip into one-way; null figures show as missing. */
    private static String ucxRow(String label, Figure f, double scale, Figure shm, Figure tcp) {
        if (f == null || f.failure != null || f.series.size() == 0) {
            String why = f == null ? "not measured" : f.failure != null ? "failed: " + f.failure.replace('|', '/')
                    : "not measured";
            return "| " + label + " | " + why + " | | | |";
        }
        return "| " + label + " | " + fmt(f.series.median() * scale) + " | " + fmt(f.series.min() * scale) + "–"
                + fmt(f.series.max() * scale) + " | " + ratioText(ratioOrNaN(f, shm) * scale) + " | "
                + ratioText(ratioOrNaN(f, tcp) * scale) + " |";
    }

    /** The paired ratio, NaN when either figure is missing, failed or empty. */
    private static double ratioOrNaN(Figure x, Figure peer) {
        if (x == null || peer == null || x.failure != null || peer.failure != null) {
            return Double.NaN;
        }
        return Series.pairedRatio(x.series, peer.series);
    }

    /** The paired ratio of a round trip, halved (one-way), to a one-way figure. */
    private static double half(Figure roundTrip, Figure oneWay) {
        return ratioOrNaN(roundTrip, oneWay) / 2;
    }

    private static String ratioText(double r) {
        return Double.isNaN(r) ? "—" : String.format(Locale.ROOT, "%.2f", r);
    }

    /** A row of a targets table: at least {@code goal} when {@code atLeast}, else at most. */
    private static String target(String what, double measured, double goal, boolean atLeast) {
        String status = Double.isNaN(measured) ? "not measured"
                : (atLeast ? measured >= goal : measured <= goal) ? "met" : "missed";
        String g = (atLeast ? "≥ " : "≤ ") + (goal == Math.rint(goal) ? String.format(Locale.ROOT, "%.0f", goal)
                : String.format(Locale.ROOT, "%.1f", goal));
        return "| " + what + " | " + ratioText(measured) + " | " + g + " | " + status + " |";
    }

    /** Latency and throughput against message size, with their plots (PNG files beside the report). */
    private List<String> sizeTable(Map<String, List<Figure>> groups) throws IOException {
        List<String> t = new ArrayList<>();
        List<List<Figure>> sizes = new ArrayList<>();
        for (Map.Entry<String, List<Figure>> g : groups.entrySet()) {
            if (g.getKey().startsWith(SIZE_PREFIX)) {
                sizes.add(g.getValue());
            }
        }
        if (sizes.isEmpty()) {
            return t;
        }
        t.add("## Latency and throughput against message size");
        t.add("");
        t.add("byte[] messages, data serialization, explicit receive; the raw peer is a blocking socket that writes"
                + " each message (length and bytes) in one write. Round trip: the peer echoes the message (µs, median,"
                + " lower is better). Stream: one-way, the last message of a run acknowledged with a checksum (MB/s ="
                + " 10^6 bytes/s of user payload, median, higher is better). Ratios: Ibis / raw, paired per"
                + " repetition.");
        t.add("");
        t.add("| bytes | raw round trip (µs) | Ibis round trip (µs) | ratio | raw stream (MB/s) | Ibis stream (MB/s) |"
                + " ratio |");
        t.add("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        LatencyPlot latencyPlot = new LatencyPlot("Round-trip latency against message size", "message size (bytes)",
                "µs per round trip (median)");
        LatencyPlot throughputPlot = new LatencyPlot("One-way throughput against message size", "message size (bytes)",
                "MB/s (median)");
        for (List<Figure> g : sizes) {
            Figure rawEcho = g.get(0);
            Figure ibisEcho = g.get(1);
            Figure rawStream = g.get(2);
            Figure ibisStream = g.get(3);
            int n = rawEcho.messageBytes;
            t.add("| " + n + " | " + fmt(rawEcho.series.median()) + " | " + fmt(ibisEcho.series.median()) + " | "
                    + ratio(ibisEcho, rawEcho) + " | " + fmt(rawStream.series.median()) + " | "
                    + fmt(ibisStream.series.median()) + " | " + ratio(ibisStream, rawStream) + " |");
            latencyPlot.add("raw Java socket", n, rawEcho.series.median());
            latencyPlot.add(ibisLabel, n, ibisEcho.series.median());
            throughputPlot.add("raw Java socket", n, rawStream.series.median());
            throughputPlot.add(ibisLabel, n, ibisStream.series.median());
        }
        t.add("");
        if (latencyPlot.hasCurves()) {
            Files.createDirectories(outputDirectory);
            String latencyPng = baseName() + "-size-latency.png";
            String throughputPng = baseName() + "-size-throughput.png";
            latencyPlot.write(outputDirectory.resolve(latencyPng));
            throughputPlot.write(outputDirectory.resolve(throughputPng));
            t.add("![round-trip latency against message size](" + latencyPng + ")");
            t.add("");
            t.add("![one-way throughput against message size](" + throughputPng + ")");
            t.add("");
        }
        return t;
    }

    /** One-to-many and many-to-one throughput, each beside the one-to-one stream of the same repetitions. */
    private static List<String> groupTable(Map<String, List<Figure>> groups) {
        List<String> t = new ArrayList<>();
        if (!groups.containsKey(MULTICAST) && !groups.containsKey(MANY_TO_ONE)) {
            return t;
        }
        t.add("## One-to-many and many-to-one throughput (MB/s delivered to all receivers together, higher is"
                + " better)");
        t.add("");
        t.add("100 KB byte[] messages, data serialization, explicit receive. The receive ports are in the peer JVM"
                + " (one thread each), the send ports in the driver JVM (many-to-one: one thread per send port);"
                + " all JVMs share the machine's " + Runtime.getRuntime().availableProcessors() + " cores."
                + " A multicast message counts once per receiver it reaches. Ratio: to the one-to-one stream of"
                + " the same repetitions. The raw peers (same layout; one write per message, blocking sockets;"
                + " the selector receiver reads non-blocking channels through one direct buffer) are shown with"
                + " their ratio to a raw one-to-one socket of the same repetitions.");
        t.add("");
        t.add("| ports | serialization | median | min–max | ratio to one-to-one |");
        t.add("| --- | --- | ---: | ---: | ---: |");
        for (String key : List.of(MULTICAST, MULTICAST + RAW_SUFFIX, MANY_TO_ONE, MANY_TO_ONE + RAW_SUFFIX)) {
            List<Figure> g = groups.get(key);
            if (g == null) {
                continue;
            }
            Figure reference = g.get(0);
            if (key.endsWith(RAW_SUFFIX)) {
                t.add("| " + reference.label + " | " + reference.serialization + " | "
                        + fmt(reference.series.median()) + " | " + range(reference.series) + " | 1.00 |");
            }
            for (Figure x : g.subList(1, g.size())) {
                t.add("| " + x.label + " | " + x.serialization + " | " + fmt(x.series.median()) + " | "
                        + range(x.series) + " | " + ratio(x, reference) + " |");
            }
        }
        t.add("");
        return t;
    }

    /** The project's targets for this suite, checked on this run. */
    private static List<String> targets(Map<String, List<Figure>> groups) {
        List<String> t = new ArrayList<>();
        t.add("## Targets");
        t.add("");
        List<Figure> latency = groups.get("latency");
        if (latency != null) {
            Figure rawPing = latency.get(0);
            for (Figure x : latency.subList(2, latency.size())) {
                double r = Series.pairedRatio(x.series, rawPing.series);
                t.add("- Round trip no slower than raw blocking sockets, " + x.label + ": "
                        + String.format(Locale.ROOT, "%.2f", r) + (r <= 1.0 ? " — met" : " — missed"));
            }
        }
        for (ArrayKind kind : ArrayKind.values()) {
            List<Figure> g = groups.get(Payload.values()[kind.ordinal()].name());
            if (g == null) {
                continue;
            }
            double r = Series.pairedRatio(g.get(1).series, g.get(0).series);
            t.add("- 100 KB " + kind.javaName() + " throughput (data serialization) at least 0.8 × raw: "
                    + String.format(Locale.ROOT, "%.2f", r) + (r >= 0.8 ? " — met" : " — missed"));
        }
        for (String key : List.of(MULTICAST, MANY_TO_ONE)) {
            List<Figure> g = groups.get(key);
            if (g == null) {
                continue;
            }
            for (Figure x : g.subList(key.equals(MULTICAST) ? 2 : 1, g.size())) {
                double r = Series.pairedRatio(x.series, g.get(0).series);
                t.add("- " + x.label + " at least 0.8 × one-to-one: " + String.format(Locale.ROOT, "%.2f", r)
                        + (r >= 0.8 ? " — met" : " — missed"));
            }
        }
        for (Map.Entry<String, List<Figure>> g : groups.entrySet()) {
            if (!g.getKey().startsWith(SIZE_PREFIX) || g.getValue().get(2).messageBytes > 256) {
                continue;
            }
            double r = Series.pairedRatio(g.getValue().get(3).series, g.getValue().get(2).series);
            t.add("- " + g.getValue().get(2).messageBytes + "-byte stream at least 1.0 × raw: "
                    + String.format(Locale.ROOT, "%.2f", r) + (r >= 1.0 ? " — met" : " — missed"));
        }
        t.add("");
        return t;
    }

    private static String fmt(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String range(Series s) {
        return fmt(s.min()) + "–" + fmt(s.max());
    }

    private static String ratio(Figure x, Figure peer) {
        return String.format(Locale.ROOT, "%.2f", Series.pairedRatio(x.series, peer.series));
    }

    /** The report's file name without extension; its plots' names start with it. */
    private String baseName() {
        return "ipl-" + (implementation.equals(TCP) ? "" : implementation + "-") + LocalDate.now()
                + (quick ? "-" + settings.name() : "");
    }

    private Path write(List<String> report) throws IOException {
        Files.createDirectories(outputDirectory);
        Path file = outputDirectory.resolve(baseName() + ".md");
        Files.write(file, report, StandardCharsets.UTF_8);
        return file.toAbsolutePath();
    }

    /**
     * Starts the peer JVM ({@link IplBenchPeer}) in pool {@code pool} of the registry server
     * {@code server}, over {@code implementation}.
     */
    static Process startPeer(String server, String pool, String implementation) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        List<String> cmd = new ArrayList<>(List.of(java));
        // The peer runs with the driver's JVM options (heap, GC, JIT) and its Ibis and logging properties;
        // its implementation is an argument (a run of another implementation has a tcp peer too).
        cmd.addAll(ChildProcesses.jvmOptions());
        for (String name : System.getProperties().stringPropertyNames()) {
            if ((name.startsWith("ibis.") && !name.startsWith("ibis.bench.")
                    && !name.equals(ChildProcesses.IMPLEMENTATION_PROPERTY)) || name.startsWith("org.slf4j.")) {
                cmd.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), IplBenchPeer.class.getName(), server,
                pool, implementation));
        return ChildProcesses.prepare(new ProcessBuilder(cmd)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** Reads the peer's READY line (its raw server ports), then keeps draining its output. */
    static int[] awaitReady(Process peer) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("READY ")) {
                String[] parts = line.split(" ");
                RawSockets.daemon("peer-output", () -> drain(out, System.out));
                int[] ports = new int[parts.length - 1];
                for (int i = 0; i < ports.length; i++) {
                    ports[i] = Integer.parseInt(parts[i + 1]);
                }
                return ports;
            }
            System.out.println("peer: " + line);
        }
        throw new IOException("the peer JVM exited before it was ready");
    }

    private static void drain(BufferedReader in, PrintStream out) {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                out.println("peer: " + line);
            }
        } catch (IOException e) {
            // peer gone
        }
    }

    static void closeBounded(IbisDriver ibis) throws InterruptedException {
        Thread t = new Thread(() -> {
            try {
                ibis.close();
            } catch (IOException e) {
                System.err.println("closing the driver's Ibis: " + e);
            }
        }, "close-ibis");
        t.setDaemon(true);
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(15));
    }
}
