package ibis.benchmarks.rmi;

import ibis.benchmarks.ChildProcesses;
import ibis.benchmarks.Host;
import ibis.benchmarks.ipl.IplRoundTrips;
import ibis.benchmarks.ipl.Series;
import ibis.benchmarks.rmi.RmiProcesses.Child;
import ibis.benchmarks.rmi.RmiProcesses.Mode;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code rmi} suite of BENCHMARKS.md: the same plain {@code java.rmi} programs
 * ({@link RmiBenchServer}, {@link RmiBenchClient}, the applications of
 * {@code ibis.benchmarks.rmi.apps}) on the JDK's {@code java.rmi} and, rewritten at build time by
 * {@code ibisc --java-rmi}, on Ibis RMI, in the same run; plus the IPL 1-byte round trips of the
 * ipl suite, so that null-RMI can be compared with the transport underneath.
 *
 * <p>Set-up: this driver JVM starts, per side, one server JVM and one client JVM (and, for
 * {@code star}, 1, 2, 4, 8 more client JVMs), all on 127.0.0.1 ({@link RmiProcesses}). The client
 * JVMs time the calls and check every run (call counts, checksums of what arrived); the driver
 * tells them what to run and collects the times. Method as in the ipl suite: warm-up by time in
 * several passes over all figures (which also calibrates the calls per repetition), then
 * interleaved repetitions in which java.rmi and Ibis RMI run each workload back to back, in
 * alternating order; reported are the median and min–max over the repetitions and the median of
 * the per-repetition ratios.
 */
public final class RmiSuite {

    /** The sizes of a run. */
    record Settings(String name, int warmupPasses, long warmupMillisPerPass, int repetitions, long repetitionMillis,
            int minCalls, List<String> objectPayloads, List<String> pingpongPayloads, List<String> throughputPayloads,
            List<Integer> starClients, List<String> apps, List<Integer> appProcesses, int appRepetitions,
            String appProblem, long appTimeoutMillis, String appMain) {
    }

    private static final List<String> SMALL_OBJECTS = List.of("ints4", "ints32", "ints4null2", "tree:15");
    private static final List<String> THROUGHPUT = List.of("byte:102400", "int:25600", "double:12800", "tree:1023");
    private static final List<String> ALL_APPS = List.of("hamming", "paraffins", "sor", "asp", "radix", "fft", "water");

    /** Well under a minute. */
    static final Settings QUICK = new Settings("quick", 1, 150, 5, 70, 50,
            concat(List.of("null", "byte:500", "int:500", "float:500"), SMALL_OBJECTS), List.of("null", "tree:15"),
            THROUGHPUT, List.of(1, 2), List.of("sor"), List.of(2), 5, "quick", 120_000, RmiSuite.APP_MAIN);

    /** About ten minutes. */
    static final Settings FULL = new Settings("full", 2, 250, 7, 200, 200, fullObjectPayloads(),
            concat(List.of("null", "byte:500", "int:500", "float:500"), SMALL_OBJECTS), THROUGHPUT,
            List.of(1, 2, 4, 8), ALL_APPS, List.of(1, 2, 4), 5, "full", 600_000, RmiSuite.APP_MAIN);

    /** System property: comma-separated applications to run instead of the mode's list ("none" for none). */
    public static final String APPS_PROPERTY = "ibis.bench.rmi.apps";

    /**
     * System property: comma-separated figure groups to measure instead of all of them (the call
     * figures: {@code null}, {@code ping2i}, {@code ping2i2f}, {@code ping SPEC}, {@code echo SPEC},
     * {@code pingpong SPEC}, {@code send SPEC}, SPEC as in the mode's payload lists); for looking at
     * one figure closely. The star and the applications run as before (apps: {@link #APPS_PROPERTY}).
     */
    public static final String GROUPS_PROPERTY = "ibis.bench.rmi.groups";

    /** System property: the problem argument given to the applications instead of the mode's. */
    public static final String APP_PROBLEM_PROPERTY = "ibis.bench.rmi.apps.problem";

