package ibis.poolInfo;

import ibis.util.TypedProperties;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Properties;

/**
 * Who is in a closed-world run: the pool's size, this member's rank and every member's address. This is the
 * {@code ibis.poolInfo.PoolInfo} of the earlier ibis-poolinfo jar, kept so that programs written against it
 * compile and run unchanged; it asks no server, but reads what the launcher tells every member.
 *
 * <p>
 * <b>Properties</b> (see {@link PoolInfoProperties}), looked up in the given {@link Properties}, which win,
 * then, when asked for, in the system properties:
 * <ul>
 * <li>size: {@value PoolInfoProperties#POOL_SIZE}, else the earlier {@value PoolInfoProperties#TOTAL_HOSTS};</li>
 * <li>rank: {@value PoolInfoProperties#POOL_MEMBER}, else the earlier {@value PoolInfoProperties#HOST_NUMBER};</li>
 * <li>addresses: {@value PoolInfoProperties#HOST_NAMES}, the host of every member in rank order (white space
 * or commas between them; more names than members are ignored), resolved when the object is made.</li>
 * </ul>
 * {@code bin/ibis-run --np N} sets the first two for each of its N members (rank 0..N-1), so a program
 * started that way needs nothing else. <b>Without host names every member is taken to run on this host</b>,
 * and every {@link #getInetAddress(int)} is the loopback address: right for {@code --np}, which starts every
 * member here; a pool spread over several hosts (a cluster launcher) must give
 * {@value PoolInfoProperties#HOST_NAMES}.
 *
 * <p>
 * Left out of the earlier class: {@code getIPAddressSet()} and {@code getIPAddressSet(int)} (they return a
 * SmartSockets type), {@code getCluster(int)} (only this member's cluster is known here), and {@code main}.
 * Its constructor declared {@code throws Exception}; this one throws only unchecked exceptions, which every
 * earlier caller handles already. The rank is never found by matching this host's name in the host list, as
 * the Ibis of 2004/2005 did: it must be given.
 */
public class PoolInfo {

    /** The earlier connection timeout to the pool service in milliseconds; nothing here waits. */
    public static final int CONNECTION_TIMEOUT = 120000;

    private final String poolName;
    private final String cluster;
    private final int size;
    private final int rank;
    private final String[] hostNames;
    private final InetAddress[] addresses;

    /**
     * Reads the pool from {@code properties} and, if {@code addSystemProperties}, the system properties.
     *
     * @param properties the properties, which take precedence over the system properties; may be {@code null}
     * @param addSystemProperties whether to read the system properties too
     * @throws IllegalStateException if the size or the rank is not set (the message says how to set them)
     * @throws IllegalArgumentException if the size, the rank or the host names are malformed, the rank is
     *             outside 0..size-1, there are fewer host names than members, or a host name does not resolve
     */
    public PoolInfo(Properties properties, boolean addSystemProperties) {
        TypedProperties p = new TypedProperties(PoolInfoProperties.getHardcodedProperties());
        if (addSystemProperties) {
            p.addProperties(System.getProperties());
        }
        p.addProperties(properties);

        size = integer(p, PoolInfoProperties.POOL_SIZE, PoolInfoProperties.TOTAL_HOSTS, "size");
        rank = integer(p, PoolInfoProperties.POOL_MEMBER, PoolInfoProperties.HOST_NUMBER, "rank of this member");
        if (size < 1) {
            throw new IllegalArgumentException("the pool size must be at least 1, not " + size);
        }
        if (rank < 0 || rank >= size) {
            throw new IllegalArgumentException(
                    "the rank of this member must be in 0.." + (size - 1) + " (pool size " + size + "), not " + rank);
        }
        poolName = p.getProperty(PoolInfoProperties.POOL_NAME);
        cluster = p.getProperty(PoolInfoProperties.CLUSTER);

        String names = p.getProperty(PoolInfoProperties.HOST_NAMES, "").trim();
        hostNames = new String[size];
        addresses = new InetAddress[size];
        if (names.isEmpty()) {
            InetAddress loopback = InetAddress.getLoopbackAddress();
            Arrays.fill(addresses, loopback);
            Arrays.fill(hostNames, loopback.getHostName());
        } else {
            String[] given = names.split("[\\s,]+");
            if (given.length < size) {
                throw new IllegalArgumentException(PoolInfoProperties.HOST_NAMES + " names " + given.length
                        + " hosts for a pool of " + size + ": \"" + names + "\"");
            }
            for (int i = 0; i < size; i++) {
                hostNames[i] = given[i];
                try {
                    addresses[i] = InetAddress.getByName(given[i]);
                } catch (UnknownHostException e) {
                    throw new IllegalArgumentException(PoolInfoProperties.HOST_NAMES + ": host " + given[i]
                            + " of member " + i + " does not resolve", e);
                }
            }
        }
    }

    private static int integer(TypedProperties p, String name, String earlierName, String what) {
        String key = p.getProperty(name) != null ? name : earlierName;
        if (p.getProperty(key) == null) {
            throw new IllegalStateException("PoolInfo: the " + what + " of the pool is not set: set " + name
                    + " (or the earlier " + earlierName + "); bin/ibis-run --np N sets "
                    + PoolInfoProperties.POOL_SIZE + " and " + PoolInfoProperties.POOL_MEMBER + " for each member");
        }
        try {
            return p.getIntProperty(key);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("PoolInfo: the " + what + " of the pool: " + e.getMessage(), e);
        }
    }

    /**
     * @return the pool's name ({@value PoolInfoProperties#POOL_NAME}), or {@code null} when not set
     */
    public String getPoolName() {
        return poolName;
    }

    /**
     * @return the number of members of the pool
     */
    public int size() {
        return size;
    }

    /**
     * @return this member's rank, 0..{@link #size()}-1
     */
    public int rank() {
        return rank;
    }

    /**
     * @return this member's address: {@code getInetAddress(rank())}
     */
    public InetAddress getInetAddress() {
        return addresses[rank];
    }

    /**
     * @param rank a member's rank, 0..{@link #size()}-1
     * @return that member's address: its host's, or the loopback address without host names
     * @throws ArrayIndexOutOfBoundsException if {@code rank} is outside 0..size-1
     */
    public InetAddress getInetAddress(int rank) {
        return addresses[rank];
    }

    /**
     * @return this member's host name (as given, or the loopback address's name)
     */
    public String hostName() {
        return hostNames[rank];
    }

    /**
     * @param rank a member's rank, 0..{@link #size()}-1
     * @return that member's host name (as given, or the loopback address's name)
     * @throws ArrayIndexOutOfBoundsException if {@code rank} is outside 0..size-1
     */
    public String hostName(int rank) {
        return hostNames[rank];
    }

    /**
     * @return a new array of every member's host name in rank order
     */
    public String[] hostNames() {
        return hostNames.clone();
    }

    /**
     * @return this member's cluster ({@value PoolInfoProperties#CLUSTER}, default {@code "unknown"})
     */
    public String getCluster() {
        return cluster;
    }

    /** The size, the rank, and one line per member with its host and address. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("pool info: size = ").append(size).append("; my rank is ").append(rank)
                .append("; host list:\n");
        for (int i = 0; i < size; i++) {
            b.append(i).append(": host = ").append(hostNames[i]).append(", address = ")
                    .append(addresses[i].getHostAddress()).append('\n');
        }
        return b.toString();
    }
}
