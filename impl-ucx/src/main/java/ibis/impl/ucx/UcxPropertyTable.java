package ibis.impl.ucx;

import ibis.io.config.InvalidPropertyException;
import ibis.io.config.Property;
import ibis.io.config.PropertyTable;

import java.util.List;
import java.util.Locale;
import java.util.Properties;

/** The properties of the UCX implementation (name, default, meaning). */
public final class UcxPropertyTable implements PropertyTable {

    /**
     * Address (host name or IP) the side channel (connection set-up and liveness, a TCP socket)
     * listens on and publishes. Default: the interface that reaches the registry server, the
     * loopback address when the server is local or not set.
     */
    public static final String ADDRESS = "ibis.ucx.address";

    /** Largest UCX message a connection sends; a longer write is split into several. */
    public static final String MESSAGE_MAX = "ibis.ucx.message.max";

    /** Bytes a connection may have sent that the receiver has not read yet (credit window). */
    public static final String WINDOW = "ibis.ucx.window";

    /** UCX endpoint error handling: {@code none} or {@code peer}. */
    public static final String ERROR_MODE = "ibis.ucx.error.mode";

    /** Milliseconds closing a connection waits for its last messages to be taken by the peer. */
    public static final String CLOSE_TIMEOUT = "ibis.ucx.close.timeout";

    /** Milliseconds a blocked wait lasts at most before it looks at its deadline, interrupt and peer. */
    public static final String WAIT_SLICE = "ibis.ucx.wait.slice";

    /**
     * Largest UCX message sent eagerly (copied through UCX's buffers) instead of by rendezvous (the
     * receiver reads the sender's memory): {@code inf}, {@code auto} (UCX's choice) or bytes. Sets
     * UCX's {@code RNDV_THRESH}, unless {@code UCX_RNDV_THRESH} is set in the environment.
     */
    public static final String EAGER_MAX = "ibis.ucx.eager.max";

    /** The largest message a receiver accepts, whatever its peer's {@link #MESSAGE_MAX}: 16 MiB. */
    static final int PROTOCOL_MESSAGE_MAX = 16 << 20;
    /** The smallest {@link #WINDOW}: more than the 2 MiB a connection must carry while nobody reads. */
    static final int MIN_WINDOW = 3 << 20;
    /** The largest {@link #WINDOW}. */
    static final int MAX_WINDOW = 1 << 30;

    /** {@link #ADDRESS}. */
    public static final Property<String> ADDRESS_PROPERTY = Property.ofText(ADDRESS, null, "address the side channel"
            + " (a TCP socket for connection set-up and liveness) listens on and publishes; default: the interface"
            + " that reaches ibis.server.address, or the loopback address when the server is local or unset");
    /** {@link #MESSAGE_MAX}. */
    public static final Property<Integer> MESSAGE_MAX_PROPERTY = Property.ofInt(MESSAGE_MAX, 262_144, 4096,
            PROTOCOL_MESSAGE_MAX, "largest UCX message a connection sends, in bytes (longer writes are split; at"
                    + " most a quarter of the window is used)");
    /** {@link #WINDOW}. */
    public static final Property<Integer> WINDOW_PROPERTY = Property.ofInt(WINDOW, 4 << 20, MIN_WINDOW, MAX_WINDOW,
            "bytes a connection may have sent that the receiving application has not read yet; a sender waits"
                    + " for credit beyond that (at least 3 MiB: a connection must carry 2 MiB nobody reads)");
    /** {@link #ERROR_MODE}. */
    public static final Property<String> ERROR_MODE_PROPERTY = Property.ofText(ERROR_MODE, "none", "UCX endpoint"
            + " error handling: none (UCX keeps shared memory; a lost peer is noticed through the side channel,"
            + " but one killed during a large shared-memory copy makes UCX abort this process) or peer (UCX"
            + " reports failed peers too, but UCX 1.13 then uses no shared memory)");
    /** {@link #CLOSE_TIMEOUT}. */
    public static final Property<Long> CLOSE_TIMEOUT_PROPERTY = Property.ofLong(CLOSE_TIMEOUT, 10_000, 0, 600_000,
            "milliseconds closing a connection waits for its last messages to be taken by the peer before it"
                    + " drops them");