    /** The main class of the applications (its command line and RESULT line: see {@link #apps}). */
    static final String APP_MAIN = "ibis.benchmarks.rmi.apps.AppMain";

    private static final Pattern RESULT = Pattern.compile(
            "RESULT\\s+(\\S+)\\s+procs=(\\d+)\\s+verified=(true|false)\\s+millis=(\\d+(?:\\.\\d+)?)");
    private static final String SERVICE = "bench";
    private static final long START_TIMEOUT_MILLIS = 120_000;
    private static final long RUN_TIMEOUT_MILLIS = 600_000;

    private final Settings settings;
    private final Path outputDirectory;
    private final String command;
    /** The IPL implementation under Ibis RMI ({@code ibis.implementation}; tcp by default). */
    private final String implementation = ChildProcesses.implementation();
    private Path reportFile;

    /** Who runs a figure. */
    enum Side { JDK, IBIS, IPL }

    /** Runs a figure's workload {@code n} times; returns the nanoseconds of the measured part. */
    private interface Runner {
        long run(int n) throws Exception;
    }

    /** One measured figure: a workload on one side, with its repetitions. */
    private static final class Figure {
        final String workload;
        final String parameter;
        final Side side;
        final PayloadSpec payload;
        final boolean throughput;
        final Runner runner;
        final Series series = new Series();
        int iterations;

        Figure(String workload, String parameter, Side side, PayloadSpec payload, boolean throughput, Runner runner) {
            this.workload = workload;
            this.parameter = parameter;
            this.side = side;
            this.payload = payload;
            this.throughput = throughput;
            this.runner = runner;
        }

        /** µs per call, or MB/s (10^6 bytes/s) of user payload. */
        double value(long nanos, int n) {
            if (throughput) {
                return (double) payload.userBytes() * n / (nanos / 1e9) / 1e6;
            }
            return nanos / 1000.0 / n;
        }
    }

    /** Creates the suite; {@code command} is shown in the report as the command that ran it. */
    public RmiSuite(boolean quick, Path outputDirectory, String command) {
        this(quick ? QUICK : FULL, outputDirectory, command);
    }

    /** Creates the suite with explicit sizes (tests use tiny ones). */
    RmiSuite(Settings settings, Path outputDirectory, String command) {
        this.settings = settings;
        this.outputDirectory = outputDirectory;
        this.command = command;
    }

    /** The path of the last report written (for tests). */
    Path reportFile() {
        return reportFile;
    }

