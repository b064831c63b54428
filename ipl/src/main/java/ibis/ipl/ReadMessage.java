package ibis.ipl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;

/**
 * A message being read from a {@link ReceivePort}: obtained from {@link ReceivePort#receive()} and
 * its relatives, or passed to a {@link MessageUpcall}. The data must be read with the methods that
 * match the ones it was written with, in the same order; reading past the end of the message fails
 * with an {@link IOException}.
 *
 * <h2>Finishing</h2>
 * A receive port has at most one live message. {@link #finish()} ends this message (skipping what
 * was not read) and releases the port: the next message can then be received, by another thread or
 * another upcall. Inside an upcall, calling {@code finish()} lets the upcall continue (and block)
 * without holding up the port; an upcall that returns without finishing has its message finished
 * for it. After {@code finish()} the message must not be used.
 *
 * <h2>Errors</h2>
 * When the connection the message comes from breaks while it is being read, the read methods throw
 * a {@link ConnectionClosedException}; the connection is then reported lost by the port.
 *
 * <p>Threading: a message is read by one thread at a time.
 */
public interface ReadMessage {

    /** The sequence number of the first message of a port type with {@link PortType#COMMUNICATION_NUMBERED}. */
    public static final long INITIAL_SEQNO = 1;

    /**
     * Ends the message: skips what was not read and releases the receive port for the next message.
     *
     * @return the number of bytes read from the network for this message
     * @throws IOException when the rest of the message cannot be skipped (the connection broke)
     */
    long finish() throws IOException;

    /**
     * Ends the message after the caller hit an error while reading it; the port is released. The
     * connection the message came from may be closed, since the rest of the message can no longer
     * be trusted to be read correctly.
     *
     * @param exception the error that made the caller give up
     */
    void finish(IOException exception);

    /**
     * Returns the number of bytes read from the network for this message so far.
     *
     * @return the number of bytes
     * @throws IOException when the message is already finished
     */
    long bytesRead() throws IOException;

    /**
     * Returns the total size of the message, when the implementation knows it.
     *
     * @return the size in bytes, or -1 when not known
     * @throws IOException when the message is already finished
     */
    int size() throws IOException;

    /**
     * Returns the number of bytes of the message that have not been read, when known.
     *
     * @return the number of bytes, or -1 when not known
     * @throws IOException when the message is already finished
     */
    int remaining() throws IOException;

    /**
     * Returns the receive port this message was received by.
     *
     * @return the receive port
     */
    ReceivePort localPort();

    /**
     * Returns the sequence number of this message, for port types with
     * {@link PortType#COMMUNICATION_NUMBERED}: the messages of a send port are numbered from
     * {@link #INITIAL_SEQNO} in the order they were sent.
     *
     * @return the sequence number
     * @throws IbisConfigurationException when the port type does not number messages
     */
    long sequenceNumber();

    /**
     * Returns the send port that sent this message.
     *
     * @return the sender's identifier
     */
    SendPortIdentifier origin();

    /**
     * Reads a boolean, written with {@code writeBoolean}.
     *
     * @return the value
     * @throws IOException when reading fails or the message has no more data
     */
    boolean readBoolean() throws IOException;

    /**
     * Reads a byte, written with {@code writeByte}.
     *
     * @return the value
     * @throws IOException when reading fails or the message has no more data
     */
    byte readByte() throws IOException;

    /**
     * Reads a char, written with {@code writeChar}.
     *
     * @return the value
     * @throws IOException when reading fails or the message has no more data
     */
    char readChar() throws IOException;

    /**
     * Reads a short, written with {@code writeShort}.
     *
     * @return the value
     * @throws IOException when reading fails or the message has no more data
     */
    short readShort() throws IOException;

    /**
     * Reads a int, written with {@code writeInt}.
     *
     * @return the value
     * @throws IOException when reading fails or the message has no more data
     */
    int readInt() throws IOException;

    /**
     * Reads a long, written with {@code writeLong}.
     *
     * @return the value
     * @throws IOException when reading fails or the message has no more data
     */
    long readLong() throws IOException;

