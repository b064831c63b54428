package ibis.util;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local machine's IP addresses: the {@code ibis.util.IPUtils} of the earlier Ibis, kept so that programs
 * written against it compile and run unchanged.
 *
 * <p>
 * <b>The local host address</b> is, as the earlier Ibis documented, the machine's "most public" address:
 * <ol>
 * <li>the address named by the system property {@value #ADDRESS_PROPERTY}, if set (a literal address or a
 * host name);</li>
 * <li>otherwise the first of {@link #getLocalHostAddresses()}: the IPv4 addresses of the network
 * interfaces, global before site-local before link-local, the loopback address only when there is no other,
 * and within a class the lowest address first.</li>
 * </ol>
 * So on a machine with a network it is not the loopback address. Ibis itself does not use this class: the
 * launcher keeps a local pool on loopback ({@code ibis.pool.*} and {@code ibis.server.address}), and
 * {@link ibis.poolInfo.PoolInfo} names loopback for every member of a local pool.
 *
 * <p>
 * Left out of the earlier class: nothing of IPL 2.x's API. Kept from the Ibis of 2004/2005 as well: the
 * predicates ({@link #isLoopbackAddress}, ...), {@link #getAlternateLocalHostAddress()} and its property
 * {@value #ALTERNATE_ADDRESS_PROPERTY}. Unlike those, the predicates here accept IPv6 addresses too (they
 * are {@link InetAddress}'s own), and nothing is printed.
 */
public final class IPUtils {

    /** System property: the address {@link #getLocalHostAddress()} returns, overriding detection. */
    public static final String ADDRESS_PROPERTY = "ibis.util.ip.address";

    /** System property: the address {@link #getAlternateLocalHostAddress()} returns. */
    public static final String ALTERNATE_ADDRESS_PROPERTY = "ibis.util.ip.alt-address";

    private static final Logger LOG = LoggerFactory.getLogger(IPUtils.class);

    /** The detected, sorted addresses; found once (interfaces rarely change while a program runs). */
    private static List<InetAddress> detected;

    private IPUtils() {
    }

    /**
     * The local host address (see the class comment).
     *
     * @return the most public address of this machine, or the one {@value #ADDRESS_PROPERTY} names
     * @throws UnknownHostException if {@value #ADDRESS_PROPERTY} names an unknown host, or the machine has no
     *             address at all
     */
    public static InetAddress getLocalHostAddress() throws UnknownHostException {
        String chosen = System.getProperty(ADDRESS_PROPERTY);
        if (chosen != null && !chosen.isBlank()) {
            return byName(chosen.trim(), ADDRESS_PROPERTY);
        }
        return getLocalHostAddresses()[0];
    }

    /**
     * The address named by {@value #ALTERNATE_ADDRESS_PROPERTY}, else {@link #getLocalHostAddress()}.
     *
     * @return the alternate local address
     * @throws UnknownHostException if the property names an unknown host, or as {@link #getLocalHostAddress()}
     */
    public static InetAddress getAlternateLocalHostAddress() throws UnknownHostException {
        String chosen = System.getProperty(ALTERNATE_ADDRESS_PROPERTY);
        if (chosen != null && !chosen.isBlank()) {
            return byName(chosen.trim(), ALTERNATE_ADDRESS_PROPERTY);
        }
        return getLocalHostAddress();
    }

    /**
     * This machine's IPv4 addresses, most public first: global, site-local, link-local; the loopback
     * address only when there is no other. Without any IPv4 address, the loopback addresses of the
     * interfaces (IPv6 included).
     *
     * @return a new, non-empty array
     * @throws UnknownHostException if the machine has no address at all
     */
    public static synchronized InetAddress[] getLocalHostAddresses() throws UnknownHostException {
        if (detected == null) {
            List<InetAddress> all = interfaceAddresses();
            List<InetAddress> sorted = mostPublicFirst(all);
            if (sorted.isEmpty()) {
                throw new UnknownHostException("no IP address found on any network interface of this machine");
            }
            LOG.debug("local addresses, most public first: {}", sorted);
            detected = sorted;
        }
        return detected.toArray(new InetAddress[0]);
    }

    /**
     * @param address an address
     * @return whether it is a loopback address (127.0.0.0/8, ::1)
     */
    public static boolean isLoopbackAddress(InetAddress address) {
        return address.isLoopbackAddress();
    }

    /**
     * @param address an address
     * @return whether it is a link-local address (169.254.0.0/16, fe80::/10)
     */
    public static boolean isLinkLocalAddress(InetAddress address) {
        return address.isLinkLocalAddress();
    }

    /**
     * @param address an address
     * @return whether it is a site-local (private) address (10/8, 172.16/12, 192.168/16, fec0::/10)
     */
    public static boolean isSiteLocalAddress(InetAddress address) {
        return address.isSiteLocalAddress();
    }

    /**
     * @param address an address
     * @return whether it is none of loopback, link-local and site-local
     */
    public static boolean isExternalAddress(InetAddress address) {
        return !address.isLoopbackAddress() && !address.isLinkLocalAddress() && !address.isSiteLocalAddress();
    }

    /**
     * The rule of {@link #getLocalHostAddresses()} applied to {@code candidates}: IPv4 only (unless there is
     * none: then the loopback addresses of any family), most public first, loopback dropped when anything
     * else remains.
     */
    static List<InetAddress> mostPublicFirst(List<InetAddress> candidates) {
        List<InetAddress> chosen = new ArrayList<>();
        for (InetAddress a : candidates) {
            if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
                chosen.add(a);
            }
        }
        if (chosen.isEmpty()) {
            for (InetAddress a : candidates) {
                if (a instanceof Inet4Address && a.isLoopbackAddress()) {
                    chosen.add(a);
                }
            }
        }
        if (chosen.isEmpty()) {
            for (InetAddress a : candidates) {
                if (a.isLoopbackAddress()) {
                    chosen.add(a);
                }
            }
        }
        chosen.sort(Comparator.comparingInt(IPUtils::publicity).thenComparing(IPUtils::compareBytes));
        return chosen;
    }

    /** 0 for global, 1 site-local, 2 link-local, 3 loopback: the order of preference. */
    private static int publicity(InetAddress a) {
        if (a.isLoopbackAddress()) {
            return 3;
        }
        if (a.isLinkLocalAddress()) {
            return 2;
        }
        return a.isSiteLocalAddress() ? 1 : 0;
    }

    /** Shorter (IPv4) first, then by unsigned bytes. */
    private static int compareBytes(InetAddress a, InetAddress b) {
        byte[] x = a.getAddress();
        byte[] y = b.getAddress();
        if (x.length != y.length) {
            return Integer.compare(x.length, y.length);
        }
        for (int i = 0; i < x.length; i++) {
            int c = Integer.compare(x[i] & 0xff, y[i] & 0xff);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static List<InetAddress> interfaceAddresses() {
        List<InetAddress> all = new ArrayList<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                all.addAll(Collections.list(nic.getInetAddresses()));
            }
        } catch (SocketException e) {
            LOG.warn("cannot list the network interfaces; using the loopback address", e);
        }
        if (all.isEmpty()) {
            all.add(InetAddress.getLoopbackAddress());
        }
        return all;
    }

    private static InetAddress byName(String host, String property) throws UnknownHostException {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            UnknownHostException named = new UnknownHostException(
                    "system property " + property + " names an unknown host: " + host);
            named.initCause(e);
            throw named;
        }
    }
}
