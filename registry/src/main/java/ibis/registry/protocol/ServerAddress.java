package ibis.registry.protocol;

/**
 * A registry server address as given in {@code ibis.server.address}: {@code host},
 * {@code host:port}, {@code [ipv6]} or {@code [ipv6]:port}; the port defaults to
 * {@link #DEFAULT_PORT}.
 *
 * @param host the host name or literal address (without brackets)
 * @param port the TCP port
 */
public record ServerAddress(String host, int port) {

    /** The port the registry server listens on when none is given. */
    public static final int DEFAULT_PORT = 8888;

    /**
     * Parses an address.
     *
     * @throws IllegalArgumentException when the text is empty, the port is not a number in
     *         1..65535, or brackets do not match
     */
    public static ServerAddress parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty registry server address");
        }
        String s = text.trim();
        String host;
        String port = null;
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("registry server address '" + text + "': missing ']'");
            }
            host = s.substring(1, close);
            String rest = s.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw new IllegalArgumentException("registry server address '" + text
                            + "': expected ':port' after ']'");
                }
                port = rest.substring(1);
            }
        } else {
            int colon = s.lastIndexOf(':');
            if (colon >= 0 && s.indexOf(':') == colon) {
                host = s.substring(0, colon);
                port = s.substring(colon + 1);
            } else {
                host = s; // no colon, or a bare IPv6 literal
            }
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("registry server address '" + text + "' has no host");
        }
        int p = DEFAULT_PORT;
        if (port != null) {
            try {
                p = Integer.parseInt(port);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("registry server address '" + text + "': port '" + port
                        + "' is not a number", e);
            }
            if (p < 1 || p > 65535) {
                throw new IllegalArgumentException("registry server address '" + text + "': port " + p
                        + " outside 1..65535");
            }
        }
        return new ServerAddress(host, p);
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