    /** {@link #WAIT_SLICE}. */
    public static final Property<Long> WAIT_SLICE_PROPERTY = Property.ofLong(WAIT_SLICE, UcxWorker.SLICE_MILLIS, 1,
            3_600_000, "milliseconds a thread blocked on the UCX worker waits at most before it looks at its"
                    + " deadline, interrupt and the liveness of its peer again (no wake-up waits for it)");

    /** {@link #EAGER_MAX}. */
    public static final Property<String> EAGER_MAX_PROPERTY = Property.ofText(EAGER_MAX, "auto", "largest UCX"
            + " message sent eagerly, copied through UCX's own buffers (the shared-memory FIFO between processes"
            + " of a host), rather than by rendezvous, where the receiver reads the sender's memory (cma on a"
            + " host, RDMA between hosts): auto (UCX's own choice), inf (every message; none is longer than"
            + " ibis.ucx.message.max) or a size in bytes (suffix k, m or g allowed); UCX_RNDV_THRESH in the"
            + " environment takes precedence");

    static final List<Property<?>> PROPERTIES = List.of(ADDRESS_PROPERTY, MESSAGE_MAX_PROPERTY, WINDOW_PROPERTY,
            ERROR_MODE_PROPERTY, CLOSE_TIMEOUT_PROPERTY, WAIT_SLICE_PROPERTY, EAGER_MAX_PROPERTY);

    /** Creates the table (used by {@link java.util.ServiceLoader}). */
    public UcxPropertyTable() {
    }

    /**
     * The endpoint error mode {@link #ERROR_MODE} names: {@link UcxNative#ERROR_MODE_NONE} or
     * {@link UcxNative#ERROR_MODE_PEER}.
     *
     * @throws InvalidPropertyException for any other value
     */
    static int errorMode(Properties properties) {
        String text = ERROR_MODE_PROPERTY.get(properties);
        switch (text.toLowerCase(Locale.ROOT)) {
            case "none":
                return UcxNative.ERROR_MODE_NONE;
            case "peer":
                return UcxNative.ERROR_MODE_PEER;
            default:
                throw new InvalidPropertyException(ERROR_MODE, text, "none or peer", null);
        }
    }

    /**
     * The value of UCX's {@code RNDV_THRESH} that {@link #EAGER_MAX} names: {@code inf}, {@code auto}
     * or a byte count.
     *
     * @throws InvalidPropertyException for anything else
     */
    static String rndvThreshold(Properties properties) {
        String text = EAGER_MAX_PROPERTY.get(properties).trim().toLowerCase(Locale.ROOT);
        if (text.equals("inf") || text.equals("auto")) {
            return text;
        }
        String digits = text.endsWith("b") ? text.substring(0, text.length() - 1) : text;
        int shift = 0;
        if (!digits.isEmpty()) {
            switch (digits.charAt(digits.length() - 1)) {
                case 'k' -> shift = 10;
                case 'm' -> shift = 20;
                case 'g' -> shift = 30;
                default -> shift = 0;
            }
        }
        if (shift > 0) {
            digits = digits.substring(0, digits.length() - 1);
        }
        try {
            long bytes = Long.parseLong(digits);
            if (bytes >= 0 && bytes <= (Long.MAX_VALUE >> shift)) {
                return Long.toString(bytes << shift);
            }
        } catch (NumberFormatException e) {
            // falls through to the error
        }
        throw new InvalidPropertyException(EAGER_MAX, EAGER_MAX_PROPERTY.get(properties),
                "inf, auto or a size in bytes such as 65536 or 64k", null);
    }

    @Override
    public String subsystem() {
        return "ucx";
    }

    @Override
    public List<Property<?>> properties() {
        return PROPERTIES;
    }
}
