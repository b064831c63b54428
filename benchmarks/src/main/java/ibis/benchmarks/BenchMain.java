package ibis.benchmarks;

import ibis.benchmarks.gmi.GmiSuite;
import ibis.benchmarks.gmi.apps.AppsSection;
import ibis.benchmarks.ipl.IplSuite;
import ibis.benchmarks.ipl.MpiSuite;
import ibis.benchmarks.rmi.RmiSuite;
import ibis.benchmarks.serialization.SerializationSuite;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * {@code ibis-bench <suite> [--quick] [--impl NICK] [--out DIR]}: runs a benchmark suite of
 * {@code BENCHMARKS.md}, prints its tables and writes them as a Markdown report
 * {@code <DIR>/<suite>-<date>[-quick].md} (DIR defaults to {@code bench-results}, or to the value of
 * the system property {@code ibis.bench.results}). {@code --impl} (ipl and rmi) sets
 * {@code ibis.implementation} for the suite's Ibis members; default: that property, or tcp.
 */
public final class BenchMain {

    /** The suites that exist so far. */
    public static final List<String> SUITES = List.of("gmi", "ipl", "rmi", "serialization");

    private static final String USAGE = """
            Usage: ibis-bench <suite> [--quick] [--impl NICK] [--out DIR]

            Suites:
              gmi     group method invocation for group sizes 1, 2, 4, 8 (group invocation,
                      personalized invocation, flat and binomial combining, combined invocation)
                      and allreduce/broadcast of 8 B, 8 KB, 1 MB by ibis.gmi.collectives beside
                      MPI.COMM_WORLD.allReduce/bcast of the Open MPI Java bindings in the same
                      processes (the ranks of one mpirun job); without --impl over every
                      installed implementation (tcp, ucx, mpi); then the applications ASP,
                      LUFact, MolDyn, LEQ and QR in GMI style (over each implementation) and in
                      MPI style on 1, 2 and 4 processes, results checked against the sequential
                      programs
              ipl     round-trip latency and 100 KB array throughput of an implementation (tcp by
                      default), beside raw Java blocking sockets and NIO measured in the same run;
                      with --impl ucx also beside UCX's own C benchmark ucx_perftest and the tcp
                      round trip, in the same run; with --impl mpi: 1-byte latency and 100 KB
                      throughput of Ibis over MPI beside a C MPI ping-pong (compiled by the suite)
                      and the Open MPI Java bindings, each a 2-rank mpirun job, over shared
                      memory and the tcp btl
              rmi     null-RMI latency, calls with arrays and objects, callbacks, 100 KB and tree
                      throughput, 1-8 concurrent client JVMs and the applications: the same plain
                      java.rmi programs on the JDK's java.rmi and, rewritten by ibisc --java-rmi,
                      on Ibis RMI in the same run, beside the IPL round trip
              serialization
                      write and read of 100 KB arrays, a 1023-node tree and small objects to and
                      from memory: Ibis (rewritten and run-time serializers) beside JDK
                      serialization, Kryo and Fory in the same run (JMH)
            Options:
              --quick  a short run (ipl, rmi: about two minutes; serialization: about a minute and a half;
                       gmi: two to three minutes per implementation on two cores, and a minute for
                       the applications; the full gmi run: 8 to 25 minutes per implementation)
              --impl   the network implementation of the Ibis members (ipl, rmi): tcp (default), ucx, mpi (ipl);
                       gmi: one of them (default: every installed one)
              --out    directory for the Markdown report (default: bench-results)
            Every process a suite starts gets --enable-native-access=ALL-UNNAMED and, unless the
            environment sets them, UCX_NET_DEVICES=lo and UCX_ERROR_SIGNALS= (empty).
            """;

    private BenchMain() {
    }

    /** Parses the arguments and runs the suite. */
    public static void main(String[] args) throws Exception {
        BenchOptions options;
        try {
            options = BenchOptions.parse(Arrays.asList(args),
                    Path.of(System.getProperty("ibis.bench.results", "bench-results")));
        } catch (IllegalArgumentException e) {
            System.err.println("ibis-bench: " + e.getMessage());
            System.err.print(USAGE);
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.print(USAGE);
            return;
        }
        if (options.implementation() != null) {
            // Every Ibis the suite makes, here and in the JVMs it starts (they copy ibis.* properties).
            System.setProperty(ChildProcesses.IMPLEMENTATION_PROPERTY, options.implementation());
        }
        String command = System.getProperty("ibis.bench.command",
                "java " + BenchMain.class.getName() + " " + String.join(" ", Arrays.asList(args)));
        boolean quick = options.quick();
        Path out = options.out();
        int status = switch (options.suite()) {
            case "serialization" -> new SerializationSuite(quick, out, command).run();
            case "rmi" -> new RmiSuite(quick, out, command).run();
            case "gmi" -> new GmiSuite(quick, out, command, options.implementation())
                    .addSection(new AppsSection()).run();
            default -> "mpi".equals(options.implementation()) ? new MpiSuite(quick, out, command).run()
                    : new IplSuite(quick, out, command).run();
        };
        System.exit(status);
    }
}
