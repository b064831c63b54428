package ibis.ipl.impl;

import java.io.Closeable;
import java.io.IOException;
import java.util.Properties;

/**
 * The network transport of one Ibis instance: the only thing a network implementation (TCP, UCX,
 * MPI) has to write, next to its {@link ibis.ipl.IbisStarter}. It moves bytes; everything above
 * (the connection handshake, ports, messages, upcalls, numbering, statistics) is done by
 * {@link AbstractIbis} over the {@link ibis.io.ByteSink}/{@link ibis.io.ByteSource} pairs the
 * transport provides.
 *
 * <p>Life cycle: {@link AbstractIbis} opens the transport through a {@link Factory} before the
 * Ibis joins the registry (the transport must be able to accept connections from then on, because
 * its {@link #contactData()} is published in the member identifier), and closes it when the Ibis
 * ends.
 *
 * <p>Errors of {@link #connect}: a transport reports that nobody accepts connections at the
 * target with {@link java.net.ConnectException}, that the time ran out with
 * {@link java.net.SocketTimeoutException}, and any other failure with another
 * {@link IOException}; the base turns them into the matching {@link ibis.ipl.ConnectionFailedException}.
 */
public interface Transport extends Closeable {

    /**
     * The contact data of this transport, stored in the member identifier
     * ({@link MemberIdentifier#implementationData()}) so that others can {@link #connect} to it.
     */
    byte[] contactData();

    /**
     * Opens a new connection to the transport of another (or this) member.
     *
     * @param target the member to connect to; its {@link MemberIdentifier#implementationData()}
     *        holds that member's {@link #contactData()}
     * @param timeoutMillis how long setting up the connection may take at most (always positive)
     * @return both ends of the new connection, owned by the caller
     * @throws java.net.ConnectException when nobody accepts connections at the target
     * @throws java.net.SocketTimeoutException when the time ran out
     * @throws IOException on any other failure (for example unusable contact data)
     */
    ConnectionEnds connect(MemberIdentifier target, long timeoutMillis) throws IOException;

    /**
     * A new set in which one thread can wait for data on any of several sources of this
     * transport's accepted connections. A many-to-one receive port with explicit receipt uses one,
     * so that its {@code receive()} caller waits for all connections itself; without it (this
     * default returns null) the port reads each connection on a thread of its own and hands the
     * messages over, which costs a thread wake-up per message.
     *
     * @return the set, or null when the transport does not offer one
     * @throws IOException when the set cannot be made now (the port then falls back to reader threads)
     */
    default SourceWaitSet newSourceWaitSet() throws IOException {
        return null;
    }

    /**
     * Whether a receive port with automatic upcalls should read all its connections with one
     * thread waiting in a {@link #newSourceWaitSet()} rather than with a thread per connection. Worth
     * it where the waits of a process's threads share one engine that only one thread can block in
     * (a UCX worker: a reader per connection costs a second wake-up per message); not where each
     * connection can be waited for on its own (a socket each). Default: false.
     */
    default boolean sharedUpcallReading() {
        return false;
    }

    /**
     * Stops accepting connections and frees the transport's resources. Connections handed out
     * before are closed by their owners. Idempotent.
     */
    @Override
    void close() throws IOException;

    /** Opens the transport of one Ibis instance. */
    @FunctionalInterface
    interface Factory {

        /**
         * Opens the transport and starts accepting connections.
         *
         * @param properties the Ibis's complete properties (the transport reads its own settings)
         * @param handler where every accepted connection is handed to
         * @throws IOException when the transport cannot be opened (for example the port is taken)
         */
        Transport open(Properties properties, IncomingConnectionHandler handler) throws IOException;
    }
}
