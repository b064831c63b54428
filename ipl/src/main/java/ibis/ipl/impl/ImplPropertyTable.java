package ibis.ipl.impl;

import ibis.io.config.Property;
import ibis.io.config.PropertyTable;

import java.util.List;

/**
 * The properties of the shared implementation base ({@code ibis.ipl.impl}): connection set-up,
 * receiving and buffering. Every network implementation built on {@link AbstractIbis} honours them.
 * Registered for {@code --help-properties} by the network implementation modules (for example
 * impl-tcp's {@code META-INF/services/ibis.io.config.PropertyTable}).
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
     * On a crowded host (more runnable threads than processors), an explicit receive that polls
     * yields the processor at every this many waits between polls, and pauses at the others. A
     * port property: set in the {@code Properties} given to {@code createReceivePort} it holds for
     * that port only (else the system property, else {@value SpinWait#YIELD_EVERY}). A receiver whose
     * senders need this host's processors to answer (a caller waiting for the replies of several
     * processes on the same host) gains from yielding more often; a receiver of a stream loses.
     */
    public static final String RECEIVE_YIELD_EVERY = "ibis.receive.yield.every";

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

    /** {@link #CONNECT_TIMEOUT}. */
    public static final Property<Long> CONNECT_TIMEOUT_PROPERTY = Property.ofLong(CONNECT_TIMEOUT, 60_000, 0,
            Long.MAX_VALUE, "milliseconds a connect call without time-out waits for the receive port to exist and"
                    + " accept (0: no limit)");
    /** {@link #HANDSHAKE_TIMEOUT}. */
    public static final Property<Long> HANDSHAKE_TIMEOUT_PROPERTY = Property.ofLong(HANDSHAKE_TIMEOUT, 30_000, 0,
            Long.MAX_VALUE,
            "milliseconds a connection handshake may take; a peer that is slower is dropped (0 counts as 1)");
    /** {@link #HANDSHAKE_MAX}. */
    public static final Property<Long> HANDSHAKE_MAX_PROPERTY = Property.ofLong(HANDSHAKE_MAX, 256, 0,
            Integer.MAX_VALUE, "most incoming connection handshakes in progress at once; more connections are"
                    + " closed at once (protects against floods of silent connections; 0 counts as 1)");
    /** {@link #RECEIVE_SPIN_MICROS}. */
    public static final Property<Long> RECEIVE_SPIN_MICROS_PROPERTY = Property.ofLong(RECEIVE_SPIN_MICROS, 50, 0,
            Long.MAX_VALUE, "microseconds an explicit receive() on a port with one sender polls before it blocks"
                    + " (0: block at once)");
    /** {@link #RECEIVE_YIELD_EVERY}. */
    public static final Property<Integer> RECEIVE_YIELD_EVERY_PROPERTY = Property.ofInt(RECEIVE_YIELD_EVERY,
            SpinWait.YIELD_EVERY, 1, Integer.MAX_VALUE, "on a crowded host, an explicit receive that polls yields the"
                    + " processor at every this many waits between polls (also a receive port property)");
    /** {@link #UPCALL_HANDOFF_MICROS}. */
    public static final Property<Long> UPCALL_HANDOFF_MICROS_PROPERTY = Property.ofLong(UPCALL_HANDOFF_MICROS, 500,
            0, Long.MAX_VALUE, "microseconds an upcall may run after finish() before another thread reads its"
                    + " connection on (0: at once)");
    /** {@link #UPCALL_SPIN_MICROS}. */
    public static final Property<Long> UPCALL_SPIN_MICROS_PROPERTY = Property.ofLong(UPCALL_SPIN_MICROS, 50, 0,
            Long.MAX_VALUE, "microseconds an upcall port's connection reader polls for the next message after an"
                    + " upcall before it blocks (0: block at once)");
    /** {@link #IDLE_CHECK_MILLIS}. */
    public static final Property<Long> IDLE_CHECK_MILLIS_PROPERTY = Property.ofLong(IDLE_CHECK_MILLIS, 500, 0,
            Long.MAX_VALUE, "milliseconds between checks of connections nobody reads now (explicit one-sender and"
                    + " poll-upcall ports), to notice disconnects without a receive call (0: never)");
    /** {@link #RECEIVE_CLOSE_TIMEOUT}. */
    public static final Property<Long> RECEIVE_CLOSE_TIMEOUT_PROPERTY = Property.ofLong(RECEIVE_CLOSE_TIMEOUT,
            60_000, 0, Long.MAX_VALUE, "milliseconds ReceivePort.close() waits for its senders to disconnect before"
                    + " it breaks the remaining connections (0: no limit)");
    /** {@link #BUFFER_SIZE}. */
    public static final Property<Integer> BUFFER_SIZE_PROPERTY = Property.ofInt(BUFFER_SIZE, 131_072, 64, 1 << 24,
            "bytes of the block buffer of each send port and each incoming connection (a message up to this size"
                    + " travels as one block: one write on the sender, few reads on the receiver)");
    /** {@link #FIRST_BLOCK_SIZE}. */
    public static final Property<Integer> FIRST_BLOCK_SIZE_PROPERTY = Property.ofInt(FIRST_BLOCK_SIZE, 16_384, 64,
            Integer.MAX_VALUE, "bytes after which the first block of a larger message is sent (at most the buffer"
                    + " size): the receiver reads it while the sender writes the rest");

    private static final List<Property<?>> PROPERTIES = List.of(CONNECT_TIMEOUT_PROPERTY,
            HANDSHAKE_TIMEOUT_PROPERTY, HANDSHAKE_MAX_PROPERTY, RECEIVE_SPIN_MICROS_PROPERTY,
            RECEIVE_YIELD_EVERY_PROPERTY, UPCALL_HANDOFF_MICROS_PROPERTY, UPCALL_SPIN_MICROS_PROPERTY,
            IDLE_CHECK_MILLIS_PROPERTY, RECEIVE_CLOSE_TIMEOUT_PROPERTY, BUFFER_SIZE_PROPERTY,
            FIRST_BLOCK_SIZE_PROPERTY);

    /** Creates the table (used by {@link java.util.ServiceLoader}). */
    public ImplPropertyTable() {
    }

    @Override
    public String subsystem() {
        return "ipl.impl";
    }

    @Override
    public List<Property<?>> properties() {
        return PROPERTIES;
    }
}
