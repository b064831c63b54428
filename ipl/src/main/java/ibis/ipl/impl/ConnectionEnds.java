package ibis.ipl.impl;

import ibis.io.ByteSink;
import ibis.io.ByteSource;

/**
 * The two ends of one transport connection: the sink to write to and the source to read from.
 * After the handshake only one direction carries data (from the send port to the receive port), but
 * both ends stay open until the connection is finished; the owner closes both.
 *
 * @param sink bytes written here arrive at the peer's source
 * @param source bytes the peer wrote to its sink
 * @param peerDescription a short text naming the peer, for log lines and error messages
 */
public record ConnectionEnds(ByteSink sink, ByteSource source, String peerDescription) {

    /** Closes both ends, ignoring failures (the connection is being thrown away). */
    public void closeQuietly() {
        try {
            sink.close();
        } catch (Exception ignored) {
            // closing a broken connection may fail; nothing more to do
        }
        try {
            source.close();
        } catch (Exception ignored) {
            // as above
        }
    }
}
