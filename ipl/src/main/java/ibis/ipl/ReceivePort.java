package ibis.ipl;

import java.io.IOException;

/**
 * The receiving end of unidirectional communication. A receive port is created by
 * {@link Ibis#createReceivePort} with a name unique within its Ibis instance; send ports of the
 * same {@link PortType} connect to it and send it messages ({@link ReadMessage}).
 *
 * <p>A new receive port refuses connections until {@link #enableConnections()} is called, and makes
 * no message upcalls until {@link #enableMessageUpcalls()} is called. A port either delivers its
 * messages to a {@link MessageUpcall} or is read explicitly with {@link #receive()},
 * {@link #receive(long)} and {@link #poll()}, never both; which one is decided when it is created.
 *
 * <p>At most one {@link ReadMessage} of a receive port is alive at a time: a message must be
 * finished ({@link ReadMessage#finish()}) before the next one can be received, and a
 * {@code receive} call blocks meanwhile. Messages from one send port arrive in the order they were
 * sent when the port type has {@link PortType#COMMUNICATION_FIFO}; messages from different send
 * ports may arrive in any order.
 *
 * <p>A connection that breaks shows up as a {@link ConnectionClosedException} when a message from
 * it is being read, as a {@link ReceivePortConnectUpcall#lostConnection} upcall, and in
 * {@link #lostConnections()}.
 *
 * <p>Threading: the methods may be called from any thread.
 */
public interface ReceivePort extends Manageable {

    /**
     * Returns the type of this port.
     *
     * @return the port type
     */
    PortType getPortType();

    /**
     * Waits for the next message and returns it. Needs {@link PortType#RECEIVE_EXPLICIT}. Blocks
     * while the previous message of this port is not finished.
     *
     * @return the message
     * @throws IOException when the port is closed while waiting, or receiving fails
     * @throws IbisConfigurationException when the port delivers its messages by upcalls, or the
     *         port type does not allow explicit receipt
     */
    ReadMessage receive() throws IOException;

    /**
     * Waits at most a given time for the next message and returns it. Needs
     * {@link PortType#RECEIVE_TIMEOUT}.
     *
     * @param timeoutMillis how long to wait at most, in milliseconds (0: no limit)
     * @return the message
     * @throws ReceiveTimedOutException when no message arrived in time
     * @throws IOException when the port is closed while waiting, or receiving fails
     * @throws IbisConfigurationException when the port delivers its messages by upcalls, or the
     *         port type does not allow receipt with a time-out
     */
    ReadMessage receive(long timeoutMillis) throws IOException;

    /**
     * Returns the next message if one has arrived, without waiting. Needs
     * {@link PortType#RECEIVE_POLL}. On a port with {@link PortType#RECEIVE_POLL_UPCALLS} it
     * delivers the waiting message to the upcall instead and returns null.
     *
     * @return the message, or null when there is none
     * @throws IOException when receiving fails
     */
    ReadMessage poll() throws IOException;

    /**
     * Returns the identifier of this port; send ports connect to it with this identifier.
     *
     * @return the identifier
     */
    ReceivePortIdentifier identifier();

    /**
     * Returns the name of this port.
     *
     * @return the name given at creation
     */
    String name();

    /** Starts accepting connections from send ports. */
    void enableConnections();

    /**
     * Stops accepting new connections; existing connections stay. New connection attempts are
     * refused ({@link ConnectionRefusedException}).
     */
    void disableConnections();

    /** Starts (or resumes) delivering messages to the {@link MessageUpcall}. */
    void enableMessageUpcalls();

    /**
     * Stops delivering messages to the upcall; messages are kept until upcalls are enabled again.
     * An upcall that is running may finish.
     */
    void disableMessageUpcalls();

    /**
     * Closes the port: waits until every connected send port has disconnected (so that no message
     * sent before is lost), then frees its resources. A blocked {@code receive} call then fails
     * with an exception. Calling it again has no effect. The wait is bounded by
     * {@code ibis.receiveport.close.timeout} (60 s by default; 0 in that property: no limit), as
     * {@link #close(long)} with that time: connections still there then are broken.
     *
     * @throws IOException when closing fails; the port is closed anyway
     */
    void close() throws IOException;

    /**
     * Closes the port, waiting at most a given time for send ports to disconnect; connections still
     * there after that are broken (their senders see lost connections).
     *
     * @param timeoutMillis how long to wait at most, in milliseconds (0: wait as long as it takes,
     *        negative: do not wait)
     * @throws IOException when closing fails; the port is closed anyway
     */
    void close(long timeoutMillis) throws IOException;

    /**
     * Returns the send ports connected to this port now.
     *
     * @return a new array of the connected send ports
     */
    SendPortIdentifier[] connectedTo();

    /**
     * Returns the send ports whose connection went away since the previous call: they
     * disconnected or closed, or the connection broke. Needs {@link PortType#CONNECTION_DOWNCALLS}.
     *
     * @return a new array of the send ports lost since the previous call
     */
    SendPortIdentifier[] lostConnections();

    /**
     * Returns the send ports that connected since the previous call. Needs
     * {@link PortType#CONNECTION_DOWNCALLS}.
     *
     * @return a new array of the send ports that connected since the previous call
     */
    SendPortIdentifier[] newConnections();
}
