package ibis.benchmarks;

import ibis.benchmarks.ipl.IplSuite;
import ibis.benchmarks.rmi.RmiSuite;
import ibis.benchmarks.serialization.SerializationSuite;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * {@code ibis-bench <suite> [--quick] [--out DIR]}: runs a benchmark suite of
 * {@code BENCHMARKS.md}, prints its tables and writes them as a Markdown report
 * {@code <DIR>/<suite>-<date>[-quick].md} (DIR defaults to {@code bench-results}, or to the value of
 * the system property {@code ibis.bench.results}).
 */
public final class BenchMain {

    /** The suites that exist so far. */
    public static final List<String> SUITES = List.of("ipl", "rmi", "serialization");

    private static final String USAGE = """
            Usage: ibis-bench <suite> [--quick] [--out DIR]

            Suites:
              ipl     round-trip latency and 100 KB array throughput of the tcp implementation,
                      beside raw Java blocking sockets and NIO measured in the same run
              rmi     null-RMI latency, calls with arrays and objects, callbacks, 100 KB and tree
                      throughput, 1-8 concurrent client JVMs and the applications: the same plain
                      java.rmi programs on the JDK's java.rmi and, rewritten by ibisc --java-rmi,
                      on Ibis RMI in the same run, beside the IPL round trip
              serialization
                      write and read of 100 KB arrays, a 1023-node tree and small objects to and
                      from memory: Ibis (rewritten and run-time serializers) beside JDK
                      serialization, Kryo and Fory in the same run (JMH)
            Options:
              --quick  a short run (ipl, rmi: under a minute; serialization: about a minute and a half)
              --out    directory for the Markdown report (default: bench-results)
            """;

    private BenchMain() {
    }

    /** Parses the arguments and runs the suite. */
    public static void main(String[] args) throws Exception {
        String suite = null;
        boolean quick = false;
        Path out = Path.of(System.getProperty("ibis.bench.results", "bench-results"));
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--out" -> {
                    if (i + 1 >= args.length) {
                        fail("--out needs a directory");
                    }
                    out = Path.of(args[++i]);
                }
                case "-h", "--help" -> {
                    System.out.print(USAGE);
                    return;
                }
                default -> {
                    if (args[i].startsWith("-") || suite != null) {
                        fail("unexpected argument " + args[i]);
                    }
                    suite = args[i];
                }
            }
        }
        if (suite == null) {
            fail("no suite given");
        }
        if (!SUITES.contains(suite)) {
            fail("unknown suite '" + suite + "' (known: " + String.join(", ", SUITES) + ")");
        }
        String command = System.getProperty("ibis.bench.command",
                "java " + BenchMain.class.getName() + " " + String.join(" ", Arrays.asList(args)));
        int status = switch (suite) {
            case "serialization" -> new SerializationSuite(quick, out, command).run();
            case "rmi" -> new RmiSuite(quick, out, command).run();
            default -> new IplSuite(quick, out, command).run();
        };
        System.exit(status);
    }

    private static void fail(String message) {
        System.err.println("ibis-bench: " + message);
        System.err.print(USAGE);
        System.exit(2);
    }
}
