package ibis.benchmarks.serialization;

import java.io.IOException;

/**
 * One column of the serialization suite: a serializer set up as its authors recommend for speed,
 * writing one object per message to memory and reading messages back from memory. Each instance
 * keeps its reusable state (buffers, streams, registrations) and is used by one thread.
 */
abstract class Codec {

    /**
     * Whether the peers' reads include the transport's copy of the message into their input
     * buffer, as Ibis's reads (through the block stream's source) and the JDK's (through its input
     * stream) do. Default true; {@code -Dibis.bench.peers.transportCopy=false} measures Kryo and
     * Fory deserializing from a buffer that already holds the message.
     */
    static final boolean PEER_TRANSPORT_COPY = Boolean.parseBoolean(
            System.getProperty("ibis.bench.peers.transportCopy", "true"));

    /** Writes {@code value} as one message; the bytes go to a sink that discards them. */
    abstract void write(Object value) throws IOException;

    /**
     * The bytes of one steady-state message holding {@code value}: a message written after the
     * stream has already carried one (so without one-time stream set-up such as type definitions).
     */
    abstract byte[] message(Object value) throws IOException;

    /** Sets up {@link #read()} to read the steady-state message of {@code value} again and again. */
    abstract void prepareRead(Object value) throws IOException, ClassNotFoundException;

    /** Reads one message written by {@link #prepareRead}'s value and returns its object. */
    abstract Object read() throws IOException, ClassNotFoundException;
}
