package ibis.impl.mpi;

import ibis.io.config.Property;
import ibis.io.config.PropertyTable;

import java.util.List;

/** The properties of the MPI implementation (name, default, meaning). */
public final class MpiPropertyTable implements PropertyTable {

    /** Which way to reach MPI: {@code auto}, {@code glue} or {@code bindings}. */
    public static final String BACKEND = "ibis.mpi.backend";

    /** When MPI is finalized: {@code exit} (a shutdown hook) or {@code release} (the last user's release). */
    public static final String FINALIZE = "ibis.mpi.finalize";

    /** Microseconds a waiting thread polls MPI before it parks with growing back-off. */
    public static final String SPIN_MICROS = "ibis.mpi.spin.micros";

    /** Bytes a connection may have sent that the receiving application has not read yet (credit window). */
    public static final String WINDOW = "ibis.mpi.window";

    /** Milliseconds closing a connection waits for its last messages to be taken by MPI. */
    public static final String CLOSE_TIMEOUT = "ibis.mpi.close.timeout";

    /** The smallest {@link #WINDOW}: more than the 2 MiB a connection must carry while nobody reads. */
    static final int MIN_WINDOW = 3 << 20;

    /** {@link #BACKEND}. */
    public static final Property<String> BACKEND_PROPERTY = Property.ofText(BACKEND, "auto", "how this process"
            + " reaches MPI: glue (our JNI glue over the MPI C API; Open MPI or MPICH), bindings (Open MPI's Java"
            + " bindings, when their classes are on the class path) or auto (the glue when its library loads,"
            + " else the bindings)");
    /** {@link #FINALIZE}. */
    public static final Property<String> FINALIZE_PROPERTY = Property.ofText(FINALIZE, "exit", "when MPI is"
            + " finalized, once per process (it cannot be initialized again): exit (a shutdown hook) or release"
            + " (when the last user, an Ibis instance or the registry, released it; MPI is unusable afterwards)");
    /** {@link #SPIN_MICROS}. */
    public static final Property<Long> SPIN_MICROS_PROPERTY = Property.ofLong(SPIN_MICROS, -1, -1, 10_000_000,
            "microseconds a waiting thread polls MPI before it parks with growing back-off (up to 1 ms); -1: 2000,"
                    + " and when more ranks run on the host than it has cores, it yields the processor between polls"
                    + " instead of spinning while the host has more runnable threads than cores (/proc/loadavg)");

    /** {@link #WINDOW}. */
    public static final Property<Integer> WINDOW_PROPERTY = Property.ofInt(WINDOW, 4 << 20, MIN_WINDOW, 1 << 30,
            "bytes a connection may have sent that the receiving application has not read yet; a sender waits"
                    + " for credit beyond that (at least 3 MiB: a connection must carry 2 MiB nobody reads)");
    /** {@link #CLOSE_TIMEOUT}. */
    public static final Property<Long> CLOSE_TIMEOUT_PROPERTY = Property.ofLong(CLOSE_TIMEOUT, 10_000, 0, 600_000,
            "milliseconds closing a connection waits for its last messages to be taken by MPI before it gives"
                    + " up on them");

    static final List<Property<?>> PROPERTIES = List.of(BACKEND_PROPERTY, FINALIZE_PROPERTY, SPIN_MICROS_PROPERTY,
            WINDOW_PROPERTY, CLOSE_TIMEOUT_PROPERTY);

    /** Creates the table (used by {@link java.util.ServiceLoader}). */
    public MpiPropertyTable() {
    }

    @Override
    public String subsystem() {
        return "mpi";
    }

    @Override
    public List<Property<?>> properties() {
        return PROPERTIES;
    }
}
