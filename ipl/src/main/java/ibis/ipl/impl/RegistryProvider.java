package ibis.ipl.impl;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.RegistryEventHandler;

import java.io.IOException;
import java.util.Properties;

/**
 * Service-provider interface of a registry implementation, found with
 * {@link java.util.ServiceLoader} ({@code META-INF/services/ibis.ipl.impl.RegistryProvider}).
 * The one named by {@code ibis.registry.implementation} is used; when that property is not set,
 * the first provider whose {@link #isDefaultFor} accepts the network implementation and the
 * properties (for example the registry over MPI for {@code mpi} without a server address), else
 * {@code "central"}.
 */
public interface RegistryProvider {

    /** The name users select this registry by, for example {@code "central"}. */
    String name();

    /**
     * Tells whether this registry is the default for an Ibis of the given network implementation
     * when {@code ibis.registry.implementation} is not set. The default: no.
     *
     * @param implementationName nickname of the network implementation, for example {@code "mpi"}
     * @param properties the Ibis's complete properties
     */
    default boolean isDefaultFor(String implementationName, Properties properties) {
        return false;
    }

    /**
     * Joins the pool named in {@code properties} ({@code ibis.pool.name}) and returns the client.
     * Blocks until the registry has assigned the member its identifier.
     *
     * @param capabilities the Ibis capabilities the user asked for (elections, signals, ...)
     * @param handler where events go once {@link ibis.ipl.Registry#enableEvents()} is called; may be null
     * @param properties the Ibis's complete properties
     * @param implementationName nickname of the network implementation (stored in the identifier)
     * @param implementationData the network implementation's contact data (stored in the identifier)
     * @param tag the application tag (may be null)
     * @throws IOException when the registry cannot be reached or refuses the join
     */
    RegistryClient join(IbisCapabilities capabilities, RegistryEventHandler handler, Properties properties,
            String implementationName, byte[] implementationData, byte[] tag) throws IOException;
}