    /** Runs the suite, prints the report and writes it; returns the process exit status. */
    public int run() throws Exception {
        long started = System.nanoTime();
        String loadBefore = Host.state();
        figures(null, null, null); // refuses unknown ibis.bench.rmi.groups before any JVM starts
        List<String> header = header();
        header.forEach(System.out::println);
        System.out.println();
        System.out.flush();

        try (RmiProcesses jdk = new RmiProcesses(Mode.JDK); RmiProcesses ibis = new RmiProcesses(Mode.IBIS)) {
            int jdkPort = freePort();
            int ibisRegistry = 1099;
            String ibisPool = ibis.newPoolName();
            Child jdkServer = jdk.start("jdk server", 1, RmiBenchServer.class.getName(),
                    i -> List.of(Integer.toString(jdkPort), SERVICE), null, 0).get(0);
            Child ibisServer = ibis.start("ibis server", 1, RmiBenchServer.class.getName(),
                    i -> List.of(Integer.toString(ibisRegistry), SERVICE), ibisPool, 0).get(0);
            jdkServer.awaitLine("READY", START_TIMEOUT_MILLIS, null);
            ibisServer.awaitLine("READY", START_TIMEOUT_MILLIS, null);
            Child jdkClient = jdk.start("jdk client", 1, RmiBenchClient.class.getName(),
                    i -> List.of(Integer.toString(jdkPort), SERVICE, "--callback"), null, 0).get(0);
            Child ibisClient = ibis.start("ibis client", 1, RmiBenchClient.class.getName(),
                    i -> List.of(Integer.toString(ibisRegistry), SERVICE, "--callback"), ibisPool, 0).get(0);
            String jdkStub = jdkClient.awaitLine("READY", START_TIMEOUT_MILLIS, null).substring(6);
            String ibisStub = ibisClient.awaitLine("READY", START_TIMEOUT_MILLIS, null).substring(6);
            System.out.println("stub classes: java.rmi " + jdkStub + ", Ibis RMI " + ibisStub);

            Map<String, List<Figure>> groups;
            String iplImplementation;
            try (IplRoundTrips ipl = new IplRoundTrips(ibis.registryServerAddress(), ibis.newPoolName())) {
                iplImplementation = ipl.implementation();
                groups = figures(jdkClient, ibisClient, ipl);
                warmUp(groups);
                measure(groups);
            }
            Map<Integer, Series[]> star = star(jdk, ibis, jdkPort, ibisRegistry, ibisPool);
            List<RmiReport.AppRow> apps = new ArrayList<>();
            String appsUnavailable = apps(jdk, ibis, apps);

            List<String> head = new ArrayList<>(header);
            head.add("- Stub classes seen by the clients: java.rmi `" + jdkStub + "`, Ibis RMI `" + ibisStub + "`");
            head.add("- Ibis: " + iplImplementation + " (IPL round trips: the ipl suite's driver and peer)");
            head.add("- Machine (" + Host.STATE_LEGEND + "): " + loadBefore + " before, " + Host.state()
                    + " after; suite time " + (System.nanoTime() - started) / 1_000_000_000 + " s");
            String baseName = "rmi-" + (implementation.equals("tcp") ? "" : implementation + "-") + LocalDate.now()
                    + (settings != FULL ? "-" + settings.name() : "");
            RmiReport report = report(head, groups, star, apps, appsUnavailable, baseName);
            report.lines().forEach(System.out::println);
            reportFile = report.write(outputDirectory, baseName + ".md");
            System.out.println();
            System.out.println("Report written to " + reportFile);
            return 0;
        }
    }

    // ------------------------------------------------------------------ figures

    /**
     * The figure groups of this mode, only those of {@link #GROUPS_PROPERTY} when it is set. The
     * runners only use the clients and the round trips when they run (null: to check the names).
     */
    private Map<String, List<Figure>> figures(Child jdkClient, Child ibisClient, IplRoundTrips ipl) {
        Map<String, List<Figure>> groups = new LinkedHashMap<>();
        List<Figure> nullRmi = new ArrayList<>(pair("void ping()", "—", "ping0", null, false, jdkClient, ibisClient));
        nullRmi.add(new Figure("IPL 1-byte round trip, upcalls", "—", Side.IPL, null, false,
                n -> timed(() -> ipl.upcallRoundTrips(n))));
        nullRmi.add(new Figure("IPL 1-byte round trip, explicit receive", "—", Side.IPL, null, false,
                n -> timed(() -> ipl.explicitRoundTrips(n))));
        groups.put("null", nullRmi);
        groups.put("ping2i", pair("void ping(int, int)", "—", "ping2i", null, false, jdkClient, ibisClient));
        groups.put("ping2i2f", pair("void ping(int, int, float, float)", "—", "ping2i2f", null, false, jdkClient,
                ibisClient));
        for (String spec : settings.objectPayloads()) {
            PayloadSpec p = PayloadSpec.parse(spec);
            groups.put("ping " + spec,
                    pair("void ping(obj)", p.displayName(), "ping", p, false, jdkClient, ibisClient));
            groups.put("echo " + spec, pair("obj echo(obj)", p.displayName(), "echo", p, false, jdkClient, ibisClient));
        }
        for (String spec : settings.pingpongPayloads()) {
            PayloadSpec p = PayloadSpec.parse(spec);
            groups.put("pingpong " + spec, pair("void pingpong(obj) with callback", p.displayName(), "pingpong", p,
                    false, jdkClient, ibisClient));
        }
        for (String spec : settings.throughputPayloads()) {
            PayloadSpec p = PayloadSpec.parse(spec);
            groups.put("send " + spec, pair("void send(x)", p.displayName(), "send", p, true, jdkClient, ibisClient));
        }
        String chosen = System.getProperty(GROUPS_PROPERTY);
        if (chosen != null && !chosen.isBlank()) {
            List<String> wanted = new ArrayList<>();
            for (String g : chosen.split(",")) {
                wanted.add(g.trim());
            }
            if (!groups.keySet().containsAll(wanted)) {
                throw new IllegalArgumentException(GROUPS_PROPERTY + "=" + chosen + " names a group this mode has not;"
                        + " its groups: " + String.join(", ", groups.keySet()));
            }
            groups.keySet().retainAll(wanted);
        }
        return groups;
    }

