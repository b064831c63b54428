package ibis.ipl;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The names, defaults and meanings of the properties that configure the IPL itself (which
 * implementation to use, which pool to join, where the registry server is). Implementations and
 * the registry document their own properties in the same way.
 *
 * <p>{@link IbisFactory#createIbis} combines properties from these places; a later one wins:
 * <ol>
 * <li>the built-in defaults ({@link #getHardcodedProperties()});
 * <li>a file {@value #PROPERTIES_FILENAME} on the class path;
 * <li>a file {@value #PROPERTIES_FILENAME} in the working directory;
 * <li>the file named by the property {@value #PROPERTIES_FILE} (looked for in the
 *     {@code Properties} given to {@code createIbis}, the system properties and the files above);
 * <li>the system properties whose name starts with {@value #PREFIX};
 * <li>the {@code Properties} given to {@code createIbis}.
 * </ol>
 * When {@code createIbis} is called with {@code addDefaultConfigProperties = false}, only the first
 * and the last source are used.
 *
 * <p>This class only holds constants and static methods.
 */
public final class IbisProperties {

    /** The name of the properties file looked for on the class path and in the working directory. */
    public static final String PROPERTIES_FILENAME = "ibis.properties";

    /** The prefix of every Ibis property; only system properties with this prefix are used. */
    public static final String PREFIX = "ibis.";

    /**
     * The implementation to use: a starter's nickname (for example {@code tcp}) or the fully
     * qualified class name of its {@link IbisStarter}, optionally followed by {@code :} and a
     * sub-implementation name that is passed on to the starter.
     */
    public static final String IMPLEMENTATION = PREFIX + "implementation";

    /** Older way of naming the implementation; only used when {@link #IMPLEMENTATION} is not set. */
    public static final String STARTER = PREFIX + "starter";

    /** The name of a properties file to read (see the class description for its priority). */
    public static final String PROPERTIES_FILE = PREFIX + "properties.file";

    /** Directories (separated by the platform's path separator) whose jar files hold more Ibis implementations. */
    public static final String IMPLEMENTATION_PATH = PREFIX + "implementation.path";

    /** When {@code true}, the choice of implementation and its reasons are logged at info level rather than debug. */
    public static final String VERBOSE = PREFIX + "verbose";

    /** The name of the pool to join; all members of one run of a program use the same name. */
    public static final String POOL_NAME = PREFIX + "pool.name";

    /** The number of members of the pool; needed for the {@code closed.world} capability. */
    public static final String POOL_SIZE = PREFIX + "pool.size";

    /** The address of the registry server: {@code host} or {@code host:port} (default port 8888). */
    public static final String SERVER_ADDRESS = PREFIX + "server.address";

    /** Accepted for compatibility and ignored: Ibis does not route through hubs. */
    public static final String SERVER_IS_HUB = PREFIX + "server.is.hub";

    /** Accepted for compatibility and ignored: Ibis does not route through hubs. */
    public static final String HUB_ADDRESSES = PREFIX + "hub.addresses";

    /** The name of the registry implementation to use. */
    public static final String REGISTRY_IMPLEMENTATION = PREFIX + "registry.implementation";

    /**
     * The location of this Ibis instance, as levels separated by {@code @}, most specific first;
     * {@code %HOSTNAME%} and {@code %DOMAIN%} are replaced by the local host name and domain.
     */
    public static final String LOCATION = PREFIX + "location";

    /** A colour for this location in visualisation tools; not used by Ibis itself. */
    public static final String LOCATION_COLOR = PREFIX + "location.color";

    /** The default of {@link #REGISTRY_IMPLEMENTATION}. */
    static final String DEFAULT_REGISTRY_IMPLEMENTATION = "central";

    /** The default port of the registry server. */
    static final int DEFAULT_SERVER_PORT = 8888;

    /** Name, default (null when none) and meaning of every IPL property, in documentation order. */
    private static final String[][] TABLE = {
        { IMPLEMENTATION, null, "The Ibis implementation to use: a nickname (for example "
                + IbisFactory.DEFAULT_IMPLEMENTATION + ") or the class name of its starter, optionally followed "
                + "by ':' and a sub-implementation. Unset: the highest ranked implementation that offers "
                + "the required capabilities." },
        { STARTER, null, "Older name for " + IMPLEMENTATION + "; used only when that is not set." },
        { IMPLEMENTATION_PATH, null, "Directories (separated by '" + java.io.File.pathSeparator
                + "') whose *.jar files are searched for more Ibis implementations." },
        { PROPERTIES_FILE, null, "A properties file to read; it overrides " + PROPERTIES_FILENAME
                + " on the class path and in the working directory." },
        { VERBOSE, "false", "When true, log the choice of implementation at info level instead of debug." },
        { POOL_NAME, null, "The name of the pool to join; every member of one run uses the same name." },
        { POOL_SIZE, null, "The number of members of the pool; required with the closed.world capability." },
        { SERVER_ADDRESS, null, "The registry server: host or host:port (default port " + DEFAULT_SERVER_PORT
                + ")." },
        { SERVER_IS_HUB, null, "Accepted for compatibility with older Ibis versions and ignored." },
        { HUB_ADDRESSES, null, "Accepted for compatibility with older Ibis versions and ignored." },
        { REGISTRY_IMPLEMENTATION, DEFAULT_REGISTRY_IMPLEMENTATION, "The registry implementation to use." },
        { LOCATION, Location.DEFAULT_LOCATION, "The location of this Ibis instance: levels separated by '@', "
                + "most specific first; %HOSTNAME% and %DOMAIN% are replaced by the local host name and domain." },
        { LOCATION_COLOR, null, "A colour for this location in visualisation tools; not used by Ibis itself." },
    };

    private IbisProperties() {
    }

    /**
     * Returns the built-in defaults of the IPL properties. Properties without a default (for
     * example {@link #POOL_NAME} and {@link #SERVER_ADDRESS}) are not in it.
     *
     * @return a new Properties object the caller may change
     */
    public static Properties getHardcodedProperties() {
        Properties result = new Properties();
        for (String[] row : TABLE) {
            if (row[1] != null) {
                result.setProperty(row[0], row[1]);
            }
        }
        return result;
    }

    /**
     * Returns what every IPL property means, in documentation order. The defaults are those of
     * {@link #getHardcodedProperties()}.
     *
     * @return an unmodifiable map from property name to its meaning
     */
    public static Map<String, String> getDescriptions() {
        Map<String, String> result = new LinkedHashMap<>();
        for (String[] row : TABLE) {
            result.put(row[0], row[2]);
        }
        return Collections.unmodifiableMap(result);
    }

    /**
     * Returns the properties {@link IbisFactory#createIbis} would use when given no properties: the
     * built-in defaults, overridden by the properties files and the {@code ibis.*} system properties
     * (see the class description).
     *
     * @return a new Properties object the caller may change
     * @throws IbisConfigurationException when the file named by {@link #PROPERTIES_FILE} cannot be read
     */
    public static Properties getDefaultProperties() {
        try {
            return IbisFactory.resolveProperties(null, true);
        } catch (java.io.IOException e) {
            throw new IbisConfigurationException(e.getMessage(), e);
        }
    }
}
