package ibis.benchmarks.ipl;

import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The 1-byte one-way latency of an ordinary two-member IPL program: {@link RankPingPong} {@code lat}
 * started by {@code bin/ibis-run --np 2 --impl IMPL} with default settings (no {@code JAVA_OPTS}),
 * a fresh pool per measurement, which warms up and times itself (one-to-one ports, data
 * serialization, explicit receive, as the suite's own ping-pong). The suite's ping-pong runs in
 * the driver and peer JVMs, which also hold a tcp Ibis, the raw-socket peers and some thirty ports
 * of the other figures; over ucx it came out 1.5-1.7x this program's figure in the same minutes.
 * What costs is the thirty receive ports whose readers wait on the UCX worker beside the
 * ping-pong: its polling thread scans them for messages it may have taken in for them (a test
 * program with thirty such connected idle readers: 1.5-2.0 against 1.0-1.3 µs one-way; without
 * connections, or with a tcp Ibis in the same JVM, it was not slower). impl-ucx README, "Where the
 * time goes".
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
        PlainPrograms.Run r = PlainPrograms.runPlain(implementation, RankPingPong.class.getName(), TIMEOUT_MINUTES,
                "lat", Integer.toString(iterations));
        double oneWay = Double.NaN;
        for (String line : r.output()) {
            Matcher m = RESULT.matcher(line);
            if (m.find()) {
                oneWay = Double.parseDouble(m.group(1));
            }
        }
        if (r.exitStatus() != 0 || Double.isNaN(oneWay)) {
            throw r.failure();
        }
        nanosPerRoundTrip = oneWay * 2 * 1000;
        return oneWay;
    }

    @Override
    public double lastNanosPerIteration() {
        return nanosPerRoundTrip;
    }
}
