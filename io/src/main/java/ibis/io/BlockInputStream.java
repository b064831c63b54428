package ibis.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@link DataInput} over a {@link ByteSource} that reads the blocks and messages framed by a
 * {@link BlockOutputStream}. CONTRACT (to be implemented): see io/README.md, "Block framing".
 */
public final class BlockInputStream implements DataInput {

    /** @param peerOrder the byte order of the sender's payload, learnt in the connection handshake */
    public BlockInputStream(ByteSource source, int bufferSize, ByteOrder peerOrder) {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * Waits until the next message has started to arrive (or the stream ended).
     *
     * @param timeoutMillis negative: do not wait (poll); 0: wait without limit; positive: at most that long
     * @return true when the next message (or end of stream) is ready to be read
     */
    public boolean awaitMessage(long timeoutMillis) throws IOException { throw new UnsupportedOperationException("not yet"); }

    /** Skips whatever is left of the current message, so that the next read starts the next message. */
    public void endMessage() throws IOException { throw new UnsupportedOperationException("not yet"); }

    @Override public boolean readBoolean() throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public byte readByte() throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public char readChar() throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public short readShort() throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public int readInt() throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public long readLong() throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public float readFloat() throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public double readDouble() throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void readArray(boolean[] destination, int offset, int length) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void readArray(byte[] destination, int offset, int length) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void readArray(char[] destination, int offset, int length) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void readArray(short[] destination, int offset, int length) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void readArray(int[] destination, int offset, int length) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void readArray(long[] destination, int offset, int length) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void readArray(float[] destination, int offset, int length) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void readArray(double[] destination, int offset, int length) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public void readByteBuffer(ByteBuffer value) throws IOException { throw new UnsupportedOperationException("not yet"); }
    @Override public long bytesRead() { throw new UnsupportedOperationException("not yet"); }
    @Override public void resetBytesRead() { throw new UnsupportedOperationException("not yet"); }
    @Override public void close() throws IOException { throw new UnsupportedOperationException("not yet"); }
}
