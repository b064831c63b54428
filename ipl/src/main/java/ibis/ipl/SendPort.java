package ibis.ipl;

import java.io.IOException;
import java.util.Map;

/**
 * The sending end of unidirectional communication. A send port is created by
 * {@link Ibis#createSendPort}, connects to one or more receive ports of the same {@link PortType},
 * and sends messages ({@link WriteMessage}) to all receive ports it is connected to at once.
 *
 * <p>Connections: a send port connects only to receive ports of an equal port type (otherwise
 * {@link PortMismatchException}, naming the difference) that have enabled connections. How many
 * depends on the cardinality of the port type: one for {@link PortType#CONNECTION_ONE_TO_ONE} and
 * {@link PortType#CONNECTION_MANY_TO_ONE}, any number for {@link PortType#CONNECTION_ONE_TO_MANY}
 * and {@link PortType#CONNECTION_MANY_TO_MANY} (multicast). Connections are set up and broken
 * only between messages; a connect or disconnect call waits until the current message is finished.
 *
 * <p>Messages: at most one {@link WriteMessage} of a send port is alive at a time;
 * {@link #newMessage()} blocks until the previous one is finished. On a multicast port a failure to
 * deliver to one receiver does not stop delivery to the others; it is reported when the message is
 * finished, and that connection is dropped (see {@link #lostConnections()}).
 *
 * <p>Threading: the methods may be called from any thread; a message is written by one thread at a
 * time.
 */
public interface SendPort extends Manageable {

    /**
     * Returns the type of this port.
     *
     * @return the port type
     */
    PortType getPortType();

    /**
     * Starts a new message to all connected receive ports. Blocks while the previous message of
     * this port is not finished.
     *
     * @return the new message
     * @throws IOException when the port is closed or the message cannot be started
     */
    WriteMessage newMessage() throws IOException;

    /**
     * Returns the identifier of this port.
     *
     * @return the identifier
     */
    SendPortIdentifier identifier();

    /**
     * Returns the name of this port.
     *
     * @return the name given at creation, or the generated one
     */
    String name();

    /**
     * Connects to a receive port, waiting as long as it takes within {@code ibis.connect.timeout}
     * (60 s by default; 0 in that property: no limit), a bound against a port that never comes.
     *
     * @param receiver the receive port
     * @throws ConnectionFailedException when the connection cannot be made; a subclass says why
     *         (refused, port type mismatch, already connected, ...)
     */
    void connect(ReceivePortIdentifier receiver) throws ConnectionFailedException;

    /**
     * Connects to a receive port, giving up after a time.
     *
     * @param receiver the receive port
     * @param timeoutMillis how long to try at most, in milliseconds (0: as without a time, within
     *        {@code ibis.connect.timeout})
     * @param fillTimeout when true, keep retrying a refused connection (for example because the
     *        receiver has not enabled connections yet) until the time is up; when false, give up at
     *        the first refusal. A port that does not exist yet is waited for either way, until the
     *        time is up. A no from the receiver's {@link ReceivePortConnectUpcall} is final either
     *        way: {@link ConnectionRefusedException} at once
     * @throws ConnectionTimedOutException when the time is up
     * @throws ConnectionFailedException when the connection cannot be made for another reason
     */
    void connect(ReceivePortIdentifier receiver, long timeoutMillis, boolean fillTimeout)
            throws ConnectionFailedException;

    /**
     * Connects to the receive port with a given name in a given Ibis instance, waiting as long as
     * it takes within {@code ibis.connect.timeout} (60 s by default; 0 in that property: no limit).
     *
     * @param ibisIdentifier the Ibis instance of the receive port
     * @param receivePortName the name of the receive port
     * @return the identifier of the receive port connected to
     * @throws ConnectionFailedException when the connection cannot be made, also at once for the
     *         generated name of an anonymous receive port (those are reached only through their
     *         {@link ReceivePortIdentifier})
     */
    ReceivePortIdentifier connect(IbisIdentifier ibisIdentifier, String receivePortName)
            throws ConnectionFailedException;

