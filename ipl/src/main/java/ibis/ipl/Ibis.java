package ibis.ipl;

import java.io.IOException;
import java.util.Properties;

/**
 * A running Ibis instance: one member of a pool, created by {@link IbisFactory#createIbis}. It
 * gives access to the pool's {@link Registry} and creates the send and receive ports through which
 * it communicates with other members.
 *
 * <p>Ports may only be created with one of the port types given to {@code createIbis}; any other
 * port type gives an {@link IbisConfigurationException}. The methods may be called from any thread.
 * When the program is done it calls {@link #end()}, which leaves the pool.
 */
public interface Ibis extends Manageable {

    /**
     * Ends this instance: leaves the pool (other members see it {@code left}) and releases its
     * resources. Ports still open are closed; a port's open connections are broken, which the peers
     * see as lost connections. Calling it again has no effect.
     *
     * @throws IOException when leaving the pool fails; the instance is ended anyway
     */
    void end() throws IOException;

    /**
     * Returns the registry of the pool this instance is a member of.
     *
     * @return the registry
     */
    Registry registry();

    /**
     * Lets this instance make progress when the program wants upcalls only while it polls (port
     * types with {@link PortType#RECEIVE_POLL_UPCALLS}): delivers the messages that have arrived
     * for such ports, as upcalls in the calling thread. Does not block waiting for messages.
     *
     * @throws IOException when receiving fails
     */
    void poll() throws IOException;

    /**
     * Returns the identifier of this instance within the pool.
     *
     * @return the identifier
     */
    IbisIdentifier identifier();

    /**
     * Returns the version of the implementation, for example {@code "tcp 3.0.0"}.
     *
     * @return the version
     */
    String getVersion();

    /**
     * Returns the properties this instance was created with, after combining all sources (see
     * {@link IbisProperties}).
     *
     * @return a copy of the properties
     */
    Properties properties();

    /**
     * Creates an anonymous send port.
     *
     * @param portType the type of the port; one of the types given when the instance was created
     * @return the new send port, not yet connected
     * @throws IOException when the port cannot be created
     * @throws IbisConfigurationException when the port type was not given to {@code createIbis}
     */
    SendPort createSendPort(PortType portType) throws IOException;

    /**
     * Creates a named send port.
     *
     * @param portType the type of the port; one of the types given when the instance was created
     * @param sendPortName the name of the port (null: a generated name)
     * @return the new send port, not yet connected
     * @throws IOException when the port cannot be created
     * @throws IbisConfigurationException when the port type was not given to {@code createIbis}
     */
    SendPort createSendPort(PortType portType, String sendPortName) throws IOException;

    /**
     * Creates a named send port that reports lost connections to an upcall.
     *
     * @param portType the type of the port; one of the types given when the instance was created
     * @param sendPortName the name of the port (null: a generated name)
     * @param sendPortDisconnectUpcall told about lost connections (null: none); requires
     *        {@link PortType#CONNECTION_UPCALLS}
     * @param properties properties for this port only (may be null)
     * @return the new send port, not yet connected
     * @throws IOException when the port cannot be created
     * @throws IbisConfigurationException when the port type was not given to {@code createIbis},
     *         or an upcall is given for a port type without connection upcalls
     */
    SendPort createSendPort(PortType portType, String sendPortName, SendPortDisconnectUpcall sendPortDisconnectUpcall,
            Properties properties) throws IOException;

    /**
     * Creates a receive port from which messages are received explicitly
     * ({@link ReceivePort#receive()} and relatives). Connections are refused until
     * {@link ReceivePort#enableConnections()} is called.
     *
     * @param portType the type of the port; one of the types given when the instance was created
     * @param receivePortName the name of the port, unique within this instance; null makes an anonymous
     *        port, which gets a generated name that no {@code connect(IbisIdentifier, String)} finds:
     *        senders reach it only through its {@link ReceivePort#identifier()} (for example one sent
     *        to them in a request)
     * @return the new receive port
     * @throws IOException when the port cannot be created, for example because the name is in use
     * @throws IbisConfigurationException when the port type was not given to {@code createIbis}, or the
     *         name has the form reserved for anonymous ports
     */
    ReceivePort createReceivePort(PortType portType, String receivePortName) throws IOException;

    /**
     * Creates a receive port whose messages are delivered to an upcall. Connections are refused
     * until {@link ReceivePort#enableConnections()} is called and upcalls are made only after
     * {@link ReceivePort#enableMessageUpcalls()}.
     *
     * @param portType the type of the port; one of the types given when the instance was created
     * @param receivePortName the name of the port, unique within this instance; null makes an anonymous
     *        port, which gets a generated name that no {@code connect(IbisIdentifier, String)} finds:
     *        senders reach it only through its {@link ReceivePort#identifier()} (for example one sent
     *        to them in a request)
     * @param messageUpcall receives the messages (null: receive explicitly)
     * @return the new receive port
     * @throws IOException when the port cannot be created
     * @throws IbisConfigurationException when the port type was not given to {@code createIbis}, or
     *         does not allow the chosen way of receiving
     */
    ReceivePort createReceivePort(PortType portType, String receivePortName, MessageUpcall messageUpcall)
            throws IOException;

    /**
     * Creates a receive port, receiving explicitly, that asks an upcall about new connections and
     * reports lost ones.
     *
     * @param portType the type of the port; one of the types given when the instance was created
     * @param receivePortName the name of the port, unique within this instance; null makes an anonymous
     *        port, which gets a generated name that no {@code connect(IbisIdentifier, String)} finds:
     *        senders reach it only through its {@link ReceivePort#identifier()} (for example one sent
     *        to them in a request)
     * @param receivePortConnectUpcall told about connections (null: none); requires
     *        {@link PortType#CONNECTION_UPCALLS}
     * @return the new receive port
     * @throws IOException when the port cannot be created
     * @throws IbisConfigurationException when the port type was not given to {@code createIbis}, or
     *         does not allow what was asked
     */
    ReceivePort createReceivePort(PortType portType, String receivePortName,
            ReceivePortConnectUpcall receivePortConnectUpcall) throws IOException;

    /**
     * Creates a receive port with all options.
     *
     * @param portType the type of the port; one of the types given when the instance was created
     * @param receivePortName the name of the port, unique within this instance; null makes an anonymous
     *        port, which gets a generated name that no {@code connect(IbisIdentifier, String)} finds:
     *        senders reach it only through its {@link ReceivePort#identifier()} (for example one sent
     *        to them in a request)
     * @param messageUpcall receives the messages (null: receive explicitly)
     * @param receivePortConnectUpcall told about connections (null: none)
     * @param properties properties for this port only (may be null)
     * @return the new receive port
     * @throws IOException when the port cannot be created
     * @throws IbisConfigurationException when the port type was not given to {@code createIbis}, or
     *         does not allow what was asked
     */
    ReceivePort createReceivePort(PortType portType, String receivePortName, MessageUpcall messageUpcall,
            ReceivePortConnectUpcall receivePortConnectUpcall, Properties properties) throws IOException;
}
