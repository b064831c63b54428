package ibis.benchmarks.ipl;

import ibis.benchmarks.ChildProcesses;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The 1-byte one-way latency of an ordinary two-member IPL program: {@link RankPingPong} {@code lat}
 * started by {@code bin/ibis-run --np 2 --impl IMPL} with default settings (no {@code JAVA_OPTS}),
 * a fresh pool per measurement, which warms up and times itself (one-to-one ports, data
 * serialization, explicit receive, as the suite's own ping-pong). The suite's ping-pong runs in
 * the driver and peer JVMs, which also hold a tcp Ibis, the raw-socket peers and some thirty ports
 * of the other figures; over ucx it came out 1.5-1.7x this program's figure in the same minutes
 * (not traced: neither thirty idle ports, an idle upcall port, a tcp Ibis in the same JVM nor the
 * receive spin time made a plain program slower).
 */
final class PlainPingPong implements SelfTimedPeer {

    private static final Pattern RESULT = Pattern.compile("RESULT lat ([0-9.]+)");
    private static final long TIMEOUT_MINUTES = 3;

    private final String implementation;
    private double nanosPerRoundTrip = Double.NaN;

    PlainPingPong(String implementation) {
        this.implementation = implementation;
    }

    /** The command a user would type, for the report. */
    String command() {
        return "bin/ibis-run --np 2 --impl " + implementation + " " + RankPingPong.class.getName() + " lat N";
    }

    @Override
    public double measure(int iterations) throws IOException, InterruptedException {
        List<String> cmd = List.of(PlainPrograms.ibisRun().toString(), "--np", "2", "--impl", implementation, "-cp",
                PlainPrograms.ownClassPath(), RankPingPong.class.getName(), "lat", Integer.toString(iterations));
        ProcessBuilder pb = ChildProcesses.prepare(new ProcessBuilder(cmd)).redirectErrorStream(true);
        pb.environment().remove("JAVA_OPTS"); // default settings, as a user's program
        pb.environment().put("IBIS_NO_BUILD", "1");
        Process p = pb.start();
        double oneWay = Double.NaN;
        List<String> output = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                output.add(line);
                Matcher m = RESULT.matcher(line);
                if (m.find()) {
                    oneWay = Double.parseDouble(m.group(1));
                }
            }
        } finally {
            if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
        if (p.isAlive() || p.exitValue() != 0 || Double.isNaN(oneWay)) {
            int from = Math.max(0, output.size() - 10);
            throw new IOException(String.join(" ", cmd) + " failed (exit "
                    + (p.isAlive() ? "none" : p.exitValue()) + "): " + String.join(" | ", output.subList(from,
                            output.size())));
        }
        nanosPerRoundTrip = oneWay * 2 * 1000;
        return oneWay;
    }

    @Override
    public double lastNanosPerIteration() {
        return nanosPerRoundTrip;
    }
}