    /**
     * Connects to the receive port with a given name in a given Ibis instance, giving up after a
     * time.
     *
     * @param ibisIdentifier the Ibis instance of the receive port
     * @param receivePortName the name of the receive port
     * @param timeoutMillis how long to try at most, in milliseconds (0: as without a time, within
     *        {@code ibis.connect.timeout})
     * @param fillTimeout when true, keep retrying while the port refuses, until the time is up;
     *        when false, give up at the first refusal. A port that does not exist yet is waited for
     *        either way, until the time is up (a no from its {@link ReceivePortConnectUpcall} is
     *        final)
     * @return the identifier of the receive port connected to
     * @throws ConnectionTimedOutException when the time is up
     * @throws ConnectionFailedException when the connection cannot be made for another reason
     */
    ReceivePortIdentifier connect(IbisIdentifier ibisIdentifier, String receivePortName, long timeoutMillis,
            boolean fillTimeout) throws ConnectionFailedException;

    /**
     * Connects to several receive ports (the port type must allow it), waiting as long as it takes
     * within {@code ibis.connect.timeout} (60 s by default; 0 in that property: no limit).
     *
     * @param receivePortIdentifiers the receive ports
     * @throws ConnectionsFailedException when some connections failed; it lists them and the
     *         connections that were made, which stay
     */
    void connect(ibis.ipl.ReceivePortIdentifier[] receivePortIdentifiers) throws ConnectionsFailedException;

    /**
     * Connects to several receive ports, giving up after a time.
     *
     * @param receivePortIdentifiers the receive ports
     * @param timeoutMillis how long to try at most for all of them, in milliseconds (0: as without a
     *        time, within {@code ibis.connect.timeout})
     * @param fillTimeout when true, keep retrying refused connections until the time is up
     * @throws ConnectionsFailedException when some connections failed; it lists them and the
     *         connections that were made, which stay
     */
    void connect(ibis.ipl.ReceivePortIdentifier[] receivePortIdentifiers, long timeoutMillis, boolean fillTimeout)
            throws ConnectionsFailedException;

    /**
     * Connects to several receive ports given by Ibis instance and port name, waiting as long as it
     * takes within {@code ibis.connect.timeout} (60 s by default; 0 in that property: no limit).
     *
     * @param ports the receive port name for every Ibis instance
     * @return the identifiers of the receive ports connected to
     * @throws ConnectionsFailedException when some connections failed
     */
    ibis.ipl.ReceivePortIdentifier[] connect(Map<ibis.ipl.IbisIdentifier, String> ports)
            throws ConnectionsFailedException;

    /**
     * Connects to several receive ports given by Ibis instance and port name, giving up after a time.
     *
     * @param ports the receive port name for every Ibis instance
     * @param timeoutMillis how long to try at most for all of them, in milliseconds (0: as without a
     *        time, within {@code ibis.connect.timeout})
     * @param fillTimeout when true, keep retrying refused connections until the time is up
     * @return the identifiers of the receive ports connected to
     * @throws ConnectionsFailedException when some connections failed
     */
    ibis.ipl.ReceivePortIdentifier[] connect(Map<ibis.ipl.IbisIdentifier, String> ports, long timeoutMillis,
            boolean fillTimeout) throws ConnectionsFailedException;

    /**
     * Disconnects from a receive port; the receiver sees a regular (not lost) disconnect after the
     * messages already sent. Waits until the current message, if any, is finished.
     *
     * @param receiver the receive port
     * @throws IOException when this port is not connected to it, or disconnecting fails
     */
    void disconnect(ReceivePortIdentifier receiver) throws IOException;

    /**
     * Disconnects from the receive port with a given name in a given Ibis instance.
     *
     * @param ibisIdentifier the Ibis instance of the receive port
     * @param receivePortName the name of the receive port
     * @throws IOException when this port is not connected to it, or disconnecting fails
     */
    void disconnect(IbisIdentifier ibisIdentifier, String receivePortName) throws IOException;

    /**
     * Closes the port: disconnects from all receive ports and frees its resources. Waits until the
     * current message, if any, is finished. Calling it again has no effect.
     *
     * @throws IOException when disconnecting fails; the port is closed anyway
     */
    void close() throws IOException;

    /**
     * Returns the receive ports this port is connected to now.
     *
     * @return a new array of the connected receive ports
     */
    ReceivePortIdentifier[] connectedTo();

    /**
     * Returns the receive ports whose connection was lost (not disconnected by this port) since the
     * previous call. Needs {@link PortType#CONNECTION_DOWNCALLS}.
     *
     * @return a new array of the receive ports lost since the previous call
     */
    ReceivePortIdentifier[] lostConnections();
}
