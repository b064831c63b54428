package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public final class IbisProperties {
    public static final String PROPERTIES_FILENAME = "ibis.properties";

    public static final String PREFIX = "ibis.";

    public static final String IMPLEMENTATION = PREFIX + "implementation";

    public static final String STARTER = PREFIX + "starter";

    public static final String PROPERTIES_FILE = PREFIX + "properties.file";

    public static final String IMPLEMENTATION_PATH = PREFIX + "implementation.path";

    public static final String VERBOSE = PREFIX + "verbose";

    public static final String POOL_NAME = PREFIX + "pool.name";

    public static final String POOL_SIZE = PREFIX + "pool.size";

    public static final String SERVER_ADDRESS = PREFIX + "server.address";

    public static final String SERVER_IS_HUB = PREFIX + "server.is.hub";

    public static final String HUB_ADDRESSES = PREFIX + "hub.addresses";

    public static final String REGISTRY_IMPLEMENTATION = PREFIX + "registry.implementation";

    public static final String LOCATION = PREFIX + "location";

    public static final String LOCATION_COLOR = PREFIX + "location.color";

    public static Properties getHardcodedProperties() {
        throw new UnsupportedOperationException("not yet");
    }

    public static Map<String, String> getDescriptions() {
        throw new UnsupportedOperationException("not yet");
    }
}