    private static List<Figure> pair(String workload, String parameter, String op, PayloadSpec payload,
            boolean throughput, Child jdkClient, Child ibisClient) {
        String spec = payload == null ? "-" : payload.spec();
        return List.of(
                new Figure(workload, parameter, Side.JDK, payload, throughput, n -> remote(jdkClient, op, spec, n)),
                new Figure(workload, parameter, Side.IBIS, payload, throughput, n -> remote(ibisClient, op, spec, n)));
    }

    private static long remote(Child client, String op, String spec, int n) throws IOException, InterruptedException {
        client.send("RUN " + op + " " + spec + " " + n);
        return answer(client, "RUN " + op + " " + spec);
    }

    /** Reads a client's answer line: the nanoseconds, or the failure as an exception. */
    private static long answer(Child client, String what) throws IOException, InterruptedException {
        String line = client.nextLine(RUN_TIMEOUT_MILLIS);
        while (!line.startsWith("OK ") && !line.startsWith("ERR ")) {
            System.out.println("[" + client.name() + "] " + line);
            line = client.nextLine(RUN_TIMEOUT_MILLIS);
        }
        if (line.startsWith("ERR ")) {
            throw new IOException(client.name() + " failed " + what + ": " + line.substring(4));
        }
        return Long.parseLong(line.substring(3).trim());
    }

    private interface Action {
        void run() throws Exception;
    }

    private static long timed(Action a) throws Exception {
        long start = System.nanoTime();
        a.run();
        return System.nanoTime() - start;
    }

    private static List<Figure> all(Map<String, List<Figure>> groups) {
        List<Figure> all = new ArrayList<>();
        groups.values().forEach(all::addAll);
        return all;
    }

    /**
     * A warm-up pass of a figure goes on past its time while its time per call still drops by more
     * than this factor from one batch to the next (the JIT is still at work: on 2 cores with four
     * JVMs compiling, the recursive tree code of both sides can take seconds), up to
     * {@link #WARMUP_STRETCH} times the pass's time.
     */
    private static final double STILL_WARMING = 0.95;
    /** The longest a warm-up pass of one figure may be stretched, in pass times (quick mode: 2). */
    private static final int WARMUP_STRETCH = 8;

