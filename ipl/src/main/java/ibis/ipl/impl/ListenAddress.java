package ibis.ipl.impl;

import ibis.ipl.IbisProperties;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.Properties;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local address a transport listens on, chosen the same way by every implementation that
 * listens on a socket (tcp; ucx for its side channel): the configured address when there is one;
 * else the local address of the interface that reaches the registry server; the loopback address
 * when the server is on this host, not named, or cannot be resolved.
 */
public final class ListenAddress {

    private static final Logger LOG = LoggerFactory.getLogger(ListenAddress.class);

    private ListenAddress() {
    }

    /**
     * Chooses the address.
     *
     * @param configured the implementation's own address property ({@code ibis.tcp.address}, ...),
     *        or null when it is not set
     * @param properties the Ibis's properties ({@code ibis.server.address} is read from them, else
     *        from the system properties)
     */
    public static InetAddress choose(String configured, Properties properties) throws IOException {
        if (configured != null) {
            return InetAddress.getByName(configured);
        }
        String server = properties == null ? null : properties.getProperty(IbisProperties.SERVER_ADDRESS);
        if (server == null) {
            server = System.getProperty(IbisProperties.SERVER_ADDRESS);
        }
        if (server == null || server.isBlank()) {
            return InetAddress.getLoopbackAddress();
        }
        try {
            InetAddress serverAddress = InetAddress.getByName(hostOf(server.trim()));
            if (serverAddress.isLoopbackAddress()) {
                return InetAddress.getLoopbackAddress();
            }
            // "Connecting" a datagram socket sends nothing; it only picks the outgoing interface.
            try (DatagramSocket probe = new DatagramSocket()) {
                probe.connect(serverAddress, 9);
                InetAddress local = probe.getLocalAddress();
                if (local != null && !local.isAnyLocalAddress()) {
                    return local;
                }
            }
        } catch (IOException e) {
            LOG.debug("cannot find the interface towards the registry server {}: {}", server, e.toString());
        }
        return InetAddress.getLoopbackAddress();
    }

    /** The host part of {@code host}, {@code host:port}, {@code [ipv6]:port} or a bare IPv6 literal. */
    public static String hostOf(String address) {
        if (address.startsWith("[")) {
            int end = address.indexOf(']');
            return end > 0 ? address.substring(1, end) : address;
        }
        int colon = address.indexOf(':');
        if (colon >= 0 && colon == address.lastIndexOf(':')) {
            return address.substring(0, colon);
        }
        return address;
    }
}
