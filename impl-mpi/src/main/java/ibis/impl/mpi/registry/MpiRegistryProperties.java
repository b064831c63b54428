package ibis.impl.mpi.registry;

import ibis.io.config.Property;
import ibis.io.config.PropertyTable;
import ibis.ipl.IbisProperties;
import ibis.ipl.Location;

import java.util.List;

/**
 * The properties of the registry over MPI ({@code ibis.registry.implementation=mpi}), printed by
 * {@code ibis-run --help-properties} as subsystem {@code registry.mpi}.
 */
public final class MpiRegistryProperties implements PropertyTable {

    /** Milliseconds a join waits for every rank of the job to join. */
    public static final String JOIN_TIMEOUT = "ibis.registry.mpi.join.timeout";

    /** Milliseconds rank 0 keeps coordinating, when its process ends, for ranks still in the pool. */
    public static final String LINGER = "ibis.registry.mpi.linger";

    /** {@link #JOIN_TIMEOUT}. */
    public static final Property<Long> JOIN_TIMEOUT_PROPERTY = Property.ofLong(JOIN_TIMEOUT, 300_000, 0,
            Long.MAX_VALUE, "Registry over MPI: milliseconds a join waits until every rank of the job has joined "
                    + "(the pool is the whole job; 0 waits forever).");

    /** {@link #LINGER}. */
    public static final Property<Long> LINGER_PROPERTY = Property.ofLong(LINGER, 60_000, 0, Long.MAX_VALUE,
            "Registry over MPI: milliseconds rank 0, the coordinator, keeps serving the ranks that are still in the "
                    + "pool when its own process ends, before MPI is finalized.");

    /** {@link IbisProperties#POOL_NAME}, as the registry over MPI reads it. */
    static final Property<String> POOL_NAME_PROPERTY = Property.ofTextDescribedDefault(IbisProperties.POOL_NAME,
            "the job's id, else mpi-world", "Registry over MPI: the pool's name; every rank must give the same.");

    /** {@link IbisProperties#POOL_SIZE}, as the registry over MPI reads it. */
    static final Property<Integer> POOL_SIZE_PROPERTY = Property.ofInt(IbisProperties.POOL_SIZE, null, 1,
            Integer.MAX_VALUE, "Registry over MPI: when set, must equal the job's size (mpirun -np).");

    /** {@link IbisProperties#LOCATION}, as the registry over MPI reads it. */
    static final Property<String> LOCATION_PROPERTY = Property.ofText(IbisProperties.LOCATION,
            Location.DEFAULT_LOCATION, "Registry over MPI: location of this member, levels separated by '@'.");

    private static final List<Property<?>> PROPERTIES = List.of(JOIN_TIMEOUT_PROPERTY, LINGER_PROPERTY);

    /** Creates the table (used by {@link java.util.ServiceLoader}). */
    public MpiRegistryProperties() {
    }

    @Override
    public String subsystem() {
        return "registry.mpi";
    }

    @Override
    public List<Property<?>> properties() {
        return PROPERTIES;
    }
}
