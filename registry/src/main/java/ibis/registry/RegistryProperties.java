package ibis.registry;

import ibis.io.config.Property;
import ibis.io.config.PropertyTable;
import ibis.ipl.IbisProperties;
import ibis.ipl.Location;

import java.util.List;

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

    /** {@link IbisProperties#SERVER_ADDRESS}. */
    public static final Property<String> SERVER_ADDRESS_PROPERTY = Property.ofText(IbisProperties.SERVER_ADDRESS, null,
            "Address of the registry server: host or host:port (port 8888 when left out); required.");
    /** {@link IbisProperties#POOL_NAME}. */
    public static final Property<String> POOL_NAME_PROPERTY = Property.ofText(IbisProperties.POOL_NAME, null,
            "Name of the pool to join; required. One server serves many pools, keyed by this name.");
    /** {@link IbisProperties#POOL_SIZE}. */
    public static final Property<Integer> POOL_SIZE_PROPERTY = Property.ofInt(IbisProperties.POOL_SIZE, null, 1,
            Integer.MAX_VALUE, "Number of members of a closed-world pool (capability closed.world); required there, "
                    + "ignored otherwise.");
    /** {@link IbisProperties#LOCATION}. */
    public static final Property<String> LOCATION_PROPERTY = Property.ofText(IbisProperties.LOCATION,
            Location.DEFAULT_LOCATION,
            "Location of this member, levels separated by '@'; %HOSTNAME% and %DOMAIN% are expanded.");
    /** {@link #HEARTBEAT_INTERVAL}. */
    public static final Property<Integer> HEARTBEAT_INTERVAL_PROPERTY = Property.ofInt(HEARTBEAT_INTERVAL,
            DEFAULT_HEARTBEAT_INTERVAL, 1, Integer.MAX_VALUE,
            "Milliseconds between the heartbeats a member sends to the registry server.");
    /** {@link #HEARTBEAT_TIMEOUT}. */
    public static final Property<Integer> HEARTBEAT_TIMEOUT_PROPERTY = Property.ofInt(HEARTBEAT_TIMEOUT,
            DEFAULT_HEARTBEAT_TIMEOUT, 2, Integer.MAX_VALUE,
            "Milliseconds of silence after which the server declares a member dead (sent to the "
                    + "server at join; must exceed the heartbeat interval). A member whose connection "
                    + "drops is declared dead at once.");
    /** {@link #CONNECT_TIMEOUT}. */
    public static final Property<Integer> CONNECT_TIMEOUT_PROPERTY = Property.ofInt(CONNECT_TIMEOUT,
            DEFAULT_CONNECT_TIMEOUT, 1, Integer.MAX_VALUE,
            "Milliseconds a join keeps retrying to reach the registry server before it fails.");
    /** {@link #SERVER_MAX_CONNECTIONS}. */
    public static final Property<Integer> SERVER_MAX_CONNECTIONS_PROPERTY = Property.ofInt(SERVER_MAX_CONNECTIONS,
            DEFAULT_MAX_CONNECTIONS, 1, 1 << 20,
            "Server: largest number of simultaneous client connections; more are closed at once.");
    /** {@link #SERVER_HANDSHAKE_TIMEOUT}. */
    public static final Property<Integer> SERVER_HANDSHAKE_TIMEOUT_PROPERTY = Property.ofInt(SERVER_HANDSHAKE_TIMEOUT,
            DEFAULT_HANDSHAKE_TIMEOUT, 1, Integer.MAX_VALUE,
            "Server: milliseconds a new connection has to send its join before it is closed.");
    /** {@link #SERVER_PING_TIMEOUT}. */
    public static final Property<Integer> SERVER_PING_TIMEOUT_PROPERTY = Property.ofInt(SERVER_PING_TIMEOUT,
            DEFAULT_PING_TIMEOUT, 1, Integer.MAX_VALUE,
            "Server: milliseconds a member reported by maybeDead() has to answer a ping before it "
                    + "is declared dead.");
    /** {@link #SERVER_BIND}. */
    public static final Property<String> SERVER_BIND_PROPERTY = Property.ofText(SERVER_BIND, null,
            "Server: local address to listen on (all interfaces when not set).");
    /** {@link #SERVER_EVENTS}. */
    public static final Property<Boolean> SERVER_EVENTS_PROPERTY = Property.ofBoolean(SERVER_EVENTS, false,
            "Server: log every pool event (join, leave, died, election, signal, closed, "
                    + "terminated) at INFO level.");

    private static final List<Property<?>> PROPERTIES = List.of(SERVER_ADDRESS_PROPERTY, POOL_NAME_PROPERTY,
            POOL_SIZE_PROPERTY, LOCATION_PROPERTY, HEARTBEAT_INTERVAL_PROPERTY, HEARTBEAT_TIMEOUT_PROPERTY,
            CONNECT_TIMEOUT_PROPERTY, SERVER_MAX_CONNECTIONS_PROPERTY, SERVER_HANDSHAKE_TIMEOUT_PROPERTY,
            SERVER_PING_TIMEOUT_PROPERTY, SERVER_BIND_PROPERTY, SERVER_EVENTS_PROPERTY);

    /** Creates the table (used by {@link java.util.ServiceLoader}). */
    public RegistryProperties() {
    }

    @Override
    public String subsystem() {
        return "registry";
    }

    @Override
    public List<Property<?>> properties() {
        return PROPERTIES;
    }
}
