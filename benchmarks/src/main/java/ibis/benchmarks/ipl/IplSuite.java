package ibis.benchmarks.ipl;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The {@code ipl} suite of BENCHMARKS.md for the tcp implementation: 1-byte round-trip latency
 * (explicit receive and upcalls) and one-way throughput of 100 KB {@code byte[]}, {@code int[]} and
 * {@code double[]} messages, beside raw Java blocking sockets and NIO measured in the same run.
 *
 * <p>Set-up: two JVMs on this machine. This (driver) JVM embeds the registry server, starts the
 * peer JVM ({@link IplBenchPeer}), and times everything from its side; the peer echoes round trips
 * and sinks streams. All traffic is on 127.0.0.1. Every figure is warmed up first and then measured
 * in repetitions; the repetitions of Ibis and of its raw peer are interleaved so that both see the
 * same machine noise. Latency is the time of a round trip; throughput counts payload bytes
 * (100 KB = 102,400 bytes per message) until the receiver has acknowledged the last message.
 */
public final class IplSuite {

    private final boolean quick;
    private final Path outputDirectory;
    private final String command;

    // Iteration counts: {warm-up, per repetition, repetitions}.
    private final int latencyWarmup;
    private final int latencyIterations;
    private final int streamWarmup;
    private final int streamMessages;
    private final int repetitions;

    /** One measured figure and how to turn elapsed nanoseconds into its unit. */
    private record Figure(String key, String label, Workload workload, int warmup, int iterations,
            boolean latency, Series series) {

        double value(long nanos) {
            if (latency) {
                return nanos / 1000.0 / iterations; // microseconds per round trip
            }
            double bytes = (double) ArrayKind.MESSAGE_BYTES * iterations;
            return bytes / (nanos / 1e9) / 1e6; // MB/s (10^6 bytes per second)
        }
    }

    /** Creates the suite; {@code command} is shown in the report as the command that ran it. */
    public IplSuite(boolean quick, Path outputDirectory, String command) {
        this.quick = quick;
        this.outputDirectory = outputDirectory;
        this.command = command;
        latencyWarmup = quick ? 5_000 : 20_000;
        latencyIterations = quick ? 5_000 : 20_000;
        streamMessages = quick ? 500 : 2_000;
        streamWarmup = quick ? 1_000 : 4_000;
        repetitions = quick ? 5 : 10;
    }

    /** Runs the suite, prints the report and writes it; returns the process exit status. */
    public int run() throws Exception {
        List<String> header = header();
        header.forEach(System.out::println);
        System.out.println();
        System.out.flush();

        Properties serverProps = new Properties();
        serverProps.setProperty("ibis.registry.server.bind", "127.0.0.1");
        String pool = "ibis-bench-" + ProcessHandle.current().pid();
        try (CentralRegistryServer server = new CentralRegistryServer(0, serverProps)) {
            server.start();
            return runWith(server.address(), pool, header);
        }
    }

    /** Runs everything against the given registry; the peer and both Ibises end before it closes. */
    private int runWith(String server, String pool, List<String> header) throws Exception {
        Process peer = null;
        IbisDriver ibis = null;
        List<Workload> raw = new ArrayList<>();
        try {
            peer = startPeer(server, pool);
            int[] ports = awaitReady(peer);
            ibis = new IbisDriver(server, pool);

            Map<String, Figure> figures = new LinkedHashMap<>();
            RawSockets.BlockingPingPong rawPing = new RawSockets.BlockingPingPong(ports[0]);
            RawSockets.NioPingPong nioPing = new RawSockets.NioPingPong(ports[1]);
            raw.add(rawPing);
            raw.add(nioPing);
            latency(figures, "raw", "raw Java socket, blocking", rawPing);
            latency(figures, "nio", "raw Java NIO SocketChannel", nioPing);
            latency(figures, "explicit", "Ibis tcp, explicit receive", ibis.explicitPingPong());
            latency(figures, "upcall", "Ibis tcp, upcalls", ibis.upcallPingPong());
            for (ArrayKind kind : ArrayKind.values()) {
                RawSockets.BlockingStream s = new RawSockets.BlockingStream(ports[0], kind, streamMessages);
                raw.add(s);
                stream(figures, "raw-" + kind, "raw Java socket + ByteBuffer conversion", s);
                stream(figures, "data-" + kind, "Ibis tcp, data serialization",
                        ibis.stream(kind, false, streamMessages));
            }
            stream(figures, "byte-" + ArrayKind.BYTE, "Ibis tcp, byte serialization",
                    ibis.stream(ArrayKind.BYTE, true, streamMessages));

            measure(figures);
            List<String> report = new ArrayList<>(header);
            report.add("- Ibis: " + ibis.implementationDescription());
            report.add("");
            report.addAll(tables(figures));
            report.forEach(System.out::println);
            Path file = write(report);
            System.out.println();
            System.out.println("Report written to " + file);
            return 0;
        } finally {
            for (Workload w : raw) {
                w.close();
            }
            if (ibis != null) {
                closeBounded(ibis);
            }
            if (peer != null) {
                peer.getOutputStream().close();
                if (!peer.waitFor(15, TimeUnit.SECONDS)) {
                    peer.destroyForcibly();
                }
            }
        }
    }

    private void latency(Map<String, Figure> figures, String key, String label, Workload w) {
        figures.put(key, new Figure(key, label, w, latencyWarmup, latencyIterations, true, new Series()));
    }

