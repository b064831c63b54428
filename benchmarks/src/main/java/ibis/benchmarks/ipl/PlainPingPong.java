package ibis.benchmarks.ipl;

import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A figure of an ordinary two-member IPL program: {@link RankPingPong} started by {@code bin/ibis-run
 * --np 2 --impl IMPL} with default settings (no {@code JAVA_OPTS}), a fresh pool per measurement,
 * which warms up and times itself (one-to-one ports, data serialization, explicit receive, as the
 * suite's own figures): the 1-byte one-way latency ({@code lat}), or the throughput of a stream of
 * 100 KB messages, {@code writeArray(byte[])} ({@code bw}) or {@code writeByteBuffer} of a direct
 * buffer ({@code bwd}). The suite's own figures run in the driver and peer JVMs, which also hold a
 * tcp Ibis, the raw-socket peers and some thirty ports of the other figures; over ucx its
 * ping-pong came out 1.5-1.7x this program's figure in the same minutes, and its 100 KB streams at
 * 0.5-0.8x of this program's.
 * What costs is the thirty receive ports whose readers wait on the UCX worker beside the
 * ping-pong: its polling thread scans them for messages it may have taken in for them (a test
 * program with thirty such connected idle readers: 1.5-2.0 against 1.0-1.3 µs one-way; without
 * connections, or with a tcp Ibis in the same JVM, it was not slower). impl-ucx README, "Where the
 * time goes".
 */
final class PlainPingPong implements SelfTimedPeer {

    /** What {@link RankPingPong} measures: its first argument. */
    enum Mode {
        /** 1-byte round trips; the figure is the one-way latency in µs. */
        LAT("lat"),
        /** 100 KB {@code byte[]} messages; MB/s. */
        BW("bw"),
        /** 100 KB messages from and into direct buffers; MB/s. */
        BWD("bwd");

        final String argument;

        Mode(String argument) {
            this.argument = argument;
        }
    }

    private static final long TIMEOUT_MINUTES = 3;

    private final String implementation;
    private final Mode mode;
    private final Pattern result;
    private double nanosPerIteration = Double.NaN;

    /** The latency figure ({@link Mode#LAT}). */
    PlainPingPong(String implementation) {
        this(implementation, Mode.LAT);
    }

    PlainPingPong(String implementation, Mode mode) {
        this.implementation = implementation;
        this.mode = mode;
        this.result = Pattern.compile("RESULT " + mode.argument + " ([0-9.]+)");
    }

    /** The command a user would type, for the report. */
    String command() {
        return "bin/ibis-run --np 2 --impl " + implementation + " " + RankPingPong.class.getName() + " "
                + mode.argument + " N" + (mode == Mode.LAT ? "" : " " + ArrayKind.MESSAGE_BYTES);
    }

    @Override
    public double measure(int iterations) throws IOException, InterruptedException {
        String[] args = mode == Mode.LAT ? new String[] {mode.argument, Integer.toString(iterations)}
                : new String[] {mode.argument, Integer.toString(iterations), Integer.toString(ArrayKind.MESSAGE_BYTES)};
        PlainPrograms.Run r = PlainPrograms.runPlain(implementation, RankPingPong.class.getName(), TIMEOUT_MINUTES,
                args);
        double figure = Double.NaN;
        for (String line : r.output()) {
            Matcher m = result.matcher(line);
            if (m.find()) {
                figure = Double.parseDouble(m.group(1));
            }
        }
        if (r.exitStatus() != 0 || Double.isNaN(figure)) {
            throw r.failure();
        }
        nanosPerIteration = mode == Mode.LAT ? figure * 2 * 1000 : ArrayKind.MESSAGE_BYTES / figure * 1000;
        return figure;
    }

    @Override
    public double lastNanosPerIteration() {
        return nanosPerIteration;
    }
}
