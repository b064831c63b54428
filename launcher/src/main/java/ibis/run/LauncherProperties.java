package ibis.run;

import ibis.io.config.Property;
import ibis.io.config.PropertyTable;

import java.util.List;

/**
 * The properties of {@code ibis-run} itself: those it sets for every member, and those that tune the
 * launcher (read from the launcher's own system properties, e.g. through {@code JAVA_OPTS}).
 * Printed by {@code ibis-run --help-properties} as subsystem {@code "run"}.
 */
public final class LauncherProperties implements PropertyTable {

    /** The java executable for the members (default: the one running the launcher). */
    public static final String JAVA = "ibis.run.java";

    /** The mpirun executable of {@code --np N --impl mpi} (default: mpirun.openmpi on the PATH, else mpirun). */
    public static final String MPIRUN = "ibis.run.mpirun";

    /** Milliseconds between SIGTERM and SIGKILL when the launcher stops the remaining members. */
    public static final String STOP_GRACE = "ibis.run.stop.grace";

    /** Default of {@link #STOP_GRACE}. */
    public static final long DEFAULT_STOP_GRACE = 3000;

    /** {@link #STOP_GRACE}. */
    public static final Property<Long> STOP_GRACE_PROPERTY = Property.ofLong(STOP_GRACE, DEFAULT_STOP_GRACE, 0,
            Long.MAX_VALUE, "Launcher: milliseconds the other members get to exit after SIGTERM, when one member"
                    + " failed, before they are killed.");

    private static final List<Property<?>> PROPERTIES = List.of(
            Property.ofTextDescribedDefault(LaunchOptions.POOL_MEMBER, null,
                    "Set by ibis-run for every member: its index in the pool, 0..N-1 (the rank under "
                            + "mpirun/srun). Not read by the library; programs may use it."),
            Property.ofTextDescribedDefault(LaunchOptions.POOL_NAME, "generated",
                    "Set by ibis-run from --pool; a fresh unique name for a local pool when not given."),
            Property.ofTextDescribedDefault(LaunchOptions.POOL_SIZE, null,
                    "Set by ibis-run from --np (or the cluster launcher's size)."),
            Property.ofTextDescribedDefault(LaunchOptions.SERVER_ADDRESS, "embedded server",
                    "Set by ibis-run from --server; for a local pool without --server, the address of "
                            + "the registry server the launcher embeds on a free loopback port (not set "
                            + "for --impl mpi without --server: the registry over MPI needs none)."),
            Property.ofTextDescribedDefault(LaunchOptions.IMPLEMENTATION, null, "Set by ibis-run from --impl."),
            Property.ofTextDescribedDefault(JAVA, "the launcher's java",
                    "Launcher: java executable used to start the members."),
            Property.ofTextDescribedDefault(MPIRUN, "mpirun.openmpi if on the PATH, else mpirun",
                    "Launcher: Open MPI's mpirun, started by --np N --impl mpi."),
            STOP_GRACE_PROPERTY,
            Property.ofTextDescribedDefault("org.slf4j.simpleLogger.defaultLogLevel", "warn (bin scripts)",
                    "Log level of the launcher and, unless given with -D on the command line, of every "
                            + "member (trace, debug, info, warn, error)."));

    /** Creates the table. */
    public LauncherProperties() {
    }

    @Override
    public String subsystem() {
        return "run";
    }

    @Override
    public List<Property<?>> properties() {
        return PROPERTIES;
    }
}
