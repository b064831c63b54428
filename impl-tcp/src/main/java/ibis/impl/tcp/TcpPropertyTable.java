package ibis.impl.tcp;

import ibis.ipl.impl.PropertyTable;

import java.util.List;

/** The properties of the TCP implementation (name, default, meaning). */
public final class TcpPropertyTable implements PropertyTable {

    /**
     * Address (host name or IP) the listening socket binds to and that others connect to. Default:
     * the address of the interface that reaches the registry server ({@code ibis.server.address}),
     * the loopback address when the server is local or not set.
     */
    public static final String ADDRESS = "ibis.tcp.address";

    /** Port of the listening socket (0: any free port). */
    public static final String PORT = "ibis.tcp.port";

    /** Socket send and receive buffer size in bytes (0: the operating system's default). */
    public static final String SOCKET_BUFFER_SIZE = "ibis.tcp.socket.buffer.size";

    /** Bytes a connection reads ahead while it waits for the next message. */
    public static final String READ_AHEAD = "ibis.tcp.read.ahead";

    static final List<Entry> ENTRIES = List.of(
            new Entry(ADDRESS, null, "address to listen on and to publish; default: the interface that reaches"
                    + " ibis.server.address, or the loopback address when the server is local or unset"),
            new Entry(PORT, "0", "port to listen on (0: any free port)"),
            new Entry(SOCKET_BUFFER_SIZE, "0", "socket send/receive buffer size in bytes (0: operating system default)"),
            new Entry(READ_AHEAD, "16384", "bytes a connection reads ahead while waiting for the next message"));

    /** Creates the table (used by {@link java.util.ServiceLoader}). */
    public TcpPropertyTable() {
    }

    @Override
    public String subsystem() {
        return "tcp";
    }

    @Override
    public List<Entry> entries() {
        return ENTRIES;
    }
}
