package ibis.impl.tcp;

import ibis.io.config.Property;
import ibis.io.config.PropertyTable;

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

    /** {@link #ADDRESS}. */
    public static final Property<String> ADDRESS_PROPERTY = Property.ofText(ADDRESS, null, "address to listen on and"
            + " to publish; default: the interface that reaches ibis.server.address, or the loopback address when"
            + " the server is local or unset");
    /** {@link #PORT}. */
    public static final Property<Integer> PORT_PROPERTY = Property.ofInt(PORT, 0, 0, 65535,
            "port to listen on (0: any free port)");
    /** {@link #SOCKET_BUFFER_SIZE}. */
    public static final Property<Integer> SOCKET_BUFFER_SIZE_PROPERTY = Property.ofInt(SOCKET_BUFFER_SIZE, 0, 0,
            Integer.MAX_VALUE, "socket send/receive buffer size in bytes (0: operating system default)");
    /** {@link #READ_AHEAD}. */
    public static final Property<Integer> READ_AHEAD_PROPERTY = Property.ofInt(READ_AHEAD, 16_384, 16, 1 << 20,
            "bytes a connection reads ahead while waiting for the next message");

    static final List<Property<?>> PROPERTIES = List.of(ADDRESS_PROPERTY, PORT_PROPERTY, SOCKET_BUFFER_SIZE_PROPERTY,
            READ_AHEAD_PROPERTY);

    /** Creates the table (used by {@link java.util.ServiceLoader}). */
    public TcpPropertyTable() {
    }

    @Override
    public String subsystem() {
        return "tcp";
    }

    @Override
    public List<Property<?>> properties() {
        return PROPERTIES;
    }
}
