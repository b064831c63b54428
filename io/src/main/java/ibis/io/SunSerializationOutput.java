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
 *
 * <p>Deep graphs (io/README.md, "Deep graphs"): the JDK stream recurses once per reference, so a
 * long linked list overflows the caller's stack. Until the first object of a message is written,
 * the message's bytes are held here (up to {@link #HOLD_MAX}) instead of going to the DataOutput.
 * When that first object overflows the stack, nothing of the message has left yet: the bytes of
 * the failed attempt are dropped, the stream is reset (both sides forget the attempt's handles),
 * a {@link SunDeepMessageMarker} is written, and that object and the message's later ones are
 * written on a thread with a large stack ({@link LargeStackExecutor}). Other messages take the
 * caller's thread only.
 */
final class SunSerializationOutput implements SerializationOutput {

    /**
     * Most bytes of a message held back before its first object is complete. A first object that
     * overflows the stack after more bytes than this have gone out cannot be written again on a
     * large stack (the write fails with an IOException naming the remedies).
     */
    static final int HOLD_MAX = 1 << 20;

    private final DataOutput out;
    private final DataOutputAdapter adapter;
    private ObjectOutputStream objects; // created at the first content: its constructor writes the header
    private boolean markerWritten;      // the current message's marker has been written
    private boolean deepMessage;        // the current message's objects are written on a large stack
    private final long deepStackSize = LargeStackExecutor.stackSizeFor(IoProperties.sunDeepDepthMax(null));

    SunSerializationOutput(DataOutput out) {
        this.out = Objects.requireNonNull(out, "out");
        this.adapter = new DataOutputAdapter(out);
    }

    /** The ObjectOutputStream, after making sure the stream header and the current message's marker are written. */
    private ObjectOutputStream stream() throws IOException {
        if (!markerWritten) {
            adapter.hold(); // until the message's first object is written (see the class comment)
            if (objects == null) {
                objects = new ObjectOutputStream(adapter);
            }
            objects.writeObject(null);
            markerWritten = true;
        }
        return objects;
    }

    /**
     * Writes a top-level object: on the caller's thread, or on a large stack in a deep message or
     * when it overflows the caller's stack while the message is still held back.
     */
    private void writeTop(Object value) throws IOException {
        ObjectOutputStream s = stream();
        if (deepMessage) {
            writeOnLargeStack(s, value);
            return;
        }
        if (adapter.holding() && cannotRecurse(value)) {
            // Nothing to retry on a large stack: send what was held and write it as before the
            // hold-back existed (a large primitive array would otherwise be held and copied).
            s.flush();
            adapter.release();
        }
        if (!adapter.holding()) {
            try {
                s.writeObject(value);
            } catch (StackOverflowError e) {
                throw tooDeep("part of the message has been sent already", e);
            }
            return;
        }
        s.flush(); // the message's primitives so far join the held bytes, so the attempt starts at a known point
        int mark = adapter.held();
        try {
            s.writeObject(value);
        } catch (StackOverflowError e) {
            if (!adapter.holding()) {
                throw tooDeep("more than " + HOLD_MAX + " bytes of it had been sent before the stack overflowed", e);
            }
            adapter.truncate(mark);
            s.reset(); // forgets the handles of the failed attempt, on both sides (IOException if the stream is broken)
            s.writeObject(SunDeepMessageMarker.REST_IS_DEEP);
            s.flush();
            adapter.release();
            deepMessage = true;
            writeOnLargeStack(s, value);
            return;
        }
        adapter.release(); // later objects of the message go straight out
    }

    /**
     * Whether the JDK stream writes {@code value} without recursing into other objects: null, a
     * string, a boxed primitive, an enum constant, a class, or an array of primitives.
     */
    static boolean cannotRecurse(Object value) {
        if (value == null || value instanceof String || value instanceof Enum<?> || value instanceof Class<?>
                || value instanceof Boolean || value instanceof Character) {
            return true;
        }
        Class<?> c = value.getClass();
        if (c.isArray()) {
            return c.getComponentType().isPrimitive();
        }
        return c == Integer.class || c == Long.class || c == Double.class || c == Float.class || c == Short.class
                || c == Byte.class;
    }

    private void writeOnLargeStack(ObjectOutputStream s, Object value) throws IOException {
        try {
            LargeStackExecutor.run(deepStackSize, () -> {
                s.writeObject(value);
                return null;
            });
        } catch (ClassNotFoundException e) {
            throw new IOException(e); // not thrown by writeObject
        } catch (StackOverflowError e) {
            throw tooDeep("it is deeper than " + IoProperties.SUN_DEEP_DEPTH_MAX + " ("
                    + IoProperties.sunDeepDepthMax(null) + ") allows", e);
        }
    }

    private static IOException tooDeep(String why, StackOverflowError e) {
        return new IOException("sun serialization: object graph too deep for the stack of the writing thread, and "
                + why + "; raise " + IoProperties.SUN_DEEP_DEPTH_MAX + " or -Xss, or use serialization.object.ibis,"
                + " which writes deep graphs with a small stack", e);
    }

    @Override
    public String serializationName() {
        return "sun";
    }

    @Override
    public void writeString(String value) throws IOException {
        stream().writeObject(value);
        adapter.release(); // a string has a handle: a retry after a reset would forget it
    }

    @Override
    public void writeObject(Object value) throws IOException {
        writeTop(value);
    }

    @Override
    public void writeArray(Object[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        for (int i = offset; i < offset + length; i++) {
            writeTop(source[i]);
        }
    }

    @Override
    public void reset() throws IOException {
        if (objects != null) { // nothing written yet: nothing to forget
            stream().reset();
            adapter.release(); // the handles forgotten here stay forgotten: no retry after a reset
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
        adapter.release();
        markerWritten = false;
        deepMessage = false;
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
        arrayStream(length).writeUnshared(offset == 0 && length == source.length ? source
                : Arrays.copyOfRange(source, offset, offset + length));
    }

    @Override
    public void writeArray(byte[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        arrayStream(length).writeUnshared(offset == 0 && length == source.length ? source
                : Arrays.copyOfRange(source, offset, offset + length));
    }

    @Override
    public void writeArray(char[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        arrayStream((long) length << 1).writeUnshared(offset == 0 && length == source.length ? source
                : Arrays.copyOfRange(source, offset, offset + length));
    }

    @Override
    public void writeArray(short[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        arrayStream((long) length << 1).writeUnshared(offset == 0 && length == source.length ? source
                : Arrays.copyOfRange(source, offset, offset + length));
    }

    @Override
    public void writeArray(int[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        arrayStream((long) length << 2).writeUnshared(offset == 0 && length == source.length ? source
                : Arrays.copyOfRange(source, offset, offset + length));
    }

    @Override
    public void writeArray(long[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        arrayStream((long) length << 3).writeUnshared(offset == 0 && length == source.length ? source
                : Arrays.copyOfRange(source, offset, offset + length));
    }

    @Override
    public void writeArray(float[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        arrayStream((long) length << 2).writeUnshared(offset == 0 && length == source.length ? source
                : Arrays.copyOfRange(source, offset, offset + length));
    }

    @Override
    public void writeArray(double[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        arrayStream((long) length << 3).writeUnshared(offset == 0 && length == source.length ? source
                : Arrays.copyOfRange(source, offset, offset + length));
    }

    /**
     * The stream for a primitive array of {@code bytes} bytes: a large one is not held back (no
     * copy, no buffer that large), at the price that a deep object after it in the same message
     * can no longer be written again on a large stack.
     */
    private ObjectOutputStream arrayStream(long bytes) throws IOException {
        ObjectOutputStream s = stream();
        if (bytes > DataOutputAdapter.KEEP) {
            adapter.release();
        }
        return s;
    }

    /** Writes the remaining bytes as raw block data (read back with readByteBuffer or readArray of the bytes). */
    @Override
    public void writeByteBuffer(ByteBuffer value) throws IOException {
        ObjectOutputStream s = arrayStream(value.remaining());
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
        adapter.release();
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
            adapter.release();
        } finally {
            out.close();
        }
    }

    /**
     * OutputStream view of a DataOutput; flush and close are left to the owner of the DataOutput.
     * While holding, the bytes are kept here instead (up to {@link #HOLD_MAX}; past that they are
     * released): the bytes of a message before its first object is complete, which may still be
     * dropped (see the class comment).
     */
    private static final class DataOutputAdapter extends OutputStream {
        /** Held bytes kept between messages; a larger buffer (a large first object) is dropped at release. */
        private static final int KEEP = 1 << 16;

        private final DataOutput out;
        private byte[] held = new byte[0];
        private int heldLength;
        private boolean holding;

        DataOutputAdapter(DataOutput out) {
            this.out = out;
        }

        void hold() {
            holding = true;
        }

        boolean holding() {
            return holding;
        }

        /** Bytes held so far. */
        int held() {
            return heldLength;
        }

        /** Drops the held bytes after the first {@code length}. */
        void truncate(int length) {
            heldLength = length;
        }

        /** Sends the held bytes on and stops holding. */
        void release() throws IOException {
            if (!holding) {
                return;
            }
            holding = false;
            int n = heldLength;
            heldLength = 0;
            if (n > 0) {
                out.writeArray(held, 0, n); // copied or sent before it returns (see the class comment)
            }
            if (held.length > KEEP) {
                held = new byte[0];
            }
        }

        @Override
        public void write(int b) throws IOException {
            if (holding && heldLength < held.length) {
                held[heldLength++] = (byte) b;
                return;
            }
            if (holding) {
                write(new byte[] {(byte) b}, 0, 1); // grows the buffer (rare: the JDK stream writes arrays)
                return;
            }
            out.writeByte((byte) b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (holding) {
                if (heldLength + len <= HOLD_MAX) {
                    if (heldLength + len > held.length) {
                        held = Arrays.copyOf(held,
                                Math.min(HOLD_MAX, Math.max(2 * held.length, Math.max(heldLength + len, 4096))));
                    }
                    System.arraycopy(b, off, held, heldLength, len);
                    heldLength += len;
                    return;
                }
                release(); // too much to hold: from here on this message goes out as it is written
            }
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
