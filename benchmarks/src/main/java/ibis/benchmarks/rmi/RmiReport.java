package ibis.benchmarks.rmi;

import ibis.benchmarks.ipl.Series;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Markdown tables of the rmi suite's report. Every figure is measured on both sides in the
 * same repetitions; the "Ibis speed-up" column is the median over the repetitions of the paired
 * ratio (java.rmi time / Ibis time, or Ibis rate / java.rmi rate), so above 1 means Ibis RMI was
 * faster.
 */
public final class RmiReport {

    /** One workload measured on both sides. */
    public record Pair(String workload, String parameter, Series jdk, Series ibis) {
    }

    /** One application at one process count; {@code failure} is null when every run verified. */
    public record AppRow(String app, int procs, Series jdk, Series ibis, String failure) {
    }

    /**
     * The suite's targets with what this run measured (NaN when not measured); {@code implementation}
     * is the IPL implementation under Ibis RMI, which sets the null-RMI goal ({@link #nullRmiGoal}).
     */
    public record Targets(Series jdkNullRmi, Series ibisNullRmi, Series iplUpcallRoundTrip,
            Series iplExplicitRoundTrip, Series jdkTreeThroughput, Series ibisTreeThroughput, String implementation) {

        /** The targets of Ibis RMI over tcp. */
        public Targets(Series jdkNullRmi, Series ibisNullRmi, Series iplUpcallRoundTrip, Series iplExplicitRoundTrip,
                Series jdkTreeThroughput, Series ibisTreeThroughput) {
            this(jdkNullRmi, ibisNullRmi, iplUpcallRoundTrip, iplExplicitRoundTrip, jdkTreeThroughput,
                    ibisTreeThroughput, "tcp");
        }

        /** @return how many times faster than java.rmi a null RMI should be: 10 over ucx, 5 over tcp */
        public double nullRmiGoal() {
            return implementation.equals("ucx") ? 10 : 5;
        }
    }

    private final List<String> lines = new ArrayList<>();

    /** A report starting with the given header lines. */
    public RmiReport(List<String> header) {
        lines.addAll(header);
        lines.add("");
    }

    /** @return the report so far */
    public List<String> lines() {
        return List.copyOf(lines);
    }

    /** Adds lines as they are. */
    public void add(String... text) {
        lines.addAll(List.of(text));
    }

    /** The summary of the suite's targets, met or missed. */
    public void targets(Targets t) {
        lines.add("## Summary: the RMI targets");
        lines.add("");
        lines.add("| target | measured | goal | status |");
        lines.add("| --- | ---: | ---: | --- |");
        double speedup = Series.pairedRatio(t.jdkNullRmi(), t.ibisNullRmi());
        double goal = t.nullRmiGoal();
        String over = t.implementation().equals("tcp") ? "" : " over " + t.implementation();
        lines.add("| null-RMI latency" + over + ", java.rmi / Ibis RMI | " + ratio(speedup) + " | ≥ "
                + String.format(Locale.ROOT, "%.0f", goal) + " | " + status(speedup, goal, true) + " |");
        double overUpcall = Series.pairedRatio(t.ibisNullRmi(), t.iplUpcallRoundTrip());
        lines.add("| Ibis null-RMI / IPL 1-byte round trip (upcalls, as RMI uses) | " + ratio(overUpcall)
                + " | ≤ 1.3 | " + status(overUpcall, 1.3, false) + " |");
        double overExplicit = Series.pairedRatio(t.ibisNullRmi(), t.iplExplicitRoundTrip());
        lines.add("| Ibis null-RMI / IPL 1-byte round trip (explicit receive) | " + ratio(overExplicit)
                + " | ≤ 1.3 | " + status(overExplicit, 1.3, false) + " |");
        double tree = Series.pairedRatio(t.ibisTreeThroughput(), t.jdkTreeThroughput());
        lines.add("| tree(1023) throughput, Ibis RMI / java.rmi | " + ratio(tree) + " | ≥ 5 | " + status(tree, 5, true)
                + " |");
        lines.add("");
        lines.add("Measured: null RMI " + fmt(t.jdkNullRmi().median()) + " µs (java.rmi) vs "
                + fmt(t.ibisNullRmi().median())
                + " µs (Ibis RMI); IPL round trip " + fmt(t.iplUpcallRoundTrip().median()) + " µs (upcalls), "
                + fmt(t.iplExplicitRoundTrip().median()) + " µs (explicit receive); tree(1023) "
                + fmt(t.jdkTreeThroughput().median()) + " MB/s (java.rmi) vs " + fmt(t.ibisTreeThroughput().median())
                + " MB/s (Ibis RMI). Ratios are medians of per-repetition ratios.");
        lines.add("");
        double jdk = t.jdkNullRmi().median();
        double transport = Math.min(t.iplUpcallRoundTrip().median(), t.iplExplicitRoundTrip().median());
        if (!Double.isNaN(jdk) && !Double.isNaN(transport)) {
            lines.add("Bound: a null RMI cannot be faster than one round trip of the transport under it. A "
                    + String.format(Locale.ROOT, "%.0f", goal) + "x speed-up over java.rmi would need a null RMI of "
                    + fmt(jdk / goal) + " µs; the IPL round trip"
                    + " alone took " + fmt(transport) + " µs in this run (java.rmi itself took "
                    + String.format(Locale.ROOT, "%.2f", jdk / transport) + " × that round trip).");
            lines.add("");
        }
    }

