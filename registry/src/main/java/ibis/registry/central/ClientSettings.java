package ibis.registry.central;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.IbisProperties;
import ibis.ipl.impl.HierarchicalLocation;
import ibis.ipl.impl.ImplSettings;
import ibis.registry.RegistryProperties;
import ibis.registry.protocol.ServerAddress;

import java.util.Properties;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The registry client's configuration, read from the Ibis properties and capabilities once, at the join. */
final class ClientSettings {

    private static final Logger LOG = LoggerFactory.getLogger(CentralRegistryClient.class);

    final ServerAddress server;
    final String poolName;
    final int poolSize;
    final boolean closedWorld;
    final boolean elections;
    final boolean signals;
    final boolean termination;
    final boolean membership;
    final HierarchicalLocation location;
    final int heartbeatInterval;
    final int heartbeatTimeout;
    final int connectTimeout;

    ClientSettings(IbisCapabilities capabilities, Properties properties) {
        Properties p = properties == null ? new Properties() : properties;
        String address = ImplSettings.value(RegistryProperties.SERVER_ADDRESS_PROPERTY, p);
        if (address == null) {
            throw new IbisConfigurationException("property " + IbisProperties.SERVER_ADDRESS
                    + " is not set: the central registry needs the address (host or host:port) of a running"
                    + " registry server (bin/ibis-server)");
        }
        try {
            server = ServerAddress.parse(address);
        } catch (IllegalArgumentException e) {
            throw new IbisConfigurationException(
                    "property " + IbisProperties.SERVER_ADDRESS + ": " + e.getMessage(), e);
        }
        String pool = ImplSettings.value(RegistryProperties.POOL_NAME_PROPERTY, p);
        if (pool == null) {
            throw new IbisConfigurationException("property " + IbisProperties.POOL_NAME
                    + " is not set: every member of a pool must use the same pool name");
        }
        poolName = pool;
        closedWorld = has(capabilities, IbisCapabilities.CLOSED_WORLD);
        elections = has(capabilities, IbisCapabilities.ELECTIONS_STRICT)
                || has(capabilities, IbisCapabilities.ELECTIONS_UNRELIABLE);
        signals = has(capabilities, IbisCapabilities.SIGNALS);
        termination = has(capabilities, IbisCapabilities.TERMINATION);
        membership = has(capabilities, IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED)
                || has(capabilities, IbisCapabilities.MEMBERSHIP_UNRELIABLE);
        if (closedWorld) {
            Integer size = ImplSettings.value(RegistryProperties.POOL_SIZE_PROPERTY, p);
            if (size == null) {
                throw new IbisConfigurationException("capability " + IbisCapabilities.CLOSED_WORLD
                        + " needs property " + IbisProperties.POOL_SIZE + " (the number of members)");
            }
            poolSize = size;
        } else {
            poolSize = 0;
        }
        location = HierarchicalLocation.parse(ImplSettings.value(RegistryProperties.LOCATION_PROPERTY, p));
        heartbeatInterval = ImplSettings.value(RegistryProperties.HEARTBEAT_INTERVAL_PROPERTY, p);
        heartbeatTimeout = ImplSettings.value(RegistryProperties.HEARTBEAT_TIMEOUT_PROPERTY, p);
        if (heartbeatTimeout <= heartbeatInterval) {
            throw new IbisConfigurationException(RegistryProperties.HEARTBEAT_TIMEOUT + " (" + heartbeatTimeout
                    + " ms) must be larger than " + RegistryProperties.HEARTBEAT_INTERVAL + " (" + heartbeatInterval
                    + " ms)");
        }
        connectTimeout = ImplSettings.value(RegistryProperties.CONNECT_TIMEOUT_PROPERTY, p);
        if (p.getProperty(IbisProperties.SERVER_IS_HUB) != null
                || p.getProperty(IbisProperties.HUB_ADDRESSES) != null) {
            LOG.debug("{} and {} are ignored: the central registry speaks plain TCP",
                    IbisProperties.SERVER_IS_HUB, IbisProperties.HUB_ADDRESSES);
        }
    }

    private static boolean has(IbisCapabilities capabilities, String capability) {
        return capabilities != null && capabilities.hasCapability(capability);
    }
}