    /**
     * Runs every figure for the warm-up time per pass, and longer while it is still getting faster;
     * the last batch sets the calls per repetition.
     */
    private void warmUp(Map<String, List<Figure>> groups) throws Exception {
        List<Figure> all = all(groups);
        long budget = settings.warmupMillisPerPass() * 1_000_000L;
        long limit = budget * (settings == QUICK ? 2 : WARMUP_STRETCH);
        long target = settings.repetitionMillis() * 1_000_000L;
        for (int pass = 1; pass <= settings.warmupPasses(); pass++) {
            System.out.println("warming up, pass " + pass + " of " + settings.warmupPasses() + " (" + all.size()
                    + " figures, " + settings.warmupMillisPerPass() + " ms each, longer while still getting faster)");
            System.out.flush();
            for (Figure f : all) {
                int n = f.throughput ? 1 : 20;
                long spent = 0;
                long lastNanos = 1;
                int lastN = 1;
                double previousPerCall = Double.MAX_VALUE;
                boolean warming = true;
                while (spent < budget || (warming && spent < limit)) {
                    long elapsed = Math.max(1, f.runner.run(n));
                    spent += elapsed;
                    lastNanos = elapsed;
                    lastN = n;
                    double perCall = (double) elapsed / n;
                    warming = perCall < previousPerCall * STILL_WARMING;
                    previousPerCall = perCall;
                    if (elapsed < budget / 8 && n < (1 << 24)) {
                        n *= 2;
                    }
                }
                double perCall = (double) lastNanos / lastN;
                int min = f.throughput ? 5 : settings.minCalls();
                f.iterations = (int) Math.max(min, Math.min(Integer.MAX_VALUE / 2, target / perCall));
            }
        }
    }

    /** The repetitions: every figure once per repetition, group by group, alternating the order. */
    private void measure(Map<String, List<Figure>> groups) throws Exception {
        for (int rep = 1; rep <= settings.repetitions(); rep++) {
            System.out.println("repetition " + rep + " of " + settings.repetitions());
            System.out.flush();
            for (List<Figure> group : groups.values()) {
                List<Figure> order = new ArrayList<>(group);
                if (rep % 2 == 0) {
                    Collections.reverse(order);
                }
                for (Figure f : order) {
                    f.series.add(f.value(f.runner.run(f.iterations), f.iterations));
                }
            }
        }
    }

    // ------------------------------------------------------------------ star

    /** Calls/s of 1, 2, 4, 8 client JVMs calling one server: per client count {java.rmi, Ibis RMI}. */
    private Map<Integer, Series[]> star(RmiProcesses jdk, RmiProcesses ibis, int jdkPort, int ibisRegistry,
            String ibisPool) throws Exception {
        Map<Integer, Series[]> result = new LinkedHashMap<>();
        for (int clients : settings.starClients()) {
            System.out.println("star: " + clients + " client JVM(s) per side");
            System.out.flush();
            List<Child> jc = jdk.start("jdk star client", clients, RmiBenchClient.class.getName(),
                    i -> List.of(Integer.toString(jdkPort), SERVICE), null, 0);
            List<Child> ic = ibis.start("ibis star client", clients, RmiBenchClient.class.getName(),
                    i -> List.of(Integer.toString(ibisRegistry), SERVICE), ibisPool, 0);
            try {
                for (Child c : jc) {
                    c.awaitLine("READY", START_TIMEOUT_MILLIS, null);
                }
                for (Child c : ic) {
                    c.awaitLine("READY", START_TIMEOUT_MILLIS, null);
                }
                List<List<Child>> sides = List.of(jc, ic);
                int[] calls = new int[2];
                long budget = settings.warmupPasses() * settings.warmupMillisPerPass() * 1_000_000L;
                for (int s = 0; s < 2; s++) {
                    int n = 50;
                    long spent = 0;
                    long last;
                    do {
                        last = starRun(sides.get(s), n);
                        spent += last;
                        if (spent < budget) {
                            n = (int) Math.min(1 << 22, n * 2L);
                        }
                    } while (spent < budget);
                    // Calls per client so that one repetition takes about a figure's time.
                    calls[s] = (int) Math.max(settings.minCalls(),
                            settings.repetitionMillis() * 1_000_000L * n / Math.max(1, last));
                }
                Series[] series = {new Series(), new Series()};
                for (int rep = 1; rep <= settings.repetitions(); rep++) {
                    for (int k = 0; k < 2; k++) {
                        int s = rep % 2 == 0 ? 1 - k : k;
                        long nanos = starRun(sides.get(s), calls[s]);
                        series[s].add((double) clients * calls[s] / (nanos / 1e9));
                    }
                }
                result.put(clients, series);
            } finally {
                List<Child> both = new ArrayList<>(jc);
                both.addAll(ic);
                RmiProcesses.closeAll(both);
            }
        }
        return result;
    }

