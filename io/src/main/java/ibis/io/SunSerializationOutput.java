package ibis.io;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * The "sun" serialization, write side: one {@link ObjectOutputStream} per stream, writing into the
 * {@link DataOutput} through a small adapter. Everything (primitives too) goes through the
 * ObjectOutputStream, so the order of primitives and objects is kept and the bytes form one
 * standard Java serialization stream. Object identity is kept across messages until
 * {@link #reset()}.
 *
 * <p>Wire format (io/README.md): the stream header (AC ED 00 05) is written just before the first
 * content of the stream (not at creation, so that a port may create this output before writing its
 * own message header); every message that contains anything starts with a marker object (TC_NULL, one byte)
 * that lets the reader put its ObjectInputStream in a known state at each message start;
 * {@code writeArray} of a primitive array (or slice) writes it as one unshared array object.
 *
 * <p>The adapter hands the ObjectOutputStream's internal buffer to {@link DataOutput#writeArray};
 * the DataOutput must copy it before returning (a {@link BlockOutputStream} does).
 */
final class SunSerializationOutput implements SerializationOutput {

    private final DataOutput out;
    private ObjectOutputStream objects; // created at the first content: its constructor writes the header
    private boolean markerWritten;      // the current message's marker has been written

    SunSerializationOutput(DataOutput out) {
        this.out = Objects.requireNonNull(out, "out");
    }

    /** The ObjectOutputStream, after making sure the stream header and the current message's marker are written. */
    private ObjectOutputStream stream() throws IOException {
        if (objects == null) {
            objects = new ObjectOutputStream(new DataOutputAdapter(out));
        }
        if (!markerWritten) {
            objects.writeObject(null);
            markerWritten = true;
        }
        return objects;
    }

    @Override
    public String serializationName() {
        return "sun";
    }

    @Override
    public void writeString(String value) throws IOException {
        stream().writeObject(value);
    }

    @Override
    public void writeObject(Object value) throws IOException {
        stream().writeObject(value);
    }

    @Override
    public void writeArray(Object[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        ObjectOutputStream s = stream();
        for (int i = offset; i < offset + length; i++) {
            s.writeObject(source[i]);
        }
    }

    @Override
    public void reset() throws IOException {
        if (objects != null) { // nothing written yet: nothing to forget
            stream().reset();
        }
    }

    /** Pushes the ObjectOutputStream's buffered bytes to the DataOutput; the next message gets a new marker. */
    @Override
    public void endMessage() throws IOException {
        if (objects != null) {
            if (markerWritten) {
                // Object identity is kept within a message only (ipl-api.md), as for the ibis
                // serialization: the next message writes every object anew with its current state.
                objects.reset();
            }
            objects.flush();
        }
        markerWritten = false;
    }

    @Override public void writeBoolean(boolean value) throws IOException { stream().writeBoolean(value); }
    @Override public void writeByte(byte value) throws IOException { stream().writeByte(value); }
    @Override public void writeChar(char value) throws IOException { stream().writeChar(value); }
    @Override public void writeShort(short value) throws IOException { stream().writeShort(value); }
    @Override public void writeInt(int value) throws IOException { stream().writeInt(value); }
    @Override public void writeLong(long value) throws IOException { stream().writeLong(value); }
    @Override public void writeFloat(float value) throws IOException { stream().writeFloat(value); }
    @Override public void writeDouble(double value) throws IOException { stream().writeDouble(value); }

    // A primitive array is written as one array object, so that readObject() can read it too.
    // writeUnshared: the current contents are sent every time (never a back reference to an
    // earlier write of the same array, whose contents may have changed), and the stream's handle
    // table keeps no reference to it. A slice is copied first.

    @Override
    public void writeArray(boolean[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        stream().writeUnshared(offset == 0 && length == source.length ? source : Arrays.copyOfRange(source, offset, offset + length));
    }

    @Override
    public void writeArray(byte[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        stream().writeUnshared(offset == 0 && length == source.length ? source : Arrays.copyOfRange(source, offset, offset + length));
    }

    @Override
    public void writeArray(char[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        stream().writeUnshared(offset == 0 && length == source.length ? source : Arrays.copyOfRange(source, offset, offset + length));
    }

    @Override
    public void writeArray(short[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        stream().writeUnshared(offset == 0 && length == source.length ? source : Arrays.copyOfRange(source, offset, offset + length));
    }

    @Override
    public void writeArray(int[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        stream().writeUnshared(offset == 0 && length == source.length ? source : Arrays.copyOfRange(source, offset, offset + length));
    }

    @Override
    public void writeArray(long[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        stream().writeUnshared(offset == 0 && length == source.length ? source : Arrays.copyOfRange(source, offset, offset + length));
    }

    @Override
    public void writeArray(float[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        stream().writeUnshared(offset == 0 && length == source.length ? source : Arrays.copyOfRange(source, offset, offset + length));
    }

    @Override
    public void writeArray(double[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        stream().writeUnshared(offset == 0 && length == source.length ? source : Arrays.copyOfRange(source, offset, offset + length));
    }

    /** Writes the remaining bytes as raw block data (read back with readByteBuffer or readArray of the bytes). */
    @Override
    public void writeByteBuffer(ByteBuffer value) throws IOException {
        ObjectOutputStream s = stream();
        if (value.hasArray()) {
            s.write(value.array(), value.arrayOffset() + value.position(), value.remaining());
            value.position(value.limit());
        } else {
            byte[] chunk = new byte[Math.min(value.remaining(), 8192)];
            while (value.hasRemaining()) {
                int n = Math.min(chunk.length, value.remaining());
                value.get(chunk, 0, n);
                s.write(chunk, 0, n);
            }
        }
    }

    /** Pushes the ObjectOutputStream's buffered bytes down and flushes the DataOutput. */
    @Override
    public void flush() throws IOException {
        if (objects != null) {
            objects.flush();
        }
        out.flush();
    }

    /** Bytes the DataOutput received; bytes still buffered in the ObjectOutputStream count after a flush. */
    @Override
    public long bytesWritten() {
        return out.bytesWritten();
    }

    @Override
    public void resetBytesWritten() {
        out.resetBytesWritten();
    }

    @Override
    public void close() throws IOException {
        try {
            if (objects != null) {
                objects.flush();
            }
        } finally {
            out.close();
        }
    }

    /** OutputStream view of a DataOutput; flush and close are left to the owner of the DataOutput. */
    private static final class DataOutputAdapter extends OutputStream {
        private final DataOutput out;

        DataOutputAdapter(DataOutput out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            out.writeByte((byte) b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.writeArray(b, off, len);
        }

        @Override
        public void flush() {
            // The port decides when blocks go out (DataOutput.flush / endMessage).
        }

        @Override
        public void close() {
            // Closed through SunSerializationOutput.close().
        }
    }
}
