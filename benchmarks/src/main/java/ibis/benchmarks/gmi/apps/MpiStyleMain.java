package ibis.benchmarks.gmi.apps;

import java.util.List;

/**
 * The MPI-style entry point, called by the {@code main} of {@code MpiJavaApps} (a resource of this
 * package, compiled at run time against the Open MPI Java bindings) between {@code MPI.Init} and
 * {@code MPI.Finalize}. Runs the applications in order; rank 0 prints one line per application,
 * {@code APP <name> mpi <ranks> <seconds> <checksum>}.
 */
public final class MpiStyleMain {

    private MpiStyleMain() {
    }

    /**
     * Runs the applications named by the arguments over {@code mp}.
     *
     * @param mp the MPI operations of this rank
     * @param args {@code name:n:steps:seed} per application
     * @throws Exception when an application or MPI fails
     */
    public static void run(MessagePassing mp, String[] args) throws Exception {
        List<AppSpec> specs = AppSpec.parseAll(args);
        for (AppSpec spec : specs) {
            Stopwatch clock = new Stopwatch();
            long checksum = switch (spec.app()) {
                case "asp" -> Asp.mpi(spec, mp, clock);
                case "lufact" -> LuFact.mpi(spec, mp, clock);
                case "moldyn" -> MolDyn.mpi(spec, mp, clock);
                case "leq" -> Leq.mpi(spec, mp, clock);
                default -> Qr.mpi(spec, mp, clock);
            };
            clock.stop();
            if (mp.rank() == 0) {
                System.out.println(GmiAppMain.line(spec, "mpi", mp.size(), clock.seconds(), checksum));
                System.out.flush();
            }
        }
    }

    /**
     * The sequential programs (the reference of the tests; the suites' one-process baseline).
     *
     * @param spec the application
     * @return its checksum
     */
    public static long sequential(AppSpec spec) {
        return switch (spec.app()) {
            case "asp" -> Asp.sequential(spec);
            case "lufact" -> LuFact.sequential(spec);
            case "moldyn" -> MolDyn.sequential(spec);
            case "leq" -> Leq.sequential(spec);
            default -> Qr.sequential(spec);
        };
    }
}
