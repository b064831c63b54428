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
