package ibis.benchmarks;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What the suites look up about this host and put into their reports, in one place. */
public final class Host {

    private Host() {
    }

    /** The 1-, 5- and 15-minute load averages as "a / b / c", or "unknown". */
    public static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + " / " + parts[1] + " / " + parts[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /**
     * The load averages ({@link #loadAverage}) and the one-way core-to-core latency
     * ({@link #coreToCoreNanos}), for a report's machine line: "a / b / c, core to core N ns".
     */
    public static String state() {
        double ns = coreToCoreNanos();
        return loadAverage() + ", core to core " + (Double.isNaN(ns) ? "not measured (one processor)"
                : String.format(java.util.Locale.ROOT, "%.0f ns", ns));
    }

    /** The text that explains {@link #state} in a report. */
    public static final String STATE_LEGEND = "1/5/15-minute load averages; one-way core-to-core latency: two threads"
            + " passing a cache line back and forth, the best of three rounds. This VM's two processors sit close"
            + " together (about 45 ns) or far apart (about 210 ns) from one quarter of an hour to the next, which"
            + " moves every shared-memory latency and its ratios; compare figures taken in the same state";

    private static final long BOUNCES = 100_000;
    private static final long BOUNCE_ROUND_LIMIT_NANOS = 200_000_000L;

    /** A cache line's worth of padding around the value two threads pass back and forth. */
    private static final class Bounce {
        long p1;
        long p2;
        long p3;
        long p4;
        long p5;
        long p6;
        long p7;
        volatile long value;
        long q1;
        long q2;
        long q3;
        long q4;
        long q5;
        long q6;
        long q7;
        volatile boolean stop;
    }

    /**
     * The one-way latency in ns of passing a value between two threads spinning on it (they run on
     * different processors when the machine is otherwise idle), the best of three rounds of
     * {@value #BOUNCES} round trips, each bounded to 0.2 s; NaN on a machine with one processor.
     */
    public static double coreToCoreNanos() {
        if (Runtime.getRuntime().availableProcessors() < 2) {
            return Double.NaN;
        }
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            best = Math.min(best, bounceRound());
        }
        return best;
    }

    private static double bounceRound() {
        Bounce b = new Bounce();
        Thread echo = new Thread(() -> {
            for (long expect = 1; !b.stop; expect += 2) {
                while (b.value != expect) {
                    if (b.stop) {
                        return;
                    }
                }
                b.value = expect + 1;
            }
        }, "core-to-core echo");
        echo.setDaemon(true);
        echo.start();
        long start = System.nanoTime();
        long done = 0;
        outer:
        for (long i = 0; i < BOUNCES; i++) {
            b.value = 2 * i + 1;
            int spins = 0;
            while (b.value != 2 * i + 2) {
                if (++spins == 1 << 16) {
                    spins = 0;
                    if (System.nanoTime() - start > BOUNCE_ROUND_LIMIT_NANOS) {
                        break outer;
                    }
                }
            }
            done = i + 1;
        }
        long elapsed = System.nanoTime() - start;
        b.stop = true;
        try {
            echo.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return done == 0 ? Double.MAX_VALUE : elapsed / (2.0 * done);
    }

    /** The path of an executable on the PATH, if there is one. */
    public static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The last {@code count} lines of a process' output. */
    public static String tail(String text, int count) {
        List<String> lines = text.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
    }

    /**
     * Appends a report section listing failures (what failed, then its output in a code block), when
     * there are any.
     */
    public static void addFailures(List<String> report, String title, Map<String, String> failures) {
        if (failures.isEmpty()) {
            return;
        }
        report.add(title);
        report.add("");
        failures.forEach((k, v) -> {
            report.add("- " + k + ":");
            report.add("");
            report.add("```");
            report.addAll(v.lines().toList());
            report.add("```");
        });
        report.add("");
    }
}
