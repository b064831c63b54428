package ibis.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@link DataOutput} over a {@link ByteSink} that frames the data into blocks and messages.
 * CONTRACT (to be implemented): see io/README.md, "Block framing".
 */
public final class BlockOutputStream implements DataOutput {

    public BlockOutputStream(ByteSink sink, int bufferSize) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Byte order of the payload (this JVM's native order); the peer must be told in the handshake. */
    public ByteOrder order() { throw new UnsupportedOperationException("not yet"); }

    /** Sends what is buffered as the final block of the current message (possibly empty). */
    public void endMessage() throws IOException { throw new UnsupportedOperationException("not yet"); }

    @Override public void writeBoolean(boolean value) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void writeByte(byte value) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void writeChar(char value) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void writeShort(short value) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void writeInt(int value) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void writeLong(long value) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void writeFloat(float value) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void writeDouble(double value) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void writeArray(boolean[] source, int offset, int length) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void writeArray(byte[] source, int offset, int length) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void writeArray(char[] source, int offset, int length) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void writeArray(short[] source, int offset, int length) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void writeArray(int[] source, int offset, int length) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void writeArray(long[] source, int offset, int length) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void writeArray(float[] source, int offset, int length) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void writeArray(double[] source, int offset, int length) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void writeByteBuffer(ByteBuffer value) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void flush() throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public long bytesWritten() { throw new UnsupportedOperationException("not yet"); }
    @Override public void resetBytesWritten() { throw new UnsupportedOperationException("not yet"); }
    @Override public void close() throws IOException { throw new UnsupportedOperationException("not yet"); }
}
