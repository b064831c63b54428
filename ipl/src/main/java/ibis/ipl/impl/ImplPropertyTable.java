package ibis.ipl.impl;

import ibis.ipl.IbisConfigurationException;

import java.util.List;
import java.util.Properties;

/**
 * The properties of the shared implementation base ({@code ibis.ipl.impl}): connection set-up,
 * receiving and buffering. Every network implementation built on {@link AbstractIbis} honours them.
 * Registered for {@code --help-properties} by the network implementation modules (for example
 * impl-tcp's {@code META-INF/services/ibis.ipl.impl.PropertyTable}).
 */
public final class ImplPropertyTable implements PropertyTable {

    /** Milliseconds a connect call without a time-out keeps trying before it gives up (0: no limit). */
    public static final String CONNECT_TIMEOUT = "ibis.connect.timeout";

    /** Milliseconds the connection handshake may take before the connection is dropped. */
    public static final String HANDSHAKE_TIMEOUT = "ibis.connect.handshake.timeout";

    /** Most connection handshakes in progress at once; further connections are dropped at once. */
    public static final String HANDSHAKE_MAX = "ibis.connect.handshake.max";

    /** Microseconds an explicit receive polls the connection before it blocks. */
    public static final String RECEIVE_SPIN_MICROS = "ibis.receive.spin.micros";

    /**
     * Microseconds an upcall may go on running after it called {@code finish()} before another
     * thread takes over reading its connection (0: hand over at once).
     */
    public static final String UPCALL_HANDOFF_MICROS = "ibis.upcall.handoff.micros";

    /**
     * Microseconds a connection's upcall reader polls for the next message after an upcall before
     * it blocks (0: block at once).
     */
    public static final String UPCALL_SPIN_MICROS = "ibis.upcall.spin.micros";

    /**
     * Milliseconds between checks of connections that nobody reads at the moment (explicit ports
     * with one sender, poll-upcall ports), so that disconnects and lost connections are noticed
     * without a receive call (0: no checks).
     */
    public static final String IDLE_CHECK_MILLIS = "ibis.receive.idle.check.millis";

    /** Milliseconds {@code ReceivePort.close()} waits for its senders to disconnect (0: no limit). */
    public static final String RECEIVE_CLOSE_TIMEOUT = "ibis.receiveport.close.timeout";

    /** Size in bytes of the block buffer of every send port and of every incoming connection. */
    public static final String BUFFER_SIZE = "ibis.message.buffer.size";

    /** Size in bytes of the first block of a message (at most the buffer size). */
    public static final String FIRST_BLOCK_SIZE = "ibis.message.first.block.size";

    private static final List<Entry> ENTRIES = List.of(
            new Entry(CONNECT_TIMEOUT, "60000",
                    "milliseconds a connect call without time-out waits for the receive port to exist and"
                            + " accept (0: no limit)"),
            new Entry(HANDSHAKE_TIMEOUT, "30000",
                    "milliseconds a connection handshake may take; a peer that is slower is dropped"),
            new Entry(HANDSHAKE_MAX, "256",
                    "most incoming connection handshakes in progress at once; more connections are closed at"
                            + " once (protects against floods of silent connections)"),
            new Entry(RECEIVE_SPIN_MICROS, "50",
                    "microseconds an explicit receive() on a port with one sender polls before it blocks"
                            + " (0: block at once)"),
            new Entry(UPCALL_HANDOFF_MICROS, "500",
                    "microseconds an upcall may run after finish() before another thread reads its connection on"
                            + " (sooner when the next message is already buffered; 0: at once)"),
            new Entry(UPCALL_SPIN_MICROS, "50",
                    "microseconds an upcall port's connection reader polls for the next message after an upcall"
                            + " before it blocks (0: block at once)"),
            new Entry(IDLE_CHECK_MILLIS, "500",
                    "milliseconds between checks of connections nobody reads now (explicit one-sender and"
                            + " poll-upcall ports), to notice disconnects without a receive call (0: never)"),
            new Entry(RECEIVE_CLOSE_TIMEOUT, "60000",
                    "milliseconds ReceivePort.close() waits for its senders to disconnect before it breaks"
                            + " the remaining connections (0: no limit)"),
            new Entry(BUFFER_SIZE, "131072",
                    "bytes of the block buffer of each send port and each incoming connection (a message up to"
                            + " this size travels as one block: one write on the sender, few reads on the receiver)"),
            new Entry(FIRST_BLOCK_SIZE, "16384",
                    "bytes after which the first block of a larger message is sent (at most the buffer size): the"
                            + " receiver reads it while the sender writes the rest"));

    /** Creates the table (used by {@link java.util.ServiceLoader}). */
    public ImplPropertyTable() {
    }

    @Override
    public String subsystem() {
        return "ipl.impl";
    }

    @Override
    public List<Entry> entries() {
        return ENTRIES;
    }

    /** The documented default of one of this table's properties. */
    static String defaultOf(List<Entry> entries, String name) {
        for (Entry e : entries) {
            if (e.name().equals(name)) {
                return e.defaultValue();
            }
        }
        throw new IllegalArgumentException("undocumented property " + name);
    }

    /**
     * Reads a numeric property of this table: from {@code properties} (which may hold defaults),
     * else the system properties, else the documented default.
     *
     * @throws IbisConfigurationException when the value is not a non-negative number
     */
    public static long longProperty(Properties properties, String name) {
        return longProperty(properties, name, defaultOf(ENTRIES, name));
    }

    /**
     * Reads a non-negative numeric property with a given default.
     *
     * @throws IbisConfigurationException when the value is not a non-negative number
     */
    public static long longProperty(Properties properties, String name, String defaultValue) {
        String value = properties == null ? null : properties.getProperty(name);
        if (value == null) {
            value = System.getProperty(name, defaultValue);
        }
        try {
            long result = Long.parseLong(value.trim());
            if (result < 0) {
                throw new NumberFormatException("negative");
            }
            return result;
        } catch (NumberFormatException e) {
            throw new IbisConfigurationException("property " + name + " must be a non-negative number, not '"
                    + value + "'", e);
        }
    }
}
