package ibis.ipl.impl;

import ibis.io.ByteSink;
import ibis.io.ByteSource;

/**
 * Where a {@link Transport} hands every connection it accepted. Provided by {@link AbstractIbis};
 * it does the connection handshake and then reads the connection for a receive port.
 */
@FunctionalInterface
public interface IncomingConnectionHandler {

    /**
     * Takes over a newly accepted connection. Returns at once (the handshake runs on a pooled
     * thread of the Ibis), so a transport may call it from its accept thread.
     *
     * @param sink the connection's output (used for the handshake reply only)
     * @param source the connection's input
     * @param peerDescription a short text naming the peer, for log lines
     */
    void accept(ByteSink sink, ByteSource source, String peerDescription);
}
