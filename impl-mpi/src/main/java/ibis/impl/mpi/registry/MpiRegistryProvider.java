package ibis.impl.mpi.registry;

import ibis.impl.mpi.MpiProcess;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisProperties;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.ImplSettings;
import ibis.ipl.impl.RegistryClient;
import ibis.ipl.impl.RegistryProvider;

import java.io.IOException;
import java.util.Properties;

/**
 * The {@link RegistryProvider} named {@code "mpi"}: the pool is the MPI job, coordinated by rank 0
 * through MPI messages, with no registry server. Registered in
 * {@code META-INF/services/ibis.ipl.impl.RegistryProvider}.
 *
 * <p>It is the default registry of the {@code mpi} implementation when
 * {@code ibis.registry.implementation} is not set and no {@code ibis.server.address} is given (a
 * server address means the user wants the central registry at that server).
 */
public final class MpiRegistryProvider implements RegistryProvider {

    /** The name this provider is selected by ({@code ibis.registry.implementation}). */
    public static final String NAME = "mpi";

    /** The nickname of the network implementation whose default registry this is. */
    static final String MPI_IMPLEMENTATION = "mpi";

    /** Creates the provider (used by {@link java.util.ServiceLoader}). */
    public MpiRegistryProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    /** True for the {@code mpi} implementation without {@code ibis.server.address}. */
    @Override
    public boolean isDefaultFor(String implementationName, Properties properties) {
        if (!MPI_IMPLEMENTATION.equals(implementationName)) {
            return false;
        }
        String server = properties == null ? null : properties.getProperty(IbisProperties.SERVER_ADDRESS);
        if (server == null) {
            server = System.getProperty(IbisProperties.SERVER_ADDRESS);
        }
        return server == null || server.isBlank();
    }

    /**
     * Joins this rank's member of the pool over MPI; waits until every rank of the job joined.
     *
     * @throws IOException when MPI cannot be used (the message says why), this process joined
     *         already (one member per rank), or the ranks disagree on the pool; an
     *         {@link ibis.ipl.IbisConfigurationException} for {@code malleable}, before this process
     *         joined (it may join without it)
     */
    @Override
    public RegistryClient join(IbisCapabilities capabilities, RegistryEventHandler handler, Properties properties,
            String implementationName, byte[] implementationData, byte[] tag) throws IOException {
        MpiRegistryClient.checkCapabilities(capabilities);
        long linger = ImplSettings.value(MpiRegistryProperties.LINGER_PROPERTY, properties);
        MpiRegistryChannel channel = MpiRegistryChannel.open(properties);
        MpiRegistryClient client;
        try {
            client = MpiRegistryClient.join(channel, capabilities, handler, properties, implementationName,
                    implementationData, tag);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        // At exit, before MPI_Finalize: leave, and on rank 0 keep coordinating for the other ranks.
        MpiProcess.beforeFinalizeAtExit(() -> client.shutdown(linger));
        return client;
    }
}
