package ibis.benchmarks.gmi.apps;

import ibis.benchmarks.Host;
import ibis.benchmarks.gmi.GmiSuite;
import ibis.benchmarks.gmi.apps.AppRuns.AppResult;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The applications as a section of the gmi suite ({@code bin/ibis-bench gmi}): ASP, LUFact, MolDyn,
 * LEQ and QR, each in GMI style over every implementation the suite measures and in MPI style over
 * the Open MPI Java bindings, on 1, 2 and 4 processes (one program or job per style, implementation
 * and process count, running all five in order). The report's table gives process 0's seconds per
 * run and whether every result equals the sequential program's, computed in the suite's JVM; a
 * result that differs, or a run that fails, fails the suite.
 */
public final class AppsSection implements GmiSuite.Section {

    /** The process counts of BENCHMARKS.md. */
    static final int[] PROCESSES = {1, 2, 4};
    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    private final Function<String, AppSpec> sizes;
    private final int[] processes;
    private final Duration timeout;
    private boolean failed;

    /** The section with the sizes of the quick or the full run ({@link AppSpec#quick}, {@link AppSpec#benchmark}). */
    public AppsSection() {
        this(null, PROCESSES, TIMEOUT);
    }

    /** A section of explicit sizes (tests use small ones); {@code sizes} null: by the run's kind. */
    AppsSection(Function<String, AppSpec> sizes, int[] processes, Duration timeout) {
        this.sizes = sizes;
        this.processes = processes.clone();
        this.timeout = timeout;
    }

    @Override
    public boolean failed() {
        return failed;
    }

    @Override
    public List<String> run(boolean quick, List<String> implementations) throws Exception {
        Function<String, AppSpec> size = sizes != null ? sizes : quick ? AppSpec::quick : AppSpec::benchmark;
        List<AppSpec> specs = new ArrayList<>();
        AppSpec.APPS.forEach(a -> specs.add(size.apply(a)));
        Map<String, Long> reference = new LinkedHashMap<>();
        Map<String, Double> sequentialSeconds = new LinkedHashMap<>();
        for (AppSpec s : specs) {
            System.out.println("gmi applications: " + s + " sequentially");
            System.out.flush();
            long start = System.nanoTime();
            reference.put(s.app(), MpiStyleMain.sequential(s));
            sequentialSeconds.put(s.app(), (System.nanoTime() - start) / 1e9);
        }
        // Column ("GMI over tcp", ..., "MPI style") -> processes -> app -> result.
        Map<String, Map<Integer, Map<String, AppResult>>> results = new LinkedHashMap<>();
        Map<String, String> failures = new LinkedHashMap<>();
        for (String impl : implementations) {
            String column = "GMI over " + impl;
            results.put(column, new LinkedHashMap<>());
            for (int p : processes) {
                System.out.println("gmi applications over " + impl + " on " + p + " processes");
                System.out.flush();
                try {
                    results.get(column).put(p, byApp(AppRuns.gmi(specs, p, timeout, impl)));
                } catch (IOException e) {
                    failures.put(column + " on " + p + " processes", e.getMessage());
                }
            }
        }
        String mpiMissing = AppRuns.mpiMissing();
        String mpiColumn = "MPI style";
        if (mpiMissing == null) {
            results.put(mpiColumn, new LinkedHashMap<>());
            for (int p : processes) {
                System.out.println("gmi applications in MPI style on " + p + " processes");
                System.out.flush();
                try {
                    results.get(mpiColumn).put(p, byApp(AppRuns.mpi(specs, p, timeout)));
                } catch (IOException e) {
                    failures.put(mpiColumn + " on " + p + " processes", e.getMessage());
                }
            }
        }
        return report(specs, reference, sequentialSeconds, results, mpiMissing, failures);
    }

    private static Map<String, AppResult> byApp(List<AppResult> list) {
        Map<String, AppResult> m = new LinkedHashMap<>();
        list.forEach(r -> m.put(r.app(), r));
        return m;
    }

    private List<String> report(List<AppSpec> specs, Map<String, Long> reference, Map<String, Double> sequential,
            Map<String, Map<Integer, Map<String, AppResult>>> results, String mpiMissing,
            Map<String, String> failures) {
        List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add("## Applications");
        lines.add("");
        lines.add("Seconds process 0 computed (from after group set-up and a barrier to the result; one run each),"
                + " GMI style over each implementation (tcp and ucx: plain JVMs and a registry server; mpi: the ranks"
                + " of one `mpirun` job) and MPI style over the Open MPI Java bindings (`mpirun --mca btl self,vader`)."
                + " \"sequential\": the sequential program in the suite's JVM. \"results\": whether every run's"
                + " checksum equals the sequential program's (docs/benchmarks.md, \"GMI applications\").");
        if (mpiMissing != null) {
            lines.add("");
            lines.add("**MPI style: not measured**: " + mpiMissing);
        }
        lines.add("");
        StringBuilder head = new StringBuilder("| app | size | processes | sequential (s) |");
        StringBuilder rule = new StringBuilder("| --- | --- | ---: | ---: |");
        for (String column : results.keySet()) {
            head.append(' ').append(column).append(" (s) |");
            rule.append(" ---: |");
        }
        boolean withMpi = results.containsKey("MPI style") && results.size() > 1;
        if (withMpi) {
            head.append(" fastest GMI / MPI style |");
            rule.append(" ---: |");
        }
        head.append(" results |");
        rule.append(" --- |");
        lines.add(head.toString());
        lines.add(rule.toString());
        for (AppSpec spec : specs) {
            for (int p : processes) {
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "| %s | %d x %d | %d | %.2f |",
                        spec.app(), spec.n(), spec.steps(), p, sequential.get(spec.app())));
                double fastestGmi = Double.NaN;
                double mpi = Double.NaN;
                List<String> differing = new ArrayList<>();
                int runs = 0;
                for (Map.Entry<String, Map<Integer, Map<String, AppResult>>> column : results.entrySet()) {
                    AppResult r = column.getValue().getOrDefault(p, Map.of()).get(spec.app());
                    if (r == null) {
                        row.append(" failed |");
                        continue;
                    }
                    runs++;
                    row.append(String.format(Locale.ROOT, " %.2f |", r.seconds()));
                    if (column.getKey().equals("MPI style")) {
                        mpi = r.seconds();
                    } else if (!(r.seconds() >= fastestGmi)) {
                        fastestGmi = r.seconds();
                    }
                    if (!r.checksum().equals(String.format("%016x", reference.get(spec.app())))) {
                        differing.add(column.getKey() + ": " + r.checksum());
                    }
                }
                if (withMpi) {
                    row.append(Double.isNaN(fastestGmi) || Double.isNaN(mpi) ? " — |"
                            : String.format(Locale.ROOT, " %.2f |", fastestGmi / mpi));
                }
                if (!differing.isEmpty()) {
                    failed = true;
                    row.append(String.format(" **differ** from %016x: %s |", reference.get(spec.app()),
                            String.join(", ", differing)));
                } else {
                    row.append(runs == 0 ? " — |" : " identical |");
                }
                lines.add(row.toString());
            }
        }
        if (!failures.isEmpty()) {
            failed = true;
            lines.add("");
            lines.add("### Failed application runs");
            failures.forEach((what, why) -> {
                lines.add("");
                lines.add("- " + what + ":");
                lines.add("");
                lines.add("```");
                lines.add(Host.tail(why, 30));
                lines.add("```");
            });
        }
        return lines;
    }
}
