package ibis.io;

import java.io.IOException;
import java.io.StreamCorruptedException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * The "data" and "byte" serializations, read side (see {@link DataSerializationOutput} for the wire
 * format). A string's claimed length is checked against {@code ibis.io.string.max} and its chars
 * are received into an array that grows only as data actually arrives, so a malicious length
 * cannot make the reader allocate more than about twice what the peer really sent.
 */
final class DataSerializationInput implements SerializationInput {

    /** Strings up to this length are read through a reused array (one allocation: the String). */
    private static final int CHUNK = 4096;

    private final String name;
    private final DataInput in;
    private final int maxStringLength;
    private final char[] chars = new char[CHUNK];

    DataSerializationInput(String name, DataInput in, int maxStringLength) {
        this.name = name;
        this.in = Objects.requireNonNull(in, "in");
        this.maxStringLength = maxStringLength;
    }

    @Override
    public String serializationName() {
        return name;
    }

    @Override
    public String readString() throws IOException {
        int length = in.readInt();
        if (length == -1) {
            return null;
        }
        if (length < -1 || length > maxStringLength) {
            throw new StreamCorruptedException("string length " + length + " not in [-1, " + maxStringLength
                    + "] (" + IoProperties.STRING_MAX + ")");
        }
        if (length <= CHUNK) {
            in.readArray(chars, 0, length);
            return new String(chars, 0, length);
        }
        char[] value = new char[2 * CHUNK];
        int done = 0;
        while (done < length) {
            if (done == value.length) {
                value = Arrays.copyOf(value, (int) Math.min(length, 2L * value.length));
            }
            int n = Math.min(length, value.length) - done;
            in.readArray(value, done, n);
            done += n;
        }
        return new String(value, 0, length);
    }

    private IOException noObjects(String what) {
        return new IOException("cannot read " + what + " with serialization \"" + name
                + "\": the port type needs capability serialization.object");
    }

    @Override
    public Object readObject() throws IOException {
        throw noObjects("an object");
    }

    @Override
    public void readArray(Object[] destination, int offset, int length) throws IOException {
        throw noObjects("an object array");
    }

    /** Nothing to clean: this serialization keeps no state between messages. */
    @Override
    public void endMessage() {
    }

    @Override public boolean readBoolean() throws IOException { return in.readBoolean(); }
    @Override public byte readByte() throws IOException { return in.readByte(); }
    @Override public char readChar() throws IOException { return in.readChar(); }
    @Override public short readShort() throws IOException { return in.readShort(); }
    @Override public int readInt() throws IOException { return in.readInt(); }
    @Override public long readLong() throws IOException { return in.readLong(); }
    @Override public float readFloat() throws IOException { return in.readFloat(); }
    @Override public double readDouble() throws IOException { return in.readDouble(); }
    @Override public void readArray(boolean[] destination, int offset, int length) throws IOException {
        in.readArray(destination, offset, length);
    }
    @Override public void readArray(byte[] destination, int offset, int length) throws IOException {
        in.readArray(destination, offset, length);
    }
    @Override public void readArray(char[] destination, int offset, int length) throws IOException {
        in.readArray(destination, offset, length);
    }
    @Override public void readArray(short[] destination, int offset, int length) throws IOException {
        in.readArray(destination, offset, length);
    }
    @Override public void readArray(int[] destination, int offset, int length) throws IOException {
        in.readArray(destination, offset, length);
    }
    @Override public void readArray(long[] destination, int offset, int length) throws IOException {
        in.readArray(destination, offset, length);
    }
    @Override public void readArray(float[] destination, int offset, int length) throws IOException {
        in.readArray(destination, offset, length);
    }
    @Override public void readArray(double[] destination, int offset, int length) throws IOException {
        in.readArray(destination, offset, length);
    }
    @Override public void readByteBuffer(ByteBuffer value) throws IOException { in.readByteBuffer(value); }
    @Override public long bytesRead() { return in.bytesRead(); }
    @Override public void resetBytesRead() { in.resetBytesRead(); }
    @Override public void close() throws IOException { in.close(); }
}
