package ibis.ipl;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A message being written to the receive ports a {@link SendPort} is connected to; obtained from
 * {@link SendPort#newMessage()}. Data is written with the {@code write} methods (what may be
 * written depends on the serialization of the port type: bytes, primitive data, or objects) and the
 * message is completed with {@link #finish()}. A send port has at most one live message; the next
 * {@code newMessage()} blocks until this one is finished.
 *
 * <h2>Streaming and buffers</h2>
 * An implementation may send data while the message is still being written, and it may keep
 * references to written arrays and buffers instead of copying them. Therefore the contents of an
 * array or buffer passed to a {@code write} method must not be changed until one of
 * {@link #flush()}, {@link #finish()}, {@link #reset()} or {@link #sync(int)} (with a ticket
 * obtained after the write) has returned.
 *
 * <h2>Objects</h2>
 * {@link #writeObject(Object)} keeps object identity within a message: an object written twice is
 * read as one object, and cycles are preserved. {@link #reset()} makes the stream forget which
 * objects were written (later writes send them again) but keeps what it knows about their types.
 * An array written with {@code writeArray} may be read with the matching {@code readArray} or with
 * {@link ReadMessage#readObject()}.
 *
 * <h2>Errors on multicast</h2>
 * When the message goes to several receive ports and writing to one of them fails, the others still
 * get the whole message. The failure is reported when the message is finished: {@link #finish()}
 * throws an exception naming the lost connection(s), and the send port drops those connections
 * (see {@link SendPort#lostConnections()} and {@link SendPortDisconnectUpcall}).
 *
 * <p>Threading: a message must be written by one thread at a time. It must not be used after it
 * is finished.
 */
public interface WriteMessage {

    /**
     * Sends what has been written so far, without waiting until it is delivered or the arrays may
     * be reused.
     *
     * @return a ticket for {@link #sync(int)}
     * @throws IOException when sending fails
     */
    int send() throws IOException;

    /**
     * Waits until the data written before the {@link #send()} that returned the ticket has been
     * handed to the network, so that the arrays written before it may be changed.
     *
     * @param ticket a ticket returned by {@link #send()} of this message
     * @throws IOException when sending fails
     */
    void sync(int ticket) throws IOException;

    /**
     * Sends everything written so far and waits until all written arrays may be changed again.
     * Does not end the message.
     *
     * @throws IOException when sending fails
     */
    void flush() throws IOException;

    /**
     * Makes the object stream forget which objects were written, so that an object written again
     * is sent again (as a new object on the receiving side), and waits until all written arrays may
     * be changed again. Type information is kept.
     *
     * @throws IOException when sending fails
     */
    void reset() throws IOException;

    /**
     * Ends the message: sends what is left and releases the send port for the next message.
     * Written arrays may be changed after it returns.
     *
     * @return the number of bytes written in this message
     * @throws IOException when the message could not be delivered to some or all receivers; on a
     *         multicast port the others did get it, and the failed connections are dropped. The
     *         message is finished in any case.
     */
    long finish() throws IOException;

    /**
     * Ends the message after the caller hit an error while writing it. The data written so far is
     * discarded where possible, and the send port is released for the next message.
     *
     * @param exception the error that made the caller give up
     */
    void finish(IOException exception);

    /**
     * Returns the number of bytes written in this message so far.
     *
     * @return the number of bytes
     * @throws IOException when the message is already finished
     */
    long bytesWritten() throws IOException;

    /**
     * Returns the size of the buffer the message is written into, when the implementation writes
     * into a fixed buffer.
     *
     * @return the capacity in bytes, or -1 when not known
     * @throws IOException when the message is already finished
     */
    int capacity() throws IOException;

    /**
     * Returns how many bytes can still be written before the buffer must be sent.
     *
     * @return the number of bytes, or -1 when not known
     * @throws IOException when the message is already finished
     */
    int remaining() throws IOException;

    /**
     * Returns the send port this message is written to.
     *
     * @return the send port
     */
    SendPort localPort();

    /**
     * Writes a boolean.
     *
     * @param value the value
     * @throws IOException when writing fails
     */
    void writeBoolean(boolean value) throws IOException;

    /**
     * Writes a byte.
     *
     * @param value the value
     * @throws IOException when writing fails
     */
    void writeByte(byte value) throws IOException;

    /**
     * Writes a char.
     *
     * @param value the value
     * @throws IOException when writing fails
     */
    void writeChar(char value) throws IOException;

    /**
     * Writes a short.
     *
     * @param value the value
     * @throws IOException when writing fails
     */
    void writeShort(short value) throws IOException;

    /**
     * Writes a int.
     *
     * @param value the value
     * @throws IOException when writing fails
     */
    void writeInt(int value) throws IOException;

    /**
     * Writes a long.
     *
     * @param value the value
     * @throws IOException when writing fails
     */
    void writeLong(long value) throws IOException;

    /**
     * Writes a float.
     *
     * @param value the value
     * @throws IOException when writing fails
     */
    void writeFloat(float value) throws IOException;

    /**
     * Writes a double.
     *
     * @param value the value
     * @throws IOException when writing fails
     */
    void writeDouble(double value) throws IOException;

    /**
     * Writes a string (null allowed). Needs a data or object serialization.
     *
     * @param value the string
     * @throws IOException when writing fails
     */
    void writeString(String value) throws IOException;

    /**
     * Writes an object and, recursively, the objects it refers to, keeping object identity within
     * the message (see the class description). Needs an object serialization.
     *
     * @param value the object (null allowed)
     * @throws IOException when writing fails, for example because the object is not serializable
     */
    void writeObject(Object value) throws IOException;

    /**
     * Writes the contents of an array of boolean; the receiver reads it with an array of the same
     * length. The array must not be changed until the data is sent (see the class description).
     *
     * @param value the array
     * @throws IOException when writing fails
     */
    void writeArray(boolean[] value) throws IOException;

    /**
     * Writes the contents of an array of byte; the receiver reads it with an array of the same
     * length. The array must not be changed until the data is sent (see the class description).
     *
     * @param value the array
     * @throws IOException when writing fails
     */
    void writeArray(byte[] value) throws IOException;

    /**
     * Writes the contents of an array of char; the receiver reads it with an array of the same
     * length. The array must not be changed until the data is sent (see the class description).
     *
     * @param value the array
     * @throws IOException when writing fails
     */
    void writeArray(char[] value) throws IOException;

    /**
     * Writes the contents of an array of short; the receiver reads it with an array of the same
     * length. The array must not be changed until the data is sent (see the class description).
     *
     * @param value the array
     * @throws IOException when writing fails
     */
    void writeArray(short[] value) throws IOException;

    /**
     * Writes the contents of an array of int; the receiver reads it with an array of the same
     * length. The array must not be changed until the data is sent (see the class description).
     *
     * @param value the array
     * @throws IOException when writing fails
     */
    void writeArray(int[] value) throws IOException;

    /**
     * Writes the contents of an array of long; the receiver reads it with an array of the same
     * length. The array must not be changed until the data is sent (see the class description).
     *
     * @param value the array
     * @throws IOException when writing fails
     */
    void writeArray(long[] value) throws IOException;

    /**
     * Writes the contents of an array of float; the receiver reads it with an array of the same
     * length. The array must not be changed until the data is sent (see the class description).
     *
     * @param value the array
     * @throws IOException when writing fails
     */
    void writeArray(float[] value) throws IOException;

    /**
     * Writes the contents of an array of double; the receiver reads it with an array of the same
     * length. The array must not be changed until the data is sent (see the class description).
     *
     * @param value the array
     * @throws IOException when writing fails
     */
    void writeArray(double[] value) throws IOException;

    /**
     * Writes the contents of an array of Object; the receiver reads it with an array of the same
     * length. The objects are written as by {@link #writeObject(Object)}.
     *
     * @param value the array
     * @throws IOException when writing fails
     */
    void writeArray(Object[] value) throws IOException;

    /**
     * Writes part of an array of boolean; the receiver reads the same number of elements.
     *
     * @param value the array
     * @param offset the index of the first element to write
     * @param length the number of elements to write
     * @throws IOException when writing fails
     */
    void writeArray(boolean[] value, int offset, int length) throws IOException;

    /**
     * Writes part of an array of byte; the receiver reads the same number of elements.
     *
     * @param value the array
     * @param offset the index of the first element to write
     * @param length the number of elements to write
     * @throws IOException when writing fails
     */
    void writeArray(byte[] value, int offset, int length) throws IOException;

    /**
     * Writes part of an array of char; the receiver reads the same number of elements.
     *
     * @param value the array
     * @param offset the index of the first element to write
     * @param length the number of elements to write
     * @throws IOException when writing fails
     */
    void writeArray(char[] value, int offset, int length) throws IOException;

    /**
     * Writes part of an array of short; the receiver reads the same number of elements.
     *
     * @param value the array
     * @param offset the index of the first element to write
     * @param length the number of elements to write
     * @throws IOException when writing fails
     */
    void writeArray(short[] value, int offset, int length) throws IOException;

    /**
     * Writes part of an array of int; the receiver reads the same number of elements.
     *
     * @param value the array
     * @param offset the index of the first element to write
     * @param length the number of elements to write
     * @throws IOException when writing fails
     */
    void writeArray(int[] value, int offset, int length) throws IOException;

    /**
     * Writes part of an array of long; the receiver reads the same number of elements.
     *
     * @param value the array
     * @param offset the index of the first element to write
     * @param length the number of elements to write
     * @throws IOException when writing fails
     */
    void writeArray(long[] value, int offset, int length) throws IOException;

    /**
     * Writes part of an array of float; the receiver reads the same number of elements.
     *
     * @param value the array
     * @param offset the index of the first element to write
     * @param length the number of elements to write
     * @throws IOException when writing fails
     */
    void writeArray(float[] value, int offset, int length) throws IOException;

    /**
     * Writes part of an array of double; the receiver reads the same number of elements.
     *
     * @param value the array
     * @param offset the index of the first element to write
     * @param length the number of elements to write
     * @throws IOException when writing fails
     */
    void writeArray(double[] value, int offset, int length) throws IOException;

    /**
     * Writes part of an array of Object; the receiver reads the same number of elements.
     *
     * @param value the array
     * @param offset the index of the first element to write
     * @param length the number of elements to write
     * @throws IOException when writing fails
     */
    void writeArray(Object[] value, int offset, int length) throws IOException;

    /**
     * Writes the bytes between the position and the limit of a buffer; the position is advanced
     * to the limit. The buffer's contents must not be changed until the data is sent (see the class
     * description).
     *
     * @param value the buffer
     * @throws IOException when writing fails
     */
    void writeByteBuffer(ByteBuffer value) throws IOException;
}
