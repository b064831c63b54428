package ibis.registry.central;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.RegistryClient;
import ibis.ipl.impl.RegistryProvider;

import java.io.IOException;
import java.util.Properties;

/**
 * The {@link RegistryProvider} named {@code "central"}: members talk to one
 * {@link ibis.registry.server.CentralRegistryServer} whose address is {@code ibis.server.address}.
 * Registered in {@code META-INF/services/ibis.ipl.impl.RegistryProvider}.
 */
public final class CentralRegistryProvider implements RegistryProvider {

    /** The name this provider is selected by ({@code ibis.registry.implementation}). */
    public static final String NAME = "central";

    /** Creates the provider (used by {@link java.util.ServiceLoader}). */
    public CentralRegistryProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RegistryClient join(IbisCapabilities capabilities, RegistryEventHandler handler, Properties properties,
            String implementationName, byte[] implementationData, byte[] tag) throws IOException {
        return CentralRegistryClient.join(capabilities, handler, properties, implementationName, implementationData,
                tag);
    }
}
