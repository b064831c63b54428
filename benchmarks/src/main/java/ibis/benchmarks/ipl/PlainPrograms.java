package ibis.benchmarks.ipl;

import ibis.benchmarks.ChildProcesses;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The plain-program figure of the ipl suite: {@link PlainStream}, an ordinary IPL program, started
 * the way a user starts it ({@code bin/ibis-run --np 2}, default settings, no {@code JAVA_OPTS}),
 * a fresh pool per measurement. Each pool sends two runs of 10,000 messages: the first is what a
 * program of that size gets (JIT warm-up and new connections included), the second what the same
 * pool gets once warm. Reported beside the suite's own one-to-one stream of the same message.
 */
final class PlainPrograms {

    /** Messages per run, as in the program this figure stands for. */
    static final int MESSAGES = 10_000;

    /** The serializations measured, with the suite figure of the same stream (label, serialization). */
    static final List<String> SERIALIZATIONS = List.of("data", "byte", "object.ibis");

    private static final Pattern LINE = Pattern.compile(
            "plain-stream (\\S+) run (\\d+) (\\d+) messages (\\d+) ns ([0-9.]+) MB/s");

    /** The pools of one serialization: MB/s of the first and of the second run of each pool. */
    record Result(String serialization, Series first, Series second, String failure) {
    }

    private final int pools;
    private final String implementation;

    /** Runs {@code pools} pools per serialization over {@code implementation} ({@code ibis-run --impl}). */
    PlainPrograms(int pools, String implementation) {
        this.pools = pools;
        this.implementation = implementation;
    }

    /** Runs the pools, one serialization after the other (none when the settings ask for no pools). */
    List<Result> run() throws InterruptedException {
        List<Result> results = new ArrayList<>();
        if (pools <= 0) {
            return results;
        }
        for (String serialization : SERIALIZATIONS) {
            Series first = new Series();
            Series second = new Series();
            String failure = null;
            for (int p = 0; p < pools && failure == null; p++) {
                System.out.println("plain program: " + serialization + ", pool " + (p + 1) + " of " + pools);
                System.out.flush();
                try {
                    double[] mbs = runPool(serialization, implementation);
                    first.add(mbs[0]);
                    second.add(mbs[1]);
                } catch (IOException e) {
                    failure = e.getMessage();
                }
            }
            results.add(new Result(serialization, first, second, failure));
        }
        return results;
    }

    /** One pool of two members; returns the MB/s of its two runs. */
    private static double[] runPool(String serialization, String implementation)
            throws IOException, InterruptedException {
        Run r = runPlain(implementation, PlainStream.class.getName(), 5, serialization, Integer.toString(MESSAGES),
                "2");
        double[] mbs = {Double.NaN, Double.NaN};
        for (String line : r.output()) {
            Matcher m = LINE.matcher(line);
            if (m.find()) {
                int run = Integer.parseInt(m.group(2));
                if (run < 2) {
                    mbs[run] = Double.parseDouble(m.group(5));
                }
            }
        }
        if (r.exitStatus() != 0 || Double.isNaN(mbs[0]) || Double.isNaN(mbs[1])) {
            throw r.failure();
        }
        return mbs;
    }

    /** What a plain program printed (standard output and error) and its exit status (-1: killed). */
    record Run(List<String> command, List<String> output, int exitStatus) {
        /** The program failed or printed no result: the command, the status and the last lines. */
        IOException failure() {
            int from = Math.max(0, output.size() - 25);
            return new IOException(String.join(" ", command) + " exited with " + exitStatus + ": "
                    + String.join(" | ", output.subList(from, output.size())));
        }
    }

