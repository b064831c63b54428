package ibis.io;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Typed input of primitives and primitive arrays, the counterpart of {@link DataOutput}. Reading
 * past the end of the current message throws {@link java.io.EOFException}.
 */
public interface DataInput {
    boolean readBoolean() throws IOException;
    byte readByte() throws IOException;
    char readChar() throws IOException;
    short readShort() throws IOException;
    int readInt() throws IOException;
    long readLong() throws IOException;
    float readFloat() throws IOException;
    double readDouble() throws IOException;

    void readArray(boolean[] destination, int offset, int length) throws IOException;
    void readArray(byte[] destination, int offset, int length) throws IOException;
    void readArray(char[] destination, int offset, int length) throws IOException;
    void readArray(short[] destination, int offset, int length) throws IOException;
    void readArray(int[] destination, int offset, int length) throws IOException;
    void readArray(long[] destination, int offset, int length) throws IOException;
    void readArray(float[] destination, int offset, int length) throws IOException;
    void readArray(double[] destination, int offset, int length) throws IOException;

    /** Fills the remaining space of {@code value} (its position is advanced to its limit). */
    void readByteBuffer(ByteBuffer value) throws IOException;

    /** Bytes read since creation or the last {@link #resetBytesRead()}. */
    long bytesRead();

    void resetBytesRead();

    /** Closes the underlying source. */
    void close() throws IOException;
}
