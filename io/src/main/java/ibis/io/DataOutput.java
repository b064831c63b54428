package ibis.io;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Typed output of primitives and primitive arrays (Ibis's own, not {@link java.io.DataOutput}).
 * Implementations may stream: an array passed to {@code writeArray} must not be changed by the caller
 * until {@link #flush()} returned.
 */
public interface DataOutput {
    void writeBoolean(boolean value) throws IOException;
    void writeByte(byte value) throws IOException;
    void writeChar(char value) throws IOException;
    void writeShort(short value) throws IOException;
    void writeInt(int value) throws IOException;
    void writeLong(long value) throws IOException;
    void writeFloat(float value) throws IOException;
    void writeDouble(double value) throws IOException;

    void writeArray(boolean[] source, int offset, int length) throws IOException;
    void writeArray(byte[] source, int offset, int length) throws IOException;
    void writeArray(char[] source, int offset, int length) throws IOException;
    void writeArray(short[] source, int offset, int length) throws IOException;
    void writeArray(int[] source, int offset, int length) throws IOException;
    void writeArray(long[] source, int offset, int length) throws IOException;
    void writeArray(float[] source, int offset, int length) throws IOException;
    void writeArray(double[] source, int offset, int length) throws IOException;

    /** Writes the remaining bytes of {@code value} (its position is advanced to its limit). */
    void writeByteBuffer(ByteBuffer value) throws IOException;

    /** Pushes everything written so far to the transport. */
    void flush() throws IOException;

    /** Bytes written since creation or the last {@link #resetBytesWritten()}. */
    long bytesWritten();

    void resetBytesWritten();

    /** Flushes and closes the underlying sink. */
    void close() throws IOException;
}
