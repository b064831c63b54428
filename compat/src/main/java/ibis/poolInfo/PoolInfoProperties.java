package ibis.poolInfo;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The property names {@link PoolInfo} reads: those of the earlier ibis-poolinfo jar ({@link #POOL_SIZE},
 * {@link #POOL_NAME}, {@link #HOST}, {@link #CLUSTER}), the launcher's {@link #POOL_MEMBER}, and those of
 * the Ibis of 2004/2005's {@code ibis.util.PoolInfo} ({@link #HOST_NUMBER}, {@link #TOTAL_HOSTS},
 * {@link #HOST_NAMES}).
 *
 * <p>
 * Left out of the earlier class: the IPL's own defaults in {@link #getHardcodedProperties()} (that method
 * here gives this class's defaults only).
 */
public final class PoolInfoProperties {

    /** The prefix of every Ibis property. */
    public static final String IBIS_PREFIX = "ibis.";

    /** The prefix of the pool properties. */
    public static final String POOL_PREFIX = IBIS_PREFIX + "pool.";

    /** The pool's name (set by {@code ibis-run}). */
    public static final String POOL_NAME = POOL_PREFIX + "name";

    /** The number of members of the pool (set by {@code ibis-run}). */
    public static final String POOL_SIZE = POOL_PREFIX + "size";

    /** This member's index in the pool, 0..size-1 (set by {@code ibis-run}). */
    public static final String POOL_MEMBER = POOL_PREFIX + "member";

    /** The earlier name of this member's index: read when {@link #POOL_MEMBER} is absent. */
    public static final String HOST_NUMBER = POOL_PREFIX + "host_number";

    /** The earlier name of the pool size: read when {@link #POOL_SIZE} is absent. */
    public static final String TOTAL_HOSTS = POOL_PREFIX + "total_hosts";

    /** The host of every member in rank order, separated by white space or commas; optional. */
    public static final String HOST_NAMES = POOL_PREFIX + "host_names";

    /** An identifier of this machine; read by nothing here, kept as a name. */
    public static final String HOST = IBIS_PREFIX + "host";

    /** The cluster of this member (default {@code "unknown"}). */
    public static final String CLUSTER = IBIS_PREFIX + "cluster";

    private static final String[][] TABLE = {
        {POOL_NAME, null, "Name of the pool (set by ibis-run)"},
        {POOL_SIZE, null, "Int: number of members of the pool (set by ibis-run)"},
        {POOL_MEMBER, null, "Int: this member's index, 0..size-1 (set by ibis-run)"},
        {HOST_NUMBER, null, "Int: this member's index, when " + POOL_MEMBER + " is not set (earlier name)"},
        {TOTAL_HOSTS, null, "Int: number of members, when " + POOL_SIZE + " is not set (earlier name)"},
        {HOST_NAMES, null, "Host of every member in rank order (white space or commas); default: all local"},
        {HOST, null, "String identifying this machine (not used)"},
        {CLUSTER, "unknown", "Cluster of this member"},
    };

    private PoolInfoProperties() {
    }

    /**
     * @return a new {@link Properties} with the defaults of this table (only {@link #CLUSTER} has one)
     */
    public static Properties getHardcodedProperties() {
        Properties p = new Properties();
        for (String[] row : TABLE) {
            if (row[1] != null) {
                p.setProperty(row[0], row[1]);
            }
        }
        return p;
    }

    /**
     * @return every property name with its meaning, in table order
     */
    public static Map<String, String> getDescriptions() {
        Map<String, String> d = new LinkedHashMap<>();
        for (String[] row : TABLE) {
            d.put(row[0], row[2]);
        }
        return d;
    }
}