    /**
     * Reads a float, written with {@code writeFloat}.
     *
     * @return the value
     * @throws IOException when reading fails or the message has no more data
     */
    float readFloat() throws IOException;

    /**
     * Reads a double, written with {@code writeDouble}.
     *
     * @return the value
     * @throws IOException when reading fails or the message has no more data
     */
    double readDouble() throws IOException;

    /**
     * Reads a string, written with {@code writeString}.
     *
     * @return the string (may be null)
     * @throws IOException when reading fails or the message has no more data
     */
    String readString() throws IOException;

    /**
     * Reads an object written with {@code writeObject} (or an array written with
     * {@code writeArray}), with the objects it refers to. Objects written more than once in the
     * message are read as the same object.
     *
     * @return the object (may be null)
     * @throws IOException when reading fails or the data is not an object
     * @throws ClassNotFoundException when the object's class cannot be found here
     */
    Object readObject() throws IOException, ClassNotFoundException;

    /**
     * Reads an array of boolean, written with {@code writeArray}, into an array of the same length.
     *
     * @param destination where to put the elements; it is filled completely
     * @throws IOException when reading fails or, with an object serialization, the written array had
     *         another length (the byte and data serializations carry no lengths: the elements that
     *         follow are read as they come, as in IPL 2.x)
     */
    void readArray(boolean[] destination) throws IOException;

    /**
     * Reads an array of byte, written with {@code writeArray}, into an array of the same length.
     *
     * @param destination where to put the elements; it is filled completely
     * @throws IOException when reading fails or, with an object serialization, the written array had
     *         another length (the byte and data serializations carry no lengths: the elements that
     *         follow are read as they come, as in IPL 2.x)
     */
    void readArray(byte[] destination) throws IOException;

    /**
     * Reads an array of char, written with {@code writeArray}, into an array of the same length.
     *
     * @param destination where to put the elements; it is filled completely
     * @throws IOException when reading fails or, with an object serialization, the written array had
     *         another length (the byte and data serializations carry no lengths: the elements that
     *         follow are read as they come, as in IPL 2.x)
     */
    void readArray(char[] destination) throws IOException;

    /**
     * Reads an array of short, written with {@code writeArray}, into an array of the same length.
     *
     * @param destination where to put the elements; it is filled completely
     * @throws IOException when reading fails or, with an object serialization, the written array had
     *         another length (the byte and data serializations carry no lengths: the elements that
     *         follow are read as they come, as in IPL 2.x)
     */
    void readArray(short[] destination) throws IOException;

    /**
     * Reads an array of int, written with {@code writeArray}, into an array of the same length.
     *
     * @param destination where to put the elements; it is filled completely
     * @throws IOException when reading fails or, with an object serialization, the written array had
     *         another length (the byte and data serializations carry no lengths: the elements that
     *         follow are read as they come, as in IPL 2.x)
     */
    void readArray(int[] destination) throws IOException;

    /**
     * Reads an array of long, written with {@code writeArray}, into an array of the same length.
     *
     * @param destination where to put the elements; it is filled completely
     * @throws IOException when reading fails or, with an object serialization, the written array had
     *         another length (the byte and data serializations carry no lengths: the elements that
     *         follow are read as they come, as in IPL 2.x)
     */
    void readArray(long[] destination) throws IOException;

    /**
     * Reads an array of float, written with {@code writeArray}, into an array of the same length.
     *
     * @param destination where to put the elements; it is filled completely
     * @throws IOException when reading fails or, with an object serialization, the written array had
     *         another length (the byte and data serializations carry no lengths: the elements that
     *         follow are read as they come, as in IPL 2.x)
     */
    void readArray(float[] destination) throws IOException;

    /**
     * Reads an array of double, written with {@code writeArray}, into an array of the same length.
     *
     * @param destination where to put the elements; it is filled completely
     * @throws IOException when reading fails or, with an object serialization, the written array had
     *         another length (the byte and data serializations carry no lengths: the elements that
     *         follow are read as they come, as in IPL 2.x)
     */
    void readArray(double[] destination) throws IOException;