    /**
     * Runs a program of the benchmarks jar as a user would: {@code bin/ibis-run --np 2 --impl IMPL
     * -cp <benchmarks jar> MAIN ARGS}, default settings (no {@code JAVA_OPTS}, no build), for at most
     * {@code timeoutMinutes} (then it is killed).
     */
    static Run runPlain(String implementation, String mainClass, long timeoutMinutes, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(ibisRun().toString(), "--np", "2", "--impl", implementation,
                "-cp", ownClassPath(), mainClass));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = ChildProcesses.prepare(new ProcessBuilder(cmd)).redirectErrorStream(true);
        pb.environment().remove("JAVA_OPTS"); // default settings, as a user's program
        pb.environment().put("IBIS_NO_BUILD", "1");
        Process p = pb.start();
        List<String> output = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                output.add(line);
            }
        } finally {
            if (!p.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
        return new Run(cmd, output, p.isAlive() ? -1 : p.exitValue());
    }

    /** {@code bin/ibis-run} of this installation ({@code ibis.home}, set by {@code bin/ibis-bench}). */
    static Path ibisRun() throws IOException {
        String home = System.getProperty("ibis.home");
        if (home == null) {
            throw new IOException("ibis.home is not set (bin/ibis-bench sets it): cannot find bin/ibis-run");
        }
        Path script = Path.of(home, "bin", "ibis-run");
        if (!Files.isExecutable(script)) {
            throw new IOException(script + " is missing or not executable");
        }
        return script;
    }

    /** The jar (or class folder) this class came from: the program's class path. */
    static String ownClassPath() throws IOException {
        try {
            return new File(PlainStream.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        } catch (URISyntaxException | RuntimeException e) {
            throw new IOException("cannot find the benchmarks jar: " + e, e);
        }
    }

    /** The report's table, beside the suite's own byte[] streams (median MB/s by serialization; may be empty). */
    static List<String> table(List<Result> results, Map<String, Double> suiteStreams, String implementation) {
        List<String> t = new ArrayList<>();
        if (results.isEmpty()) {
            return t;
        }
        String run = "bin/ibis-run --np 2" + (implementation.equals(IplSuite.TCP) ? "" : " --impl " + implementation);
        t.add("## Ordinary programs: `" + run + "`, 10,000 messages of 100 KB (MB/s, higher is better)");
        t.add("");
        t.add("`" + PlainStream.class.getName() + "`: one-to-one port, explicit receive, the sender loops"
                + " `newMessage(); writeArray(byte[102400]); finish()` 10,000 times, then waits for a one-byte"
                + " acknowledgement; started by `" + run + "` with default settings, a fresh pool per"
                + " measurement. First run: the pool's first 10,000 messages (what such a program gets, JIT warm-up"
                + " included). Second run: the next 10,000 in the same pool. Ratio: first-run median / the median of"
                + " the suite's own `writeArray/readArray` byte[] stream above (the byte one for byte, the data one"
                + " for data and object.ibis, whose writeArray/readArray the suite does not time separately)."
                + " On a machine with no more cores than busy threads the first run is mostly the JIT's: both"
                + " JVMs' C2 compilers share the cores with sender and receiver until the per-message methods"
                + " are compiled, some 10,000 messages in (docs/benchmarks.md, \"Reading the figures\").");
        t.add("");
        t.add("| serialization | first run: median | min–max | second run: median | min–max | suite stream"
                + " | ratio (first / suite) | ratio (second / suite) |");
        t.add("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (Result r : results) {
            if (r.failure() != null && r.first().size() == 0) {
                t.add("| " + r.serialization() + " | failed: " + r.failure().replace('|', '/') + " | | | | | | |");
                continue;
            }
            double suite = reference(suiteStreams, r.serialization());
            t.add("| " + r.serialization() + " | " + fmt(r.first().median()) + " | " + fmt(r.first().min()) + "–"
                    + fmt(r.first().max()) + " | " + fmt(r.second().median()) + " | " + fmt(r.second().min()) + "–"
                    + fmt(r.second().max()) + " | " + (Double.isNaN(suite) ? "—" : fmt(suite)) + " | "
                    + ratio(r.first(), suite) + " | " + ratio(r.second(), suite) + " |");
        }
        t.add("");
        for (Result r : results) {
            double suite = reference(suiteStreams, r.serialization());
            if (r.first().size() > 0 && !Double.isNaN(suite)) {
                double ratio = r.first().median() / suite;
                t.add("- Target: the plain program (" + r.serialization() + ") at least 0.9 × the suite's stream: "
                        + String.format(Locale.ROOT, "%.2f", ratio) + (ratio >= 0.9 ? " — met" : " — missed"));
            }
        }
        t.add("");
        return t;
    }

    /** A run's median over the suite's stream, or a dash when either is missing. */
    private static String ratio(Series run, double suite) {
        return Double.isNaN(suite) || run.size() == 0 ? "—" : String.format(Locale.ROOT, "%.2f", run.median() / suite);
    }

    /** The suite's writeArray/readArray stream that a plain program of {@code serialization} is compared with. */
    private static double reference(Map<String, Double> suiteStreams, String serialization) {
        return suiteStreams.getOrDefault(serialization.equals("byte") ? "byte" : "data", Double.NaN);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }
}