    /**
     * A table of workloads measured on both sides.
     *
     * @param title the section title
     * @param unit e.g. {@code µs} or {@code MB/s}
     * @param lowerIsBetter true for times, false for rates
     * @param rows the rows
     */
    public void pairTable(String title, String unit, boolean lowerIsBetter, List<Pair> rows) {
        lines.add("## " + title + " (" + unit + ", " + (lowerIsBetter ? "lower" : "higher") + " is better)");
        lines.add("");
        lines.add("| workload | parameter | java.rmi median | java.rmi min–max | Ibis RMI median | Ibis RMI min–max"
                + " | Ibis speed-up |");
        lines.add("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
        for (Pair p : rows) {
            double r = lowerIsBetter ? Series.pairedRatio(p.jdk(), p.ibis()) : Series.pairedRatio(p.ibis(), p.jdk());
            lines.add("| " + p.workload() + " | " + p.parameter() + " | " + fmt(p.jdk().median()) + " | "
                    + range(p.jdk()) + " | " + fmt(p.ibis().median()) + " | " + range(p.ibis()) + " | " + ratio(r)
                    + " |");
        }
        lines.add("");
    }

    /**
     * A table of single figures (no java.rmi counterpart), e.g. the IPL round trips.
     *
     * @param title the section title
     * @param unit the unit
     * @param rows label and series
     */
    public void singleTable(String title, String unit, List<java.util.Map.Entry<String, Series>> rows) {
        lines.add("## " + title + " (" + unit + ")");
        lines.add("");
        lines.add("| what | median | min–max |");
        lines.add("| --- | ---: | ---: |");
        for (java.util.Map.Entry<String, Series> e : rows) {
            lines.add("| " + e.getKey() + " | " + fmt(e.getValue().median()) + " | " + range(e.getValue()) + " |");
        }
        lines.add("");
    }

    /**
     * The applications table, or why there is none.
     *
     * @param rows the runs (empty when not run)
     * @param unavailable null, or why the applications were not run
     */
    public void apps(List<AppRow> rows, String unavailable) {
        lines.add("## Applications (ms per run as reported by the application's rank 0, lower is better)");
        lines.add("");
        if (unavailable != null) {
            lines.add("Apps not available: " + unavailable + ".");
            lines.add("");
            return;
        }
        lines.add("| application | processes | java.rmi median | java.rmi min–max | Ibis RMI median | Ibis RMI min–max"
                + " | Ibis speed-up | result |");
        lines.add("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
        for (AppRow a : rows) {
            double r = Series.pairedRatio(a.jdk(), a.ibis());
            lines.add("| " + a.app() + " | " + a.procs() + " | " + fmt(a.jdk().median()) + " | " + range(a.jdk())
                    + " | " + fmt(a.ibis().median()) + " | " + range(a.ibis()) + " | " + ratio(r) + " | "
                    + (a.failure() == null ? "verified" : "FAILED: " + a.failure().replace('|', '/')) + " |");
        }
        lines.add("");
    }

    /**
     * Writes the report.
     *
     * @param directory the folder (created if needed)
     * @param fileName the file name
     * @return the file written
     * @throws IOException when it cannot be written
     */
    public Path write(Path directory, String fileName) throws IOException {
        Files.createDirectories(directory);
        Path file = directory.resolve(fileName);
        Files.write(file, lines, StandardCharsets.UTF_8);
        return file.toAbsolutePath();
    }

    private static String status(double value, double goal, boolean atLeast) {
        if (Double.isNaN(value)) {
            return "not measured";
        }
        return (atLeast ? value >= goal : value <= goal) ? "met" : "missed";
    }

    static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "—";
        }
        if (v >= 100) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return String.format(Locale.ROOT, v >= 10 ? "%.1f" : "%.2f", v);
    }

    private static String range(Series s) {
        return s.size() == 0 ? "—" : fmt(s.min()) + "–" + fmt(s.max());
    }

    private static String ratio(double r) {
        return Double.isNaN(r) ? "—" : String.format(Locale.ROOT, "%.2f", r);
    }
}