    /**
     * Reads an array of Object, written with {@code writeArray}, into an array of the same length.
     *
     * @param destination where to put the elements; it is filled completely
     * @throws IOException when reading fails or, with an object serialization, the written array had
     *         another length (the byte and data serializations carry no lengths: the elements that
     *         follow are read as they come, as in IPL 2.x)
     * @throws ClassNotFoundException when the class of an element cannot be found here
     */
    void readArray(Object[] destination) throws IOException, ClassNotFoundException;

    /**
     * Reads elements of type boolean, written with {@code writeArray} of the same number of
     * elements, into part of an array.
     *
     * @param destination where to put the elements
     * @param offset the index of the first element to fill
     * @param size the number of elements to read
     * @throws IOException when reading fails or another number of elements was written
     */
    void readArray(boolean[] destination, int offset, int size) throws IOException;

    /**
     * Reads elements of type byte, written with {@code writeArray} of the same number of
     * elements, into part of an array.
     *
     * @param destination where to put the elements
     * @param offset the index of the first element to fill
     * @param size the number of elements to read
     * @throws IOException when reading fails or another number of elements was written
     */
    void readArray(byte[] destination, int offset, int size) throws IOException;

    /**
     * Reads elements of type char, written with {@code writeArray} of the same number of
     * elements, into part of an array.
     *
     * @param destination where to put the elements
     * @param offset the index of the first element to fill
     * @param size the number of elements to read
     * @throws IOException when reading fails or another number of elements was written
     */
    void readArray(char[] destination, int offset, int size) throws IOException;

    /**
     * Reads elements of type short, written with {@code writeArray} of the same number of
     * elements, into part of an array.
     *
     * @param destination where to put the elements
     * @param offset the index of the first element to fill
     * @param size the number of elements to read
     * @throws IOException when reading fails or another number of elements was written
     */
    void readArray(short[] destination, int offset, int size) throws IOException;

    /**
     * Reads elements of type int, written with {@code writeArray} of the same number of
     * elements, into part of an array.
     *
     * @param destination where to put the elements
     * @param offset the index of the first element to fill
     * @param size the number of elements to read
     * @throws IOException when reading fails or another number of elements was written
     */
    void readArray(int[] destination, int offset, int size) throws IOException;

    /**
     * Reads elements of type long, written with {@code writeArray} of the same number of
     * elements, into part of an array.
     *
     * @param destination where to put the elements
     * @param offset the index of the first element to fill
     * @param size the number of elements to read
     * @throws IOException when reading fails or another number of elements was written
     */
    void readArray(long[] destination, int offset, int size) throws IOException;

    /**
     * Reads elements of type float, written with {@code writeArray} of the same number of
     * elements, into part of an array.
     *
     * @param destination where to put the elements
     * @param offset the index of the first element to fill
     * @param size the number of elements to read
     * @throws IOException when reading fails or another number of elements was written
     */
    void readArray(float[] destination, int offset, int size) throws IOException;

    /**
     * Reads elements of type double, written with {@code writeArray} of the same number of
     * elements, into part of an array.
     *
     * @param destination where to put the elements
     * @param offset the index of the first element to fill
     * @param size the number of elements to read
     * @throws IOException when reading fails or another number of elements was written
     */
    void readArray(double[] destination, int offset, int size) throws IOException;

    /**
     * Reads elements of type Object, written with {@code writeArray} of the same number of
     * elements, into part of an array.
     *
     * @param destination where to put the elements
     * @param offset the index of the first element to fill
     * @param size the number of elements to read
     * @throws IOException when reading fails or another number of elements was written
     * @throws ClassNotFoundException when the class of an element cannot be found here
     */
    void readArray(Object[] destination, int offset, int size) throws IOException, ClassNotFoundException;

    /**
     * Reads bytes written with {@code writeByteBuffer} into a buffer, from its position up to its
     * limit; the position is advanced to the limit.
     *
     * @param value the buffer to fill
     * @throws IOException when reading fails or the message has too few bytes
     * @throws ReadOnlyBufferException when the buffer is read-only
     */
    void readByteBuffer(ByteBuffer value) throws IOException, ReadOnlyBufferException;
}
