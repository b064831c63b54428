package ibis.io;

import java.io.IOException;

/** The read side of a {@link SerializationOutput}. Created by {@link Serialization#createInput}. */
public interface SerializationInput extends DataInput {

    String serializationName();

    String readString() throws IOException;

    Object readObject() throws IOException, ClassNotFoundException;

    void readArray(Object[] destination, int offset, int length) throws IOException, ClassNotFoundException;

    /**
     * Called by the port when the current message is finished (whether or not it was read
     * completely), so that the next message starts in a clean state. Must be called before the
     * block stream skips to the next message ({@link BlockInputStream#endMessage()}): an object
     * serialization consumes here what the application left unread (it may need to see unread
     * objects and resets to stay in step with the writer).
     */
    void endMessage() throws IOException;

    /**
     * The error that left this input unusable for good (a corrupt or hostile stream: nothing
     * after it can be read), or null while it can still read. The port then gives up the
     * connection, so that the sender learns that its messages are not read; an error that only
     * abandons the current message (a class that cannot be loaded) does not count.
     */
    default IOException failure() {
        return null;
    }
}
