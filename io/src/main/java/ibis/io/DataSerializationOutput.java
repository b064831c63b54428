package ibis.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The "data" and "byte" serializations, write side: primitives, primitive arrays and strings passed
 * straight to the {@link DataOutput}; no objects. Adds no state and no buffering of its own.
 *
 * <p>Wire format: primitives and arrays exactly as the DataOutput writes them (no array length);
 * a string is an int char count (-1 for null) followed by that many UTF-16 chars.
 */
final class DataSerializationOutput implements SerializationOutput {

    private final String name;
    private final DataOutput out;

    DataSerializationOutput(String name, DataOutput out) {
        this.name = name;
        this.out = Objects.requireNonNull(out, "out");
    }

    @Override
    public String serializationName() {
        return name;
    }

    @Override
    public void writeString(String value) throws IOException {
        if (value == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(value.length());
        if (out instanceof BlockOutputStream blocks) {
            blocks.writeChars(value); // straight from the string into the block buffer
        } else {
            // A general DataOutput may keep a reference to an array until flush(): no shared scratch array.
            for (int i = 0; i < value.length(); i++) {
                out.writeChar(value.charAt(i));
            }
        }
    }

    private IOException noObjects(String what) {
        return new IOException("cannot write " + what + " with serialization \"" + name
                + "\": the port type needs capability serialization.object");
    }

    @Override
    public void writeObject(Object value) throws IOException {
        throw noObjects("an object" + (value == null ? "" : " (" + value.getClass().getName() + ")"));
    }

    @Override
    public void writeArray(Object[] source, int offset, int length) throws IOException {
        throw noObjects("an object array");
    }

    /** Nothing to forget: this serialization keeps no object identities. */
    @Override
    public void reset() {
    }

    /** Nothing to push: this serialization buffers nothing itself. */
    @Override
    public void endMessage() {
    }

    @Override public void writeBoolean(boolean value) throws IOException { out.writeBoolean(value); }
    @Override public void writeByte(byte value) throws IOException { out.writeByte(value); }
    @Override public void writeChar(char value) throws IOException { out.writeChar(value); }
    @Override public void writeShort(short value) throws IOException { out.writeShort(value); }
    @Override public void writeInt(int value) throws IOException { out.writeInt(value); }
    @Override public void writeLong(long value) throws IOException { out.writeLong(value); }
    @Override public void writeFloat(float value) throws IOException { out.writeFloat(value); }
    @Override public void writeDouble(double value) throws IOException { out.writeDouble(value); }
    @Override public void writeArray(boolean[] source, int offset, int length) throws IOException {
        out.writeArray(source, offset, length);
    }
    @Override public void writeArray(byte[] source, int offset, int length) throws IOException {
        out.writeArray(source, offset, length);
    }
    @Override public void writeArray(char[] source, int offset, int length) throws IOException {
        out.writeArray(source, offset, length);
    }
    @Override public void writeArray(short[] source, int offset, int length) throws IOException {
        out.writeArray(source, offset, length);
    }
    @Override public void writeArray(int[] source, int offset, int length) throws IOException {
        out.writeArray(source, offset, length);
    }
    @Override public void writeArray(long[] source, int offset, int length) throws IOException {
        out.writeArray(source, offset, length);
    }
    @Override public void writeArray(float[] source, int offset, int length) throws IOException {
        out.writeArray(source, offset, length);
    }
    @Override public void writeArray(double[] source, int offset, int length) throws IOException {
        out.writeArray(source, offset, length);
    }
    @Override public void writeByteBuffer(ByteBuffer value) throws IOException { out.writeByteBuffer(value); }
    @Override public void flush() throws IOException { out.flush(); }
    @Override public long bytesWritten() { return out.bytesWritten(); }
    @Override public void resetBytesWritten() { out.resetBytesWritten(); }
    @Override public void close() throws IOException { out.close(); }
}
