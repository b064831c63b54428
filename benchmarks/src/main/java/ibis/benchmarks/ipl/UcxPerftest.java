package ibis.benchmarks.ipl;

import ibis.benchmarks.ChildProcesses;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@code ucx_perftest}, UCX's own C benchmark (Debian package {@code ucx-utils}): the physical
 * limit that the {@code ucx} implementation is compared with. One measurement is a server process
 * ({@code ucx_perftest -p PORT}) and a client process ({@code ucx_perftest 127.0.0.1 -p PORT -t TEST
 * -s SIZE -n N -w W}) on this machine; they exchange their UCX addresses over that TCP port (on
 * loopback), then run the test over UCX, and the client prints the figures (its {@code Final:}
 * line, {@link #parse}).
 *
 * <p>What the figures mean (UCX's {@code libperf.c}, {@code ucx_perf_calc_result}): for a
 * ping-pong test ({@code tag_lat}) the latency columns are <em>one-way</em>, half the round trip;
 * for a stream ({@code tag_bw}) they are the time per message. The "MB/s" column is MiB/s
 * (2^20 bytes/s): {@link Result#megabytesPerSecond()} converts it to the suite's 10^6 bytes/s.
 *
 * <p>Both processes get {@link ChildProcesses#ENVIRONMENT_DEFAULTS} ({@code UCX_NET_DEVICES=lo}
 * unless set), and {@code UCX_TLS} of the {@link Transport}.
 */
final class UcxPerftest {

    /** System property: the {@code ucx_perftest} executable (default: the one on the PATH). */
    static final String EXECUTABLE_PROPERTY = "ibis.bench.ucx.perftest";

    /** The program's name. */
    static final String NAME = "ucx_perftest";

    /** What to install when it is missing. */
    static final String INSTALL_HINT = "install it with `apt-get install ucx-utils` (Debian; `scripts/setup`"
            + " installs the UCX packages), or name it with -D" + EXECUTABLE_PROPERTY + "=PATH";

    /** How long one client run may take before it is declared stuck. */
    private static final long RUN_TIMEOUT_SECONDS = 120;

    /** The UCX transports of a measurement. */
    enum Transport {
        /** UCX's own choice between two processes of one machine: shared memory (sysv, posix, cma). */
        SHARED_MEMORY(null, "shared memory (UCX's default transports)"),
        /** TCP only, over the loopback device ({@code UCX_NET_DEVICES=lo}). */
        TCP("tcp", "tcp on lo (`UCX_TLS=tcp`)");

        /** The {@code UCX_TLS} value, or null to leave UCX's default (or the user's setting). */
        final String tls;
        final String description;

        Transport(String tls, String description) {
            this.tls = tls;
            this.description = description;
        }
    }

    /** A test of UCP tag matching. */
    enum Test {
        /** Ping-pong of 1-byte tagged messages: one-way latency. */
        TAG_LAT("tag_lat", 1, true, null),
        /** A stream of 100 KB (102,400-byte) tagged messages: bandwidth, UCX's own protocol choice. */
        TAG_BW("tag_bw", 102_400, false, null),
        /**
         * The same stream with every message sent eagerly ({@code UCX_RNDV_THRESH=inf}), what
         * {@code ibis.ucx.eager.max=inf} gives impl-ucx.
         */
        TAG_BW_EAGER("tag_bw", 102_400, false, "inf");

        final String name;
        final int bytes;
        final boolean latency;
        /** The {@code UCX_RNDV_THRESH} of both processes, or null to leave UCX's default (or the user's setting). */
        final String rndvThreshold;

        Test(String name, int bytes, boolean latency, String rndvThreshold) {
            this.name = name;
            this.bytes = bytes;
            this.latency = latency;
            this.rndvThreshold = rndvThreshold;
        }

        /** How the report names the test: its {@code -t} name, and the protocol when it sets one. */
        String label() {
            return rndvThreshold == null ? name : name + " with `UCX_RNDV_THRESH=" + rndvThreshold + "`";
        }
    }

    /**
     * The figures of a client's {@code Final:} line.
     *
     * @param iterations the iterations measured
     * @param medianMicros the 50th percentile of the latency (or per-message overhead) column, µs
     * @param averageMicros the whole run's average latency (one-way for ping-pong tests) or time per message,
     *        µs
     * @param mebibytesPerSecond the overall bandwidth as printed ("MB/s": 2^20 bytes/s)
     * @param messagesPerSecond the overall message rate
     */
    record Result(long iterations, double medianMicros, double averageMicros, double mebibytesPerSecond,
            double messagesPerSecond) {

        /** @return the bandwidth in the suite's MB/s (10^6 bytes/s) */
        double megabytesPerSecond() {
            return mebibytesPerSecond * (1 << 20) / 1e6;
        }
    }

    private final String executable;

    private UcxPerftest(String executable) {
        this.executable = executable;
    }

    /**
     * Finds the program: {@value #EXECUTABLE_PROPERTY}, else {@value #NAME} on the PATH.
     *
     * @return the program, or empty when it is not installed
     */
    static Optional<UcxPerftest> find() {
        String configured = System.getProperty(EXECUTABLE_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return Files.isExecutable(Path.of(configured)) ? Optional.of(new UcxPerftest(configured))
                    : Optional.empty();
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, NAME);
                if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
                    return Optional.of(new UcxPerftest(candidate.toString()));
                }
            }
        }
        return Optional.empty();
    }

    /** @return the executable's path */
    String executable() {
        return executable;
    }

    /**
     * A {@link SelfTimedPeer} that runs {@code test} over {@code transport}: its figure is the
     * one-way latency in µs (latency tests) or the bandwidth in MB/s (10^6 bytes/s).
     */
    SelfTimedPeer peer(Test test, Transport transport) {
        return new SelfTimedPeer() {
            private double nanosPerIteration = Double.NaN;

            @Override
            public double measure(int iterations) throws IOException, InterruptedException {
                Result r = run(test, transport, iterations, Math.max(1_000, iterations / 10));
                // A ping-pong iteration is a round trip: twice the one-way latency.
                nanosPerIteration = r.averageMicros() * 1000 * (test.latency ? 2 : 1);
                return test.latency ? r.averageMicros() : r.megabytesPerSecond();
            }

            @Override
            public double lastNanosPerIteration() {
                return nanosPerIteration;
            }
        };
    }

    /**
     * Runs one measurement: a server and a client process.
     *
     * @param test the test
     * @param transport the transports
     * @param iterations measured iterations ({@code -n})
     * @param warmup warm-up iterations before them ({@code -w})
     * @return the client's figures
     * @throws IOException when a process fails, or the client prints no {@code Final:} line
     * @throws InterruptedException when interrupted
     */
    Result run(Test test, Transport transport, long iterations, long warmup) throws IOException, InterruptedException {
        IOException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = freePort();
            Process server = start(List.of(executable, "-p", Integer.toString(port)), transport, test);
            List<String> serverOutput = Collections.synchronizedList(new ArrayList<>());
            Thread drain = drain(server, serverOutput);
            try {
                List<String> client = List.of(executable, "127.0.0.1", "-p", Integer.toString(port), "-t", test.name,
                        "-s", Integer.toString(test.bytes), "-n", Long.toString(iterations), "-w",
                        Long.toString(warmup));
                // The server listens a moment after it starts: retry while the connection is refused.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (true) {
                    List<String> collected = Collections.synchronizedList(new ArrayList<>());
                    int status = runToEnd(start(client, transport, test), collected);
                    List<String> output = tail(collected, Integer.MAX_VALUE);
                    if (status == 0) {
                        return parse(output);
                    }
                    boolean refused = output.stream().anyMatch(l -> l.contains("Connection refused"));
                    if (!refused || !server.isAlive() || System.nanoTime() > deadline) {
                        last = new IOException(String.join(" ", client) + " exited with status " + status
                                + (server.isAlive() ? "" : " (its server exited: " + String.join(" | ", tail(
                                        serverOutput)) + ")") + ": " + String.join(" | ", tail(output)));
                        break;
                    }
                    Thread.sleep(20);
                }
                if (server.isAlive()) {
                    throw last; // the server runs but the client failed: no point in another port
                }
            } finally {
                if (!server.waitFor(5, TimeUnit.SECONDS)) {
                    server.destroyForcibly();
                    server.waitFor(5, TimeUnit.SECONDS);
                }
                drain.join(1_000);
            }
        }
        throw last;
    }

    private Process start(List<String> command, Transport transport, Test test) throws IOException {
        ProcessBuilder pb = ChildProcesses.prepare(new ProcessBuilder(command)).redirectErrorStream(true);
        if (transport.tls != null) {
            pb.environment().put("UCX_TLS", transport.tls);
        }
        if (test.rndvThreshold != null) {
            pb.environment().put("UCX_RNDV_THRESH", test.rndvThreshold);
        }
        return pb.start();
    }

    /** Collects a process's output until it exits (bounded); returns its status. */
    private static int runToEnd(Process p, List<String> output) throws IOException, InterruptedException {
        p.getOutputStream().close();
        Thread reader = drain(p, output);
        if (!p.waitFor(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
            reader.join(1_000);
            throw new IOException(NAME + " did not finish within " + RUN_TIMEOUT_SECONDS + " s: "
                    + String.join(" | ", tail(output)));
        }
        reader.join(5_000);
        return p.exitValue();
    }

    private static Thread drain(Process p, List<String> lines) {
        Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                }
            } catch (IOException e) {
                // the process is gone
            }
        }, NAME + "-output");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static List<String> tail(List<String> lines) {
        return tail(lines, 4);
    }

    /** A copy of the last {@code n} lines (of a list that another thread may still fill). */
    private static List<String> tail(List<String> lines, int n) {
        synchronized (lines) {
            return new ArrayList<>(lines.subList(Math.max(0, lines.size() - n), lines.size()));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * Reads the figures of a client's output: its last {@code Final:} line, whose columns are the
     * iterations, the latency (or overhead) in µs as 50th percentile, average and overall, the
     * bandwidth in "MB/s" (MiB/s) as average and overall, and the message rate as average and
     * overall. The overall values are taken: they cover the whole run, where the "average" columns
     * cover only the time since the last interim report (they differ when a run is slowed part-way).
     *
     * @param output the client's output lines (its table; log lines may be mixed in)
     * @return the figures
     * @throws IOException when there is no well-formed {@code Final:} line
     */
    static Result parse(List<String> output) throws IOException {
        String finalLine = null;
        for (String line : output) {
            if (line.trim().startsWith("Final:")) {
                finalLine = line.trim();
            }
        }
        if (finalLine == null) {
            throw new IOException(NAME + " printed no 'Final:' line: " + String.join(" | ", tail(output)));
        }
        String[] f = finalLine.substring("Final:".length()).trim().split("\\s+");
        if (f.length != 8) {
            throw new IOException(NAME + ": expected 8 numbers after 'Final:', got " + f.length + ": " + finalLine);
        }
        try {
            return new Result(Long.parseLong(f[0]), number(f[1]), number(f[3]), number(f[5]), number(f[7]));
        } catch (NumberFormatException e) {
            throw new IOException(NAME + ": cannot read the numbers of " + finalLine, e);
        }
    }

    private static double number(String s) {
        return Double.parseDouble(s.replace(",", "").toLowerCase(Locale.ROOT));
    }
}
