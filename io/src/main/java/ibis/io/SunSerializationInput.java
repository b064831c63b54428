package ibis.io;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.OptionalDataException;
import java.io.StreamCorruptedException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The "sun" serialization, read side: one {@link ObjectInputStream} per stream, reading from the
 * {@link DataInput} through an adapter that reports end-of-file at the end of the current message.
 *
 * <p>Creation reads nothing: the ObjectInputStream (which reads the stream header) is created at
 * the first read, or at {@link #endMessage()} of a message nobody read. At the start of each
 * message the marker object written by {@link SunSerializationOutput} is read; reading an object
 * resets the ObjectInputStream's block-data state, so a message that was read past its end does
 * not spoil the next one.
 *
 * <p>{@link #endMessage()} must be called before the block stream skips to the next message: it
 * consumes what the application left unread so that the ObjectInputStream stays in step with the
 * writer. Unread primitive data is skipped; unread objects are read and dropped (object identity
 * and resets must be seen by the reader too).
 *
 * <p>A message that the writer found too deep for its stack carries a {@link SunDeepMessageMarker}
 * before its objects (io/README.md, "Deep graphs"): this reader then reads that message's objects
 * on a thread with a large stack, with the depth limit {@code ibis.io.sun.deep.depth.max}.
 *
 * <p>Any corruption (malformed stream, rejected class, type mismatch between a primitive read and
 * the data) makes the stream unusable: that read and every later one throw an IOException, until
 * the port creates a new input for a new stream. Reading past the end of a message is not
 * corruption: it throws {@link EndOfMessageException} and the next message reads normally.
 */
final class SunSerializationInput implements SerializationInput {

    private static final int TC_BLOCKDATA = 0x77;
    private static final int TC_BLOCKDATALONG = 0x7A;
    private static final int TC_RESET = 0x79;

    private final DataInput in;
    private final ObjectInputFilter filter;
    private final ObjectInputFilter deepFilter;
    private final long deepStackSize;
    private final MessageInputStream adapter;
    private ObjectInputStream objects; // created lazily: the constructor reads the stream header
    private boolean markerRead;        // the current message's marker has been consumed
    private boolean deepMessage;       // the current message's objects are read on a large stack
    private boolean readingDeep;       // a read on the large stack is running: deepFilter applies
    private IOException broken;        // the first corruption seen; the stream is unusable after it

    SunSerializationInput(DataInput in, ObjectInputFilter filter) {
        this(in, filter, filter, LargeStackExecutor.stackSizeFor(IoProperties.DEFAULT_SUN_DEEP_DEPTH_MAX));
    }

    /**
     * @param filter applied to ordinary messages (may be null: the JVM-wide filter)
     * @param deepFilter applied to the objects of a deep message
     * @param deepStackSize stack size of the threads that read deep messages
     */
    SunSerializationInput(DataInput in, ObjectInputFilter filter, ObjectInputFilter deepFilter, long deepStackSize) {
        this.in = Objects.requireNonNull(in, "in");
        this.filter = filter;
        this.deepFilter = deepFilter;
        this.deepStackSize = deepStackSize;
        this.adapter = new MessageInputStream(in);
    }

    /** The stream's filter: the deep marker always passes, the rest goes to the filter of the current read. */
    private ObjectInputFilter.Status check(ObjectInputFilter.FilterInfo info) {
        Class<?> c = info.serialClass();
        if (c == SunDeepMessageMarker.class || c == Enum.class) {
            return ObjectInputFilter.Status.ALLOWED;
        }
        return (readingDeep ? deepFilter : filter).checkInput(info);
    }

    @Override
    public String serializationName() {
        return "sun";
    }

    // ---- message state

    /**
     * Makes the current message ready for reading: creates the ObjectInputStream when needed and
     * consumes the message marker. Returns false when the message has no (more) content.
     */
    private boolean beginMessage() throws IOException {
        if (broken != null) {
            throw new IOException("sun serialization stream is unusable after an earlier error: " + broken, broken);
        }
        if (markerRead) {
            return true;
        }
        if (!adapter.hasMore()) {
            return false;
        }
        try {
            if (objects == null) {
                objects = new ObjectInputStream(adapter);
                if (filter != null) {
                    objects.setObjectInputFilter(this::check);
                }
                if (!adapter.hasMore()) {
                    return false; // a message with only the stream header
                }
            }
            Object marker = objects.readObject();
            if (marker != null) {
                throw new StreamCorruptedException("sun serialization: message does not start with the"
                        + " message marker (found a " + marker.getClass().getName() + ")");
            }
        } catch (ClassNotFoundException e) {
            throw fail(new StreamCorruptedException("sun serialization: message does not start with the"
                    + " message marker (found an object of unknown class " + e.getMessage() + ")"));
        } catch (IOException e) {
            throw fail(e);
        } catch (RuntimeException | StackOverflowError e) {
            throw fail(corrupt(e));
        }
        markerRead = true;
        return true;
    }

    private ObjectInputStream stream() throws IOException {
        if (!beginMessage()) {
            throw new EndOfMessageException();
        }
        return objects;
    }

    private IOException fail(IOException e) {
        if (broken == null) {
            broken = e;
        }
        return e;
    }

    private static StreamCorruptedException corrupt(Throwable cause) {
        StreamCorruptedException e = new StreamCorruptedException("sun serialization: corrupt object stream ("
                + (cause instanceof StackOverflowError ? "object graph too deep" : cause.toString()) + ")");
        e.initCause(cause);
        return e;
    }

    /** A failed primitive read: past the end of the message (harmless) or corruption. */
    private IOException primitiveFailed(IOException e) {
        if (e instanceof EOFException && adapter.endReached()) {
            return new EndOfMessageException();
        }
        return fail(e);
    }

    @Override
    public IOException failure() {
        return broken;
    }

    /**
     * Finishes the current message: consumes whatever the application did not read (see class
     * comment), so that the next message starts in step. Problems make the stream unusable (later
     * reads report them) rather than being thrown here.
     */
    @Override
    public void endMessage() {
        try {
            if (broken == null && beginMessage()) {
                drain();
                if (adapter.hasMore()) {
                    fail(new StreamCorruptedException("sun serialization: data left at the end of a message"
                            + " could not be skipped"));
                }
            }
        } catch (IOException e) {
            fail(e);
        } catch (RuntimeException | StackOverflowError e) {
            fail(corrupt(e));
        } finally {
            markerRead = false;
            deepMessage = false;
            adapter.startMessage();
        }
    }

    /** Skips unread block data, applies unread resets and reads and drops unread objects. */
    private void drain() throws IOException {
        for (;;) {
            adapter.lastPeek = MessageInputStream.NO_PEEK;
            adapter.trackPeeks = true;
            int n;
            try {
                n = objects.available(); // reads block headers and resets, never blocks past the message
            } finally {
                adapter.trackPeeks = false;
            }
            if (n > 0) {
                if (objects.skipBytes(n) <= 0) {
                    throw new StreamCorruptedException("sun serialization: announced block data is missing");
                }
                continue;
            }
            int peek = adapter.lastPeek;
            if (peek >= 0 && peek != TC_BLOCKDATA && peek != TC_BLOCKDATALONG && peek != TC_RESET) {
                try {
                    Object dropped = deepMessage ? readOnLargeStack(objects) : objects.readObject();
                    if (dropped == SunDeepMessageMarker.REST_IS_DEEP) {
                        deepMessage = true;
                    }
                } catch (ClassNotFoundException e) {
                    // dropped anyway; the ObjectInputStream read past the whole object
                }
                continue;
            }
            return;
        }
    }

    // ---- strings and objects

    private Object object() throws IOException, ClassNotFoundException {
        ObjectInputStream s = stream();
        if (adapter.hasMore()) {
            // Applies resets waiting at a block boundary (the writer ends every message with one)
            // without reading past the message, so that a reset alone is not taken for an object.
            try {
                s.available();
            } catch (IOException e) {
                throw fail(e);
            }
        }
        if (!adapter.hasMore()) {
            // Never let ObjectInputStream hit end-of-file between objects: it would be left out of
            // block-data mode.
            throw new EndOfMessageException();
        }
        try {
            if (deepMessage) {
                return readOnLargeStack(s);
            }
            Object result = s.readObject();
            if (result == SunDeepMessageMarker.REST_IS_DEEP) {
                deepMessage = true; // the writer's stack overflowed on this message: so would ours
                return readOnLargeStack(s);
            }
            return result;
        } catch (OptionalDataException | ClassNotFoundException e) {
            throw e; // the stream is still in step: primitive data is next, or the object was skipped
        } catch (java.io.InvalidClassException e) {
            if (e.getMessage() != null && e.getMessage().contains("filter status: REJECTED")) {
                String what = e.classname != null ? e.classname : "an object";
                String limits = IoProperties.OBJECT_ARRAY_MAX + ", " + IoProperties.OBJECT_DEPTH_MAX + " or "
                        + IoProperties.CLASS_FILTER;
                java.io.InvalidClassException named = new java.io.InvalidClassException(e.classname,
                        "sun serialization: filter status: REJECTED for " + what + " (an array too long, a graph"
                        + " too deep or a class excluded: " + limits + "; raise or change it for legitimate data)");
                named.initCause(e);
                throw fail(named);
            }
            throw fail(e);
        } catch (IOException e) {
            throw fail(e);
        } catch (RuntimeException | StackOverflowError e) {
            throw fail(corrupt(e));
        }
    }

    /** Reads one object of a deep message on a large stack, with the deep depth limit. */
    private Object readOnLargeStack(ObjectInputStream s) throws IOException, ClassNotFoundException {
        readingDeep = true;
        try {
            return LargeStackExecutor.run(deepStackSize, s::readObject);
        } finally {
            readingDeep = false;
        }
    }

    /** An object where a string or array is expected: a class we cannot load is a type mismatch. */
    private Object value(String expected) throws IOException {
        try {
            return object();
        } catch (ClassNotFoundException e) {
            throw new IOException("sun serialization: expected " + expected + " but read an object of unknown class "
                    + e.getMessage(), e);
        }
    }

    private static IOException mismatch(String expected, Object found) {
        return new IOException("sun serialization: expected " + expected + " but read "
                + (found == null ? "null" : "a " + found.getClass().getTypeName()
                        + (found.getClass().isArray() ? " of length " + java.lang.reflect.Array.getLength(found)
                                : "")));
    }

    @Override
    public String readString() throws IOException {
        Object value = value("a String");
        if (value == null || value instanceof String) {
            return (String) value;
        }
        throw mismatch("a String", value);
    }

    @Override
    public Object readObject() throws IOException, ClassNotFoundException {
        return object();
    }

    @Override
    public void readArray(Object[] destination, int offset, int length) throws IOException, ClassNotFoundException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        for (int i = offset; i < offset + length; i++) {
            destination[i] = object();
        }
    }

    // ---- primitives

    @Override
    public boolean readBoolean() throws IOException {
        ObjectInputStream s = stream();
        try {
            return s.readBoolean();
        } catch (IOException e) {
            throw primitiveFailed(e);
        } catch (RuntimeException e) {
            throw fail(corrupt(e));
        }
    }

    @Override
    public byte readByte() throws IOException {
        ObjectInputStream s = stream();
        try {
            return s.readByte();
        } catch (IOException e) {
            throw primitiveFailed(e);
        } catch (RuntimeException e) {
            throw fail(corrupt(e));
        }
    }

    @Override
    public char readChar() throws IOException {
        ObjectInputStream s = stream();
        try {
            return s.readChar();
        } catch (IOException e) {
            throw primitiveFailed(e);
        } catch (RuntimeException e) {
            throw fail(corrupt(e));
        }
    }

    @Override
    public short readShort() throws IOException {
        ObjectInputStream s = stream();
        try {
            return s.readShort();
        } catch (IOException e) {
            throw primitiveFailed(e);
        } catch (RuntimeException e) {
            throw fail(corrupt(e));
        }
    }

    @Override
    public int readInt() throws IOException {
        ObjectInputStream s = stream();
        try {
            return s.readInt();
        } catch (IOException e) {
            throw primitiveFailed(e);
        } catch (RuntimeException e) {
            throw fail(corrupt(e));
        }
    }

    @Override
    public long readLong() throws IOException {
        ObjectInputStream s = stream();
        try {
            return s.readLong();
        } catch (IOException e) {
            throw primitiveFailed(e);
        } catch (RuntimeException e) {
            throw fail(corrupt(e));
        }
    }

    @Override
    public float readFloat() throws IOException {
        ObjectInputStream s = stream();
        try {
            return s.readFloat();
        } catch (IOException e) {
            throw primitiveFailed(e);
        } catch (RuntimeException e) {
            throw fail(corrupt(e));
        }
    }

    @Override
    public double readDouble() throws IOException {
        ObjectInputStream s = stream();
        try {
            return s.readDouble();
        } catch (IOException e) {
            throw primitiveFailed(e);
        } catch (RuntimeException e) {
            throw fail(corrupt(e));
        }
    }

    /** Reads raw block data written by {@code writeByteBuffer}. */
    @Override
    public void readByteBuffer(ByteBuffer value) throws IOException {
        ObjectInputStream s = stream();
        try {
            if (value.hasArray()) {
                s.readFully(value.array(), value.arrayOffset() + value.position(), value.remaining());
                value.position(value.limit());
            } else {
                byte[] chunk = new byte[Math.min(value.remaining(), 8192)];
                while (value.hasRemaining()) {
                    int n = Math.min(chunk.length, value.remaining());
                    s.readFully(chunk, 0, n);
                    value.put(chunk, 0, n);
                }
            }
        } catch (IOException e) {
            throw primitiveFailed(e);
        } catch (RuntimeException e) {
            throw fail(corrupt(e));
        }
    }

    // ---- primitive arrays: each was written as one array object; it must have the expected type
    // and exactly the expected length.

    private static String expected(String type, int length) {
        return "a " + type + "[" + length + "]";
    }

    @Override
    public void readArray(boolean[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        Object value = value(expected("boolean", length));
        if (!(value instanceof boolean[] a) || a.length != length) {
            throw mismatch(expected("boolean", length), value);
        }
        System.arraycopy(a, 0, destination, offset, length);
    }

    @Override
    public void readArray(byte[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        Object value = value(expected("byte", length));
        if (!(value instanceof byte[] a) || a.length != length) {
            throw mismatch(expected("byte", length), value);
        }
        System.arraycopy(a, 0, destination, offset, length);
    }

    @Override
    public void readArray(char[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        Object value = value(expected("char", length));
        if (!(value instanceof char[] a) || a.length != length) {
            throw mismatch(expected("char", length), value);
        }
        System.arraycopy(a, 0, destination, offset, length);
    }

    @Override
    public void readArray(short[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        Object value = value(expected("short", length));
        if (!(value instanceof short[] a) || a.length != length) {
            throw mismatch(expected("short", length), value);
        }
        System.arraycopy(a, 0, destination, offset, length);
    }

    @Override
    public void readArray(int[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        Object value = value(expected("int", length));
        if (!(value instanceof int[] a) || a.length != length) {
            throw mismatch(expected("int", length), value);
        }
        System.arraycopy(a, 0, destination, offset, length);
    }

    @Override
    public void readArray(long[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        Object value = value(expected("long", length));
        if (!(value instanceof long[] a) || a.length != length) {
            throw mismatch(expected("long", length), value);
        }
        System.arraycopy(a, 0, destination, offset, length);
    }

    @Override
    public void readArray(float[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        Object value = value(expected("float", length));
        if (!(value instanceof float[] a) || a.length != length) {
            throw mismatch(expected("float", length), value);
        }
        System.arraycopy(a, 0, destination, offset, length);
    }

    @Override
    public void readArray(double[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        Object value = value(expected("double", length));
        if (!(value instanceof double[] a) || a.length != length) {
            throw mismatch(expected("double", length), value);
        }
        System.arraycopy(a, 0, destination, offset, length);
    }

    /** Bytes the DataInput delivered (serialization overhead included). */
    @Override
    public long bytesRead() {
        return in.bytesRead();
    }

    @Override
    public void resetBytesRead() {
        in.resetBytesRead();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /**
     * InputStream view of the current message of a DataInput: returns -1 at the end of the message
     * (never reading into the next one), with a few bytes of push-back used to look ahead.
     */
    static final class MessageInputStream extends InputStream {
        static final int NO_PEEK = -2;

        /** Enough look-ahead for ObjectInputStream to read the longest block-data header (5 bytes). */
        private static final int LOOKAHEAD = 5;

        private final DataInput in;
        private final BlockInputStream blocks; // in, when it is one (fast paths), else null
        private final byte[] pushback = new byte[LOOKAHEAD];
        private int pushbackStart;
        private int pushbackEnd;
        private boolean endReached;

        /** While set, single-byte reads (ObjectInputStream's peeks) are recorded in lastPeek. */
        boolean trackPeeks;
        int lastPeek = NO_PEEK;

        MessageInputStream(DataInput in) {
            this.in = in;
            this.blocks = in instanceof BlockInputStream b ? b : null;
        }

        /** Forgets the look-ahead of the previous message (the block stream skips its rest). */
        void startMessage() {
            pushbackStart = 0;
            pushbackEnd = 0;
            endReached = false;
        }

        /** Whether a read of this message returned end-of-file. */
        boolean endReached() {
            return endReached;
        }

        /** Whether the message has more bytes (may block until the next one arrives or the message ends). */
        boolean hasMore() throws IOException {
            return pushbackStart < pushbackEnd || lookahead(1) > 0;
        }

        /** Moves bytes of the message into the push-back buffer until it holds {@code wanted} or the message ends. */
        private int lookahead(int wanted) throws IOException {
            if (pushbackStart > 0) {
                System.arraycopy(pushback, pushbackStart, pushback, 0, pushbackEnd - pushbackStart);
                pushbackEnd -= pushbackStart;
                pushbackStart = 0;
            }
            while (pushbackEnd < wanted && !endReached) {
                try {
                    pushback[pushbackEnd] = in.readByte();
                    pushbackEnd++;
                } catch (EndOfMessageException e) {
                    endReached = true;
                }
            }
            return pushbackEnd;
        }

        @Override
        public int read() throws IOException {
            int value;
            if (pushbackStart < pushbackEnd) {
                value = pushback[pushbackStart++] & 0xff;
            } else if (endReached) {
                value = -1;
            } else {
                try {
                    value = in.readByte() & 0xff;
                } catch (EndOfMessageException e) {
                    endReached = true;
                    value = -1;
                }
            }
            if (trackPeeks) {
                lastPeek = value;
            }
            return value;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return 0;
            }
            int done = Math.min(len, pushbackEnd - pushbackStart);
            System.arraycopy(pushback, pushbackStart, b, off, done);
            pushbackStart += done;
            if (done < len && !endReached) {
                if (blocks != null) {
                    int n = blocks.readUpTo(b, off + done, len - done);
                    if (n < len - done) {
                        endReached = true;
                    }
                    done += Math.max(n, 0);
                } else {
                    while (done < len) {
                        try {
                            b[off + done] = in.readByte();
                            done++;
                        } catch (EndOfMessageException e) {
                            endReached = true;
                            break;
                        }
                    }
                }
            }
            return done == 0 ? -1 : done;
        }

        /**
         * Bytes of the message readable now. Looks ahead (blocking if needed) a few bytes, so that
         * the ObjectInputStream can always parse a block-data header while draining a message.
         */
        @Override
        public int available() throws IOException {
            int n = lookahead(LOOKAHEAD);
            return blocks == null || endReached ? n : n + blocks.bufferedInBlock();
        }

        @Override
        public void close() {
            // The DataInput is closed through SunSerializationInput.close().
        }
    }
}
