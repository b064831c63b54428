package ibis.benchmarks;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The command line of {@code ibis-bench}: {@code <suite> [--quick] [--impl NICK] [--out DIR]}.
 *
 * @param suite the suite's name (one of {@link BenchMain#SUITES}); null with {@code help}
 * @param quick the short run
 * @param out the report's directory
 * @param implementation the Ibis implementation's nickname given with {@code --impl}, or null when
 *        not given (the suites then use {@code ibis.implementation}, or tcp)
 * @param help {@code -h} or {@code --help}: print the usage and do nothing else
 */
public record BenchOptions(String suite, boolean quick, Path out, String implementation, boolean help) {

    /** The suites that run Ibis members over a network implementation, so take {@code --impl}. */
    public static final List<String> IMPLEMENTATION_SUITES = List.of("gmi", "ipl", "rmi");

    /** An implementation's nickname as {@code ibis.implementation} takes it (e.g. tcp, ucx, mpi). */
    private static final Pattern NICKNAME = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]*");

    /**
     * Parses the arguments.
     *
     * @param args the command line after the script's name
     * @param defaultOut the report directory when {@code --out} is not given
     * @return the options
     * @throws IllegalArgumentException with the message to show above the usage when the command
     *         line is wrong: no suite, an unknown suite or option, a missing value, or {@code --impl}
     *         for the serialization suite (it has no network)
     */
    public static BenchOptions parse(List<String> args, Path defaultOut) {
        String suite = null;
        boolean quick = false;
        Path out = defaultOut;
        String implementation = null;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String inlineValue = null;
            if (arg.startsWith("--") && arg.contains("=")) {
                inlineValue = arg.substring(arg.indexOf('=') + 1);
                arg = arg.substring(0, arg.indexOf('='));
            }
            switch (arg) {
                case "--quick" -> {
                    if (inlineValue != null) {
                        throw new IllegalArgumentException("--quick takes no value");
                    }
                    quick = true;
                }
                case "--out" -> {
                    String v = inlineValue != null ? inlineValue : value(args, ++i, "--out needs a directory");
                    out = Path.of(v);
                }
                case "--impl" -> {
                    String v = inlineValue != null ? inlineValue
                            : value(args, ++i, "--impl needs an implementation's nickname (tcp, ucx)");
                    if (!NICKNAME.matcher(v).matches()) {
                        throw new IllegalArgumentException("--impl " + v + " is not an implementation's nickname"
                                + " (tcp, ucx)");
                    }
                    implementation = v;
                }
                case "-h", "--help" -> {
                    return new BenchOptions(null, quick, out, implementation, true);
                }
                default -> {
                    if (arg.startsWith("-")) {
                        throw new IllegalArgumentException("unexpected argument " + args.get(i));
                    }
                    if (suite != null) {
                        throw new IllegalArgumentException("unexpected argument " + arg + " (the suite is " + suite
                                + ")");
                    }
                    suite = arg;
                }
            }
        }
        if (suite == null) {
            throw new IllegalArgumentException("no suite given");
        }
        if (!BenchMain.SUITES.contains(suite)) {
            throw new IllegalArgumentException("unknown suite '" + suite + "' (known: " + String.join(", ",
                    BenchMain.SUITES) + ")");
        }
        if (implementation != null && !IMPLEMENTATION_SUITES.contains(suite)) {
            throw new IllegalArgumentException("--impl applies to the suites " + String.join(" and ",
                    IMPLEMENTATION_SUITES) + "; the " + suite + " suite uses no network");
        }
        return new BenchOptions(suite, quick, out, implementation, false);
    }

    private static String value(List<String> args, int i, String missing) {
        if (i >= args.size() || args.get(i).startsWith("-")) {
            throw new IllegalArgumentException(missing);
        }
        return args.get(i);
    }
}
