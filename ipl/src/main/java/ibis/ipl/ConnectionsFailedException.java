package ibis.ipl;

import java.util.ArrayList;
import java.util.List;

/**
 * Thrown by the {@code connect} methods of {@link SendPort} that connect to several receive ports
 * at once, when at least one of the connections failed. It holds one
 * {@link ConnectionFailedException} per failed receive port ({@link #getFailures()}) and the receive
 * ports that were connected after all ({@link #getObtainedConnections()}); the send port stays
 * connected to those.
 *
 * <p>The failures are collected while the connections are being set up; the collection methods are
 * synchronized so that an implementation may connect in parallel.
 */
public class ConnectionsFailedException extends IbisIOException {

    private static final long serialVersionUID = 1L;

    /** The failed connection attempts, in the order they were added. */
    private final List<ConnectionFailedException> failures = new ArrayList<>();
    /** The receive ports connected in spite of the failures. */
    private ReceivePortIdentifier[] obtainedConnections = new ReceivePortIdentifier[0];

    /**
     * Creates the exception with a message.
     *
     * @param detailMessage what went wrong
     */
    public ConnectionsFailedException(String detailMessage) {
        super(detailMessage);
    }

    /** Creates the exception without a message. */
    public ConnectionsFailedException() {
        super();
    }

    /**
     * Adds the failure of one connection attempt. It is also recorded as a suppressed exception so
     * that it shows up in stack traces.
     *
     * @param exception why the connection to one receive port failed
     */
    public synchronized void add(ConnectionFailedException exception) {
        if (exception == null) {
            throw new NullPointerException("exception");
        }
        failures.add(exception);
        addSuppressed(exception);
    }

    /**
     * Records the receive ports that were connected in spite of the failures.
     *
     * @param receivePortIdentifiers the connected receive ports (null means none)
     */
    public synchronized void setObtainedConnections(ReceivePortIdentifier[] receivePortIdentifiers) {
        obtainedConnections = receivePortIdentifiers == null
                ? new ReceivePortIdentifier[0] : receivePortIdentifiers.clone();
    }

    /**
     * Returns the receive ports that were connected in spite of the failures.
     *
     * @return a new array, empty when none were connected
     */
    public synchronized ReceivePortIdentifier[] getObtainedConnections() {
        return obtainedConnections.clone();
    }

    /**
     * Returns the failed connection attempts, in the order they were added.
     *
     * @return a new array of the failures
     */
    public synchronized ConnectionFailedException[] getFailures() {
        return failures.toArray(new ConnectionFailedException[0]);
    }

    /** The message, followed by the number of failures and the message of each. */
    @Override
    public synchronized String getMessage() {
        String base = super.getMessage();
        if (failures.isEmpty()) {
            return base;
        }
        StringBuilder b = new StringBuilder(base == null ? "connections failed" : base);
        b.append(" (").append(failures.size()).append(failures.size() == 1 ? " failure" : " failures");
        for (ConnectionFailedException f : failures) {
            b.append("; ");
            String port = f.receivePortName();
            if (port != null) {
                b.append("port '").append(port).append("'");
                if (f.ibisIdentifier() != null) {
                    b.append(" of ").append(f.ibisIdentifier());
                }
                b.append(": ");
            }
            b.append(f.getMessage());
        }
        return b.append(')').toString();
    }
}
