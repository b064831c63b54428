package ibis.benchmarks.gmi.apps;

import ibis.gmi.CombinedInvocation;
import ibis.gmi.Group;
import ibis.gmi.GroupInterface;
import ibis.gmi.GroupMember;
import ibis.gmi.ReturnReply;
import ibis.gmi.SingleInvocation;

import java.util.List;
import java.util.Locale;

/**
 * The GMI entry point: one process of a GMI program, started as
 * {@code java ibis.benchmarks.gmi.apps.GmiAppMain name:n:steps:seed...} in every process of a
 * closed Ibis pool ({@code ibis.server.address}, {@code ibis.pool.name}, {@code ibis.pool.size};
 * {@link AppRuns#gmi} starts them). Runs the applications in order; process 0 prints one line per
 * application, {@code APP <name> gmi <processes> <seconds> <checksum>} (checksum: 16 hex digits).
 */
public final class GmiAppMain {

    private GmiAppMain() {
    }

    /**
     * Runs the applications named by the arguments.
     *
     * @param args {@code name:n:steps:seed} per application
     * @throws Exception when an application fails
     */
    public static void main(String[] args) throws Exception {
        List<AppSpec> specs = AppSpec.parseAll(args);
        try {
            for (AppSpec spec : specs) {
                Stopwatch clock = new Stopwatch();
                long checksum = run(spec, clock);
                clock.stop();
                if (Group.rank() == 0) {
                    System.out.println(line(spec, "gmi", Group.size(), clock.seconds(), checksum));
                    System.out.flush();
                }
            }
        } finally {
            Group.exit();
        }
    }

    /** The result line of an application run. */
    static String line(AppSpec spec, String style, int processes, double seconds, long checksum) {
        return String.format(Locale.ROOT, "APP %s %s %d %.6f %016x", spec.app(), style, processes, seconds, checksum);
    }

    private static long run(AppSpec spec, Stopwatch clock) throws Exception {
        return switch (spec.app()) {
            case "asp" -> Asp.gmi(spec, clock);
            case "lufact" -> LuFact.gmi(spec, clock);
            case "moldyn" -> MolDyn.gmi(spec, clock);
            case "leq" -> Leq.gmi(spec, clock);
            default -> Qr.gmi(spec, clock);
        };
    }

    /**
     * Creates (process 0), joins and looks up an application's group of one member per process,
     * member rank = process rank.
     */
    static <T extends GroupInterface> T group(String name, Class<T> type, GroupMember member) {
        if (Group.rank() == 0) {
            Group.create(name, type, Group.size());
        }
        Group.join(name, member, Group.rank());
        return type.cast(Group.lookup(name));
    }

    /** Configures {@code long total(long)} as an allreduce: a combined invocation with {@link SumCombiner}. */
    static void configureTotal(GroupInterface stub, String app) throws Exception {
        Group.findMethod(stub, "long total(long)").configure(new CombinedInvocation(app + "-total", Group.rank(),
                Group.size(), new SumCombiner(), new SingleInvocation(0)), new ReturnReply(0));
    }
}