    private void stream(Map<String, Figure> figures, String key, String label, Workload w) {
        figures.put(key, new Figure(key, label, w, streamWarmup, streamMessages, false, new Series()));
    }

    /** Warms every workload up, then measures the repetitions, interleaving all figures. */
    private void measure(Map<String, Figure> figures) throws Exception {
        for (Figure f : figures.values()) {
            System.out.println("warming up: " + f.label() + " (" + f.key() + ")");
            f.workload().run(f.warmup());
        }
        for (int rep = 1; rep <= repetitions; rep++) {
            System.out.println("repetition " + rep + " of " + repetitions);
            for (Figure f : figures.values()) {
                long start = System.nanoTime();
                f.workload().run(f.iterations());
                f.series().add(f.value(System.nanoTime() - start));
            }
        }
        System.out.println();
    }

    private List<String> header() {
        Runtime rt = Runtime.getRuntime();
        List<String> h = new ArrayList<>();
        h.add("# Ibis benchmark suite `ipl`" + (quick ? " (quick)" : ""));
        h.add("");
        h.add("- Date: " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        h.add("- JDK: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.vendor") + ")");
        h.add("- OS: " + System.getProperty("os.name") + " " + System.getProperty("os.version") + ", "
                + rt.availableProcessors() + " cores");
        h.add("- Command: `" + command + "`");
        h.add("- Set-up: two JVMs on one machine (driver and peer), loopback 127.0.0.1, TCP_NODELAY "
                + "everywhere; Ibis implementation tcp; repetitions of Ibis and of its raw peers are "
                + "interleaved. Warm-up: " + latencyWarmup + " round trips / " + streamWarmup
                + " messages; then " + repetitions + " repetitions of " + latencyIterations
                + " round trips / " + streamMessages + " messages of 100 KB.");
        return h;
    }

    private List<String> tables(Map<String, Figure> f) {
        List<String> t = new ArrayList<>();
        t.add("## Round-trip latency, 1-byte message (µs, lower is better)");
        t.add("");
        t.add("| sender and receiver | median | min–max | ratio to raw blocking | ratio to NIO |");
        t.add("| --- | ---: | ---: | ---: | ---: |");
        for (String key : List.of("raw", "nio", "explicit", "upcall")) {
            Figure x = f.get(key);
            t.add("| " + x.label() + " | " + fmt(x.series().median()) + " | " + range(x.series()) + " | "
                    + ratio(x, f.get("raw")) + " | " + ratio(x, f.get("nio")) + " |");
        }
        t.add("");
        t.add("## One-way throughput, 100 KB arrays (MB/s = 10^6 bytes/s, higher is better)");
        t.add("");
        t.add("| array | sender and receiver | median | min–max | ratio to raw |");
        t.add("| --- | --- | ---: | ---: | ---: |");
        for (ArrayKind kind : ArrayKind.values()) {
            Figure rawFigure = f.get("raw-" + kind);
            List<Figure> rows = new ArrayList<>(List.of(rawFigure, f.get("data-" + kind)));
            if (f.containsKey("byte-" + kind)) {
                rows.add(f.get("byte-" + kind));
            }
            for (Figure x : rows) {
                t.add("| " + kind.javaName() + " | " + x.label() + " | " + fmt(x.series().median()) + " | "
                        + range(x.series()) + " | " + ratio(x, rawFigure) + " |");
            }
        }
        t.add("");
        t.add("Ratios are Ibis / peer of the medians: below 1 is faster for latency, above 1 is faster"
                + " for throughput.");
        t.add("");
        t.add("## Not yet measured");
        t.add("");
        t.add("- other implementations (ucx, mpi) and their C peers (ucx_perftest, a C MPI ping-pong);");
        t.add("- the ibis and sun object serializations and the 1023-node tree;");
        t.add("- latency and throughput against message size (1 B … 1 MB) and their plots;");
        t.add("- one-to-many (multicast to 1, 2, 4, 8) and many-to-one throughput.");
        return t;
    }

    private static String fmt(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String range(Series s) {
        return fmt(s.min()) + "–" + fmt(s.max());
    }

    private static String ratio(Figure x, Figure peer) {
        return String.format(Locale.ROOT, "%.2f", x.series().median() / peer.series().median());
    }

    private Path write(List<String> report) throws IOException {
        Files.createDirectories(outputDirectory);
        Path file = outputDirectory.resolve("ipl-" + LocalDate.now() + (quick ? "-quick" : "") + ".md");
        Files.write(file, report, StandardCharsets.UTF_8);
        return file.toAbsolutePath();
    }

    private Process startPeer(String server, String pool) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path")));
        for (String name : List.of("org.slf4j.simpleLogger.defaultLogLevel", "ibis.implementation")) {
            String value = System.getProperty(name);
            if (value != null) {
                cmd.add("-D" + name + "=" + value);
            }
        }
        cmd.addAll(List.of(IplBenchPeer.class.getName(), server, pool, Integer.toString(streamMessages)));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** Reads the peer's READY line (its raw server ports), then keeps draining its output. */
    private static int[] awaitReady(Process peer) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("READY ")) {
                String[] parts = line.split(" ");
                RawSockets.daemon("peer-output", () -> drain(out, System.out));
                return new int[] {Integer.parseInt(parts[1]), Integer.parseInt(parts[2])};
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

    private static void closeBounded(IbisDriver ibis) throws InterruptedException {
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
