package ibis.registry;

import ibis.ipl.IbisProperties;
import ibis.ipl.Location;
import ibis.ipl.impl.PropertyTable;

import java.util.List;
import java.util.Properties;

/**
 * The properties of the registry (client and server side) with their defaults and meaning. Also
 * the {@link PropertyTable} of subsystem {@code "registry"}, so {@code ibis-run --help-properties}
 * lists them.
 */
public final class RegistryProperties implements PropertyTable {

    /** Prefix of the registry's own properties. */
    public static final String PREFIX = "ibis.registry.";

    /** Client: milliseconds between heartbeats sent to the server. */
    public static final String HEARTBEAT_INTERVAL = PREFIX + "heartbeat.interval";
    /** Client (honoured by the server): silence after which the server declares the member dead. */
    public static final String HEARTBEAT_TIMEOUT = PREFIX + "heartbeat.timeout";
    /** Client: how long a join keeps trying to reach the server. */
    public static final String CONNECT_TIMEOUT = PREFIX + "connect.timeout";
    /** Server: largest number of simultaneous client connections. */
    public static final String SERVER_MAX_CONNECTIONS = PREFIX + "server.max.connections";
    /** Server: time a new connection has to complete its join. */
    public static final String SERVER_HANDSHAKE_TIMEOUT = PREFIX + "server.handshake.timeout";
    /** Server: time a suspected member (maybeDead) has to answer a ping. */
    public static final String SERVER_PING_TIMEOUT = PREFIX + "server.ping.timeout";
    /** Server: local address to listen on. */
    public static final String SERVER_BIND = PREFIX + "server.bind";
    /** Server: log every pool event at INFO level. */
    public static final String SERVER_EVENTS = PREFIX + "server.events";

    /** Default of {@link #HEARTBEAT_INTERVAL}. */
    public static final int DEFAULT_HEARTBEAT_INTERVAL = 2000;
    /** Default of {@link #HEARTBEAT_TIMEOUT}. */
    public static final int DEFAULT_HEARTBEAT_TIMEOUT = 10000;
    /** Default of {@link #CONNECT_TIMEOUT}. */
    public static final int DEFAULT_CONNECT_TIMEOUT = 30000;
    /** Default of {@link #SERVER_MAX_CONNECTIONS}. */
    public static final int DEFAULT_MAX_CONNECTIONS = 1024;
    /** Default of {@link #SERVER_HANDSHAKE_TIMEOUT}. */
    public static final int DEFAULT_HANDSHAKE_TIMEOUT = 10000;
    /** Default of {@link #SERVER_PING_TIMEOUT}. */
    public static final int DEFAULT_PING_TIMEOUT = 3000;

    private static final List<Entry> ENTRIES = List.of(
            new Entry(IbisProperties.SERVER_ADDRESS, null,
                    "Address of the registry server: host or host:port (port 8888 when left out); required."),
            new Entry(IbisProperties.POOL_NAME, null,
                    "Name of the pool to join; required. One server serves many pools, keyed by this name."),
            new Entry(IbisProperties.POOL_SIZE, null,
                    "Number of members of a closed-world pool (capability closed.world); required there, "
                            + "ignored otherwise."),
            new Entry(IbisProperties.LOCATION, Location.DEFAULT_LOCATION,
                    "Location of this member, levels separated by '@'; %HOSTNAME% and %DOMAIN% are expanded."),
            new Entry(HEARTBEAT_INTERVAL, Integer.toString(DEFAULT_HEARTBEAT_INTERVAL),
                    "Milliseconds between the heartbeats a member sends to the registry server."),
            new Entry(HEARTBEAT_TIMEOUT, Integer.toString(DEFAULT_HEARTBEAT_TIMEOUT),
                    "Milliseconds of silence after which the server declares a member dead (sent to the "
                            + "server at join; must exceed the heartbeat interval). A member whose connection "
                            + "drops is declared dead at once."),
            new Entry(CONNECT_TIMEOUT, Integer.toString(DEFAULT_CONNECT_TIMEOUT),
                    "Milliseconds a join keeps retrying to reach the registry server before it fails."),
            new Entry(SERVER_MAX_CONNECTIONS, Integer.toString(DEFAULT_MAX_CONNECTIONS),
                    "Server: largest number of simultaneous client connections; more are closed at once."),
            new Entry(SERVER_HANDSHAKE_TIMEOUT, Integer.toString(DEFAULT_HANDSHAKE_TIMEOUT),
                    "Server: milliseconds a new connection has to send its join before it is closed."),
            new Entry(SERVER_PING_TIMEOUT, Integer.toString(DEFAULT_PING_TIMEOUT),
                    "Server: milliseconds a member reported by maybeDead() has to answer a ping before it "
                            + "is declared dead."),
            new Entry(SERVER_BIND, null,
                    "Server: local address to listen on (all interfaces when not set)."),
            new Entry(SERVER_EVENTS, "false",
                    "Server: log every pool event (join, leave, died, election, signal, closed, "
                            + "terminated) at INFO level."));

    /** Creates the table (used by {@link java.util.ServiceLoader}). */
    public RegistryProperties() {
    }

    @Override
    public String subsystem() {
        return "registry";
    }

    @Override
    public List<Entry> entries() {
        return ENTRIES;
    }

    /**
     * Reads an integer property.
     *
     * @throws ibis.ipl.IbisConfigurationException when the value is not an integer in {@code min..max}
     */
    public static int intProperty(Properties properties, String name, int defaultValue, int min, int max) {
        String value = properties.getProperty(name);
        if (value == null || value.isBlank()) {
            return defaultValue;
        }
        int result;
        try {
            result = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new ibis.ipl.IbisConfigurationException("property " + name + " = '" + value
                    + "' is not an integer", e);
        }
        if (result < min || result > max) {
            throw new ibis.ipl.IbisConfigurationException("property " + name + " = " + result
                    + " is outside " + min + ".." + max);
        }
        return result;
    }
}
