package ibis.io;

import java.io.IOException;

/**
 * A serialization stream as used by a send port's messages: typed data plus strings and (for the
 * object serializations) object graphs. Created by {@link Serialization#createOutput}.
 */
public interface SerializationOutput extends DataOutput {

    /** The serialization's name: "byte", "data", "sun" or "ibis". */
    String serializationName();

    void writeString(String value) throws IOException;

    /**
     * Writes an object graph, keeping identity (shared references, cycles) since the last
     * {@link #reset()}.
     *
     * @throws IOException (for byte and data serialization: always, with a message saying that the
     *         port type lacks object serialization)
     */
    void writeObject(Object value) throws IOException;

    /** Writes an array of objects as a sequence of objects (no length is written). */
    void writeArray(Object[] source, int offset, int length) throws IOException;

    /** Forgets object identities written so far (type information may be kept). */
    void reset() throws IOException;

    /**
     * Called by the port at the end of every message, before the message's final block is sent:
     * pushes any data the serialization itself still buffers down to the {@link DataOutput}. The
     * port then ends the message on the block stream ({@link BlockOutputStream#endMessage()}).
     */
    void endMessage() throws IOException;
}