    /** One star round: every client barrier, {@code n} null RMIs, barrier; the slowest client's time. */
    private static long starRun(List<Child> clients, int n) throws IOException, InterruptedException {
        for (Child c : clients) {
            c.send("STAR " + clients.size() + " " + n);
        }
        long max = 0;
        for (Child c : clients) {
            max = Math.max(max, answer(c, "STAR " + clients.size() + " " + n));
        }
        return max;
    }

    // ------------------------------------------------------------------ applications

    /**
     * Runs the applications through {@code AppMain <app> <rank> <size> <registryPort> <problem>}
     * (rank 0 prints {@code RESULT <app> procs=<n> verified=<true|false> millis=<ms>}); returns
     * null, or why they were not run.
     */
    private String apps(RmiProcesses jdk, RmiProcesses ibis, List<RmiReport.AppRow> rows) throws Exception {
        List<String> apps = settings.apps();
        String chosen = System.getProperty(APPS_PROPERTY);
        if (chosen != null && !chosen.isBlank()) {
            apps = chosen.trim().equals("none") ? List.of() : List.of(chosen.trim().split("\\s*,\\s*"));
        }
        if (apps.isEmpty()) {
            return "none selected (" + APPS_PROPERTY + ")";
        }
        String appMain = settings.appMain();
        try {
            Class.forName(appMain, false, RmiSuite.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            System.out.println("apps not available: " + appMain + " is not on the class path");
            return "class `" + appMain + "` is not on the class path of this build, so the applications were not"
                    + " run";
        }
        String problem = System.getProperty(APP_PROBLEM_PROPERTY, settings.appProblem());
        for (String app : apps) {
            for (int procs : settings.appProcesses()) {
                System.out.println("application " + app + " on " + procs + " process(es)");
                System.out.flush();
                Series[] series = {new Series(), new Series()};
                String failure = null;
                for (int rep = 1; rep <= settings.appRepetitions() && failure == null; rep++) {
                    for (int k = 0; k < 2 && failure == null; k++) {
                        int s = rep % 2 == 0 ? 1 - k : k;
                        RmiProcesses side = s == 0 ? jdk : ibis;
                        try {
                            series[s].add(runApp(side, app, procs, problem));
                        } catch (IOException e) {
                            failure = side.mode().displayName() + ": " + e.getMessage();
                            System.out.println("application " + app + " failed: " + failure);
                        }
                    }
                }
                rows.add(new RmiReport.AppRow(app, procs, series[0], series[1], failure));
            }
        }
        return null;
    }

    /** One run of an application; returns rank 0's milliseconds. */
    private double runApp(RmiProcesses side, String app, int procs, String problem)
            throws IOException, InterruptedException {
        int port = side.mode() == Mode.JDK ? freePort() : 1099;
        String pool = side.newPoolName();
        List<Child> ranks = side.start(side.mode().name().toLowerCase(java.util.Locale.ROOT) + " " + app, procs,
                settings.appMain(),
                i -> List.of(app, Integer.toString(i), Integer.toString(procs), Integer.toString(port),
                        problem), pool, procs);
        try {
            long deadline = System.currentTimeMillis() + settings.appTimeoutMillis();
            for (Child c : ranks) {
                int status = c.awaitExit(Math.max(1, deadline - System.currentTimeMillis()));
                if (status != 0) {
                    throw new IOException(c.name() + " exited with status " + status + tail(c.errorLines()));
                }
            }
            for (String line : ranks.get(0).remainingLines(5_000)) {
                Matcher m = RESULT.matcher(line.trim());
                if (m.matches()) {
                    if (!m.group(1).equals(app) || Integer.parseInt(m.group(2)) != procs) {
                        throw new IOException("rank 0 reported " + line + " for " + app + " on " + procs);
                    }
                    if (!m.group(3).equals("true")) {
                        throw new IOException("the result was not verified: " + line);
                    }
                    return Double.parseDouble(m.group(4));
                }
            }
            throw new IOException("rank 0 printed no RESULT line");
        } finally {
            RmiProcesses.closeAll(ranks);
        }
    }

    private static String tail(List<String> err) {
        return err.isEmpty() ? "" : " (stderr: " + String.join(" / ", err.subList(Math.max(0, err.size() - 3),
                err.size())) + ")";
    }

    // ------------------------------------------------------------------ report

    /** The series of figure {@code i} of a group, empty when the group was not measured. */
    private static Series series(List<Figure> group, int i) {
        return group == null ? new Series() : group.get(i).series;
    }

    private RmiReport report(List<String> head, Map<String, List<Figure>> groups, Map<Integer, Series[]> star,
            List<RmiReport.AppRow> apps, String appsUnavailable, String baseName) throws IOException {
        RmiReport r = new RmiReport(head);
        List<Figure> nullRmi = groups.get("null");
        List<Figure> treePair = groups.get("send tree:1023");
        // A partial run (GROUPS_PROPERTY) may lack either group: its targets show as not measured.
        r.targets(new RmiReport.Targets(series(nullRmi, 0), series(nullRmi, 1), series(nullRmi, 2),
                series(nullRmi, 3), series(treePair, 0), series(treePair, 1), implementation));

        List<RmiReport.Pair> latency = new ArrayList<>();
        List<RmiReport.Pair> objects = new ArrayList<>();
        List<RmiReport.Pair> pingpong = new ArrayList<>();
        List<RmiReport.Pair> throughput = new ArrayList<>();
        for (Map.Entry<String, List<Figure>> g : groups.entrySet()) {
            Figure j = g.getValue().get(0);
            Figure i = g.getValue().get(1);
            RmiReport.Pair p = new RmiReport.Pair(j.workload, j.parameter, j.series, i.series);
            if (j.throughput) {
                throughput.add(p);
            } else if (j.payload == null) {
                latency.add(p);
            } else if (j.workload.startsWith("void pingpong")) {
                pingpong.add(p);
            } else {
                objects.add(p);
            }
        }
        r.pairTable("Null-RMI latency", "µs per call", true, latency);
        if (nullRmi != null) {
            r.singleTable("IPL 1-byte round trip, same run, the ipl suite's code", "µs per round trip",
                    List.of(Map.entry(nullRmi.get(2).workload, nullRmi.get(2).series),
                            Map.entry(nullRmi.get(3).workload, nullRmi.get(3).series)));
        }
        r.pairTable("Calls with an object parameter", "µs per call", true, objects);
        LatencyPlot plot = new LatencyPlot("obj echo(obj): latency against array size", "array size (bytes)",
                "µs per call (median)");
        for (List<Figure> g : groups.values()) {
            for (Figure f : g) {
                if (f.workload.equals("obj echo(obj)") && f.payload.elementType() != null) {
                    plot.add((f.side == Side.JDK ? "java.rmi " : "Ibis RMI ") + f.payload.elementType() + "[]",
                            f.payload.userBytes(), f.series.median());
                }
            }
        }
        if (plot.hasCurves()) {
            Files.createDirectories(outputDirectory);
            String png = baseName + "-echo-latency.png";
            plot.write(outputDirectory.resolve(png));
            r.add("![obj echo(obj) latency against array size, java.rmi dashed, Ibis RMI solid](" + png + ")", "");
        }
        r.pairTable("pingpong: the server calls the client's callback before both return", "µs per call", true,
                pingpong);
        r.pairTable("Throughput of void send(x)", "MB/s = 10^6 bytes/s of user payload", false, throughput);
        List<RmiReport.Pair> stars = new ArrayList<>();
        for (Map.Entry<Integer, Series[]> e : star.entrySet()) {
            stars.add(new RmiReport.Pair("star: void ping() from " + e.getKey() + " client JVM(s), concurrently",
                    e.getKey() + " client(s)", e.getValue()[0], e.getValue()[1]));
        }
        r.pairTable("star: client JVMs calling one server after a barrier", "calls/s, all clients together", false,
                stars);
        r.apps(apps, appsUnavailable);
        r.add("Ibis speed-up: the median over the repetitions of (java.rmi time / Ibis RMI time) for latencies and"
                + " (Ibis RMI rate / java.rmi rate) for rates, both measured in the same repetition; above 1 = Ibis"
                + " RMI faster. User payload: elements × element size for arrays, 16 bytes per 4-int object or tree"
                + " node, 128 bytes for the 32-int object.", "");
        r.add("## Not yet measured", "",
                implementation.equals("tcp") ? "- other IPL implementations under Ibis RMI (ucx: `--impl ucx`; mpi);"
                        : "- the other IPL implementations under Ibis RMI in the same run (this run: "
                                + implementation + "; tcp: `--impl tcp`; mpi);",
                "- a latency plot in quick mode (one array size only; the full mode draws it).");
        return r;
    }

    private List<String> header() {
        Runtime rt = Runtime.getRuntime();
        List<String> h = new ArrayList<>();
        h.add("# Ibis benchmark suite `rmi`" + (implementation.equals("tcp") ? "" : " over `" + implementation + "`")
                + (settings != FULL ? " (" + settings.name() + ")" : ""));
        h.add("");
        h.add("- Date: " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        h.add("- JDK: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
                + System.getProperty("java.vendor") + ")");
        h.add("- OS: " + System.getProperty("os.name") + " " + System.getProperty("os.version") + ", "
                + rt.availableProcessors() + " cores");
        h.add("- Command: `" + command + "`");
        h.add("- Implementation: `" + implementation + "` (`ibis.implementation`) under Ibis RMI and the IPL round"
                + " trips" + (implementation.equals("tcp") ? ""
                        : "; every process started with " + String.join(", ", ChildProcesses.describeEnvironment())));
        h.add("- Set-up: per side one server JVM and one client JVM (plus the star clients), all on this machine"
                + " over 127.0.0.1; the same plain java.rmi classes run as compiled on the JDK's java.rmi"
                + " (`-Djava.rmi.server.hostname=127.0.0.1`; its registry and exported objects listen on the"
                + " wildcard address, as plain java.rmi code does) and, rewritten by `ibisc --java-rmi` at build"
                + " time, on Ibis RMI (" + implementation + ", embedded registry server). Warm-up: "
                + settings.warmupPasses()
                + " passes of " + settings.warmupMillisPerPass() + " ms per figure, each stretched (up to "
                + (settings == QUICK ? 2 : WARMUP_STRETCH)
                + "x) while the time per call still dropped by over 5% from one batch to the next; then "
                + settings.repetitions()
                + " interleaved repetitions of about " + settings.repetitionMillis() + " ms per figure (at least "
                + settings.minCalls() + " calls; 5 for throughput). Applications: " + settings.appRepetitions()
                + " runs per side, problem `" + System.getProperty(APP_PROBLEM_PROPERTY, settings.appProblem())
                + "`.");
        String chosen = System.getProperty(GROUPS_PROPERTY);
        if (chosen != null && !chosen.isBlank()) {
            h.add("- Partial run: only the figure groups `" + chosen + "` (`" + GROUPS_PROPERTY + "`); the warm-up"
                    + " covered only them, so the JVMs were less warm than in a whole run.");
        }
        return h;
    }


    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static List<String> fullObjectPayloads() {
        List<String> p = new ArrayList<>(List.of("null"));
        for (String kind : List.of("byte", "int", "float")) {
            for (int n : new int[] {50, 200, 500, 2000, 5000, 20000}) {
                p.add(kind + ":" + n);
            }
        }
        p.addAll(SMALL_OBJECTS);
        return List.copyOf(p);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }
}
