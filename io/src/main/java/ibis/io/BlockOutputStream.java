package ibis.io;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * {@link DataOutput} over a {@link ByteSink} that frames the data into blocks and messages
 * (wire format: io/README.md, "Block framing").
 *
 * <p>A block is a 4-byte big-endian header (bits 0..30: payload length, bit 31: last block of the
 * message) followed by the payload. Payload primitives are written in this stream's byte order
 * ({@link #order()}, normally {@link ByteOrder#nativeOrder()}), which the receiver learns in the
 * connection handshake. A non-final block is sent when the block is full (the first block of a
 * message may be made smaller, see the four-argument constructor) or on {@link #flush()} (only if
 * something is buffered); the final block, possibly empty, on {@link #endMessage()}.
 *
 * <p>Hot path: once constructed, writing primitives, arrays, flushing and ending messages allocate
 * nothing. The payload buffer, the header buffer, the two-element gathering array and all typed
 * views are created here, once. The payload buffer is a heap array: primitives are stored with
 * byte-array {@link VarHandle}s (plain memory stores after JIT compilation, no per-value buffer
 * bookkeeping), arrays are copied in bulk through typed views of it, and the sink gets it wrapped
 * in a heap {@link ByteBuffer}. Not thread-safe: one writer at a time (the port serialises).
 */
public sealed class BlockOutputStream implements DataOutput permits BlockOutputStream.ForeignOrder {

    /** Smallest accepted buffer size: every primitive (at most 8 bytes) must fit in one block. */
    public static final int MIN_BUFFER_SIZE = 16;

    /** Largest accepted buffer size (the header has 31 bits of length). */
    public static final int MAX_BUFFER_SIZE = 1 << 30;

    /** Bit 31 of a block header: this block ends the message. */
    static final int LAST_BLOCK_FLAG = 0x8000_0000;

    // Byte-array views in this JVM's byte order; a stream of the other order byte-swaps the value.
    static final VarHandle CHAR_NATIVE = MethodHandles.byteArrayViewVarHandle(char[].class, ByteOrder.nativeOrder());
    static final VarHandle SHORT_NATIVE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.nativeOrder());
    static final VarHandle INT_NATIVE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
    static final VarHandle LONG_NATIVE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final ByteSink sink;
    private final byte[] bytes;       // payload of the block being filled: bytes[0 .. position)
    private int position;
    /**
     * Where the block being filled ends (position never passes it): {@link #firstBlockSize} for
     * the first block of a message, the whole buffer for the blocks after it.
     */
    private int end;
    private final int firstBlockSize;
    private final ByteBuffer buffer;  // wraps bytes; position/limit set only to hand a block to the sink
    private final ByteBuffer header;  // 4 bytes, big-endian
    private final ByteBuffer[] block; // {header, buffer}: one gathering write per block, reused
    private final ByteBuffer[] blockWith; // {header, buffer, part of an application's byte[]}
    /**
     * Wraps the last application array sent by reference (see sendBlockWith); keeps that one array
     * reachable. A new wrapper only for a new array: a sender that reuses its array allocates nothing.
     */
    private Buffer arrayWrapper;
    /**
     * A byte buffer written by reference whose block is not sent yet ({@link #writeByteBuffer}), or
     * null: it goes out with the next block the stream sends, as that block's last part, so a
     * message that ends right after it needs no block of its own for the end (the IPL lets a
     * written buffer change only after {@code flush()} or {@code finish()}). While one is pending
     * the block counts as full ({@code end == position}), so every write sends it first.
     */
    private ByteBuffer pendingPart;
    private int pendingFrom;
    private int pendingBytes;
    /** The sink takes arrays of other primitives than bytes as they are (and this stream is in native order). */
    private final boolean arraysByReference;

    /**
     * An array part of at least this many bytes that completes a block is sent from the array
     * itself: a byte[] part always (any sink takes a byte buffer), one of another primitive type
     * when the sink {@linkplain ByteSink#takesArrays() takes arrays}.
     */
    static final int BY_REFERENCE = 4096;

    /** Typed views of the block buffer at every alignment, in the stream's byte order. */
    private final ByteViews views;

    // payload bytes sent before the current buffer (minus a reset); position adds the rest
    private long bytesWrittenBase;
    private boolean closed;

    /**
     * Creates a stream that writes payload in this JVM's native byte order.
     *
     * @param bufferSize the payload bytes per block, between {@link #MIN_BUFFER_SIZE} and
     *        {@link #MAX_BUFFER_SIZE}; should not exceed the receiver's {@code ibis.io.block.max}
     */
    public BlockOutputStream(ByteSink sink, int bufferSize) {
        this(sink, bufferSize, ByteOrder.nativeOrder(), bufferSize);
    }

    /**
     * Creates a stream that writes payload in the given byte order. Transports use the native
     * order ({@link #BlockOutputStream(ByteSink, int)}); a forced order exists to test receivers
     * against a peer of the other endianness.
     */
    public static BlockOutputStream create(ByteSink sink, int bufferSize, ByteOrder order) {
        return create(sink, bufferSize, order, bufferSize);
    }

    /**
     * Creates a stream in the given byte order whose first block of every message is sent once it
     * holds {@code firstBlockSize} bytes (see the constructor). A stream in the other order than
     * this JVM's is of a subclass that byte-swaps every value; as only tests make one, the JIT
     * sees no subclass in a transport's JVM and compiles the native writes without an order check.
     */
    public static BlockOutputStream create(ByteSink sink, int bufferSize, ByteOrder order, int firstBlockSize) {
        return Objects.requireNonNull(order, "order") == ByteOrder.nativeOrder()
                ? new BlockOutputStream(sink, bufferSize, order, firstBlockSize)
                : new ForeignOrder(sink, bufferSize, order, firstBlockSize);
    }

    /** A stream whose payload is in the other byte order than this JVM's: values are byte-swapped. */
    static final class ForeignOrder extends BlockOutputStream {
        private ForeignOrder(ByteSink sink, int bufferSize, ByteOrder order, int firstBlockSize) {
            super(sink, bufferSize, order, firstBlockSize);
        }

        @Override
        char order(char v) {
            return Character.reverseBytes(v);
        }

        @Override
        short order(short v) {
            return Short.reverseBytes(v);
        }

        @Override
        int order(int v) {
            return Integer.reverseBytes(v);
        }

        @Override
        long order(long v) {
            return Long.reverseBytes(v);
        }
    }

    /** A value in the stream's byte order (this JVM's here; swapped in {@link ForeignOrder}). */
    char order(char v) {
        return v;
    }

    short order(short v) {
        return v;
    }

    int order(int v) {
        return v;
    }

    long order(long v) {
        return v;
    }

    /**
     * A stream whose messages start with a smaller block: the first block of every message
     * is sent once it holds {@code firstBlockSize} bytes, the blocks after it once they hold
     * {@code bufferSize}. A message larger than the first block then reaches the receiver in two
     * or more parts, and the receiver deserializes the first part while the sender still
     * serializes the rest (a large object graph sent in a request-reply exchange takes the longer
     * of the two times instead of their sum, where each side has a processor); messages up to
     * {@code firstBlockSize} travel as one block as before. The bytes are those of any other
     * split: the reader accepts blocks of any size.
     *
     * @param firstBlockSize payload bytes of the first block of a message, between
     *        {@link #MIN_BUFFER_SIZE} and {@code bufferSize}
     */
    private BlockOutputStream(ByteSink sink, int bufferSize, ByteOrder order, int firstBlockSize) {
        this.sink = Objects.requireNonNull(sink, "sink");
        Objects.requireNonNull(order, "order");
        if (bufferSize < MIN_BUFFER_SIZE || bufferSize > MAX_BUFFER_SIZE) {
            throw new IllegalArgumentException("block buffer size " + bufferSize + " not in ["
                    + MIN_BUFFER_SIZE + ", " + MAX_BUFFER_SIZE + "]");
        }
        if (firstBlockSize < MIN_BUFFER_SIZE || firstBlockSize > bufferSize) {
            throw new IllegalArgumentException("first block size " + firstBlockSize + " not in ["
                    + MIN_BUFFER_SIZE + ", " + bufferSize + "]");
        }
        bytes = new byte[bufferSize];
        this.firstBlockSize = firstBlockSize;
        end = firstBlockSize;
        buffer = ByteBuffer.wrap(bytes).order(order);
        header = ByteBuffer.allocate(4).order(ByteOrder.BIG_ENDIAN);
        block = new ByteBuffer[] {header, buffer};
        blockWith = new ByteBuffer[] {header, buffer, null};
        views = new ByteViews(buffer, order);
        arraysByReference = order == ByteOrder.nativeOrder() && sink.takesArrays();
    }

    /** Byte order of the payload (this JVM's native order); the peer must be told in the handshake. */
    public ByteOrder order() {
        return buffer.order();
    }

    /** The payload capacity of one block. */
    public int bufferSize() {
        return bytes.length;
    }

    /** Sends what is buffered as the final block of the current message (possibly empty). */
    public void endMessage() throws IOException {
        sendBlock(true);
    }

    /** Sends a non-final block when the buffer is non-empty (or a part is pending); does nothing otherwise. */
    @Override
    public void flush() throws IOException {
        if (position > 0 || pendingPart != null) {
            sendBlock(false);
        }
    }

    private void sendBlock(boolean last) throws IOException {
        if (closed) {
            throw new IOException("block output stream is closed");
        }
        if (pendingPart != null) {
            sendPending(last);
            return;
        }
        int length = position;
        buffer.limit(length).position(0);
        bytesWrittenBase += length;
        header.clear();
        header.putInt(last ? length | LAST_BLOCK_FLAG : length);
        header.flip();
        try {
            sink.write(block, 0, 2);
        } finally {
            position = 0; // on failure the sink is dead anyway; never resend a partial block
            end = last ? firstBlockSize : bytes.length;
            buffer.clear();
        }
    }

    /** Makes room for {@code size} more bytes (size <= MIN_BUFFER_SIZE), sending a block if needed. */
    private void room(int size) throws IOException {
        if (end - position < size) {
            sendBlock(false);
        }
    }

    /**
     * An array that does not fit the rest of a message's first block makes that block a full one:
     * the early first block is for graphs of many small values (the receiver starts on them while
     * the sender writes the rest); a large array is better received whole, since the receiver
     * allocates it from the bytes that have arrived.
     */
    private void widen(long bytesToWrite) {
        if (end != bytes.length && bytesToWrite > end - position && pendingPart == null) {
            end = bytes.length;
        }
    }

    /** Free bytes in the current block. */
    private int free() {
        return end - position;
    }

    // ---- runs: the primitive fields of an object written with one bounds check (see io/README.md)

    /**
     * Reserves the next {@code n} payload bytes (at most {@link #runMax()}) as a run in the
     * current block, sending the block first when they do not fit: they are then written with
     * {@link #putInt} and its siblings at offsets {@code p} to {@code p + n - 1} of the returned
     * {@code p}, before any other write to this stream. The bytes are those the same values
     * written one by one would give.
     */
    public int reserve(int n) throws IOException {
        int p = position;
        if (end - p >= n && n >= 0) {
            position = p + n;
            return p;
        }
        return reserveSlow(n);
    }

    private int reserveSlow(int n) throws IOException {
        if (n < 0 || n > firstBlockSize) {
            throw new IllegalArgumentException("run of " + n + " bytes not in [0, " + firstBlockSize + "]");
        }
        sendBlock(false);
        position = n;
        return 0;
    }

    /**
     * The largest run {@link #reserve} accepts: the smallest block this stream sends (the first
     * block of a message; at least {@link #MIN_BUFFER_SIZE}), so that a run always fits an empty block.
     */
    public int runMax() {
        return firstBlockSize;
    }

    /** Writes a boolean of a reserved run. */
    public void putBoolean(int p, boolean value) {
        bytes[p] = value ? (byte) 1 : (byte) 0;
    }

    /** Writes a byte of a reserved run. */
    public void putByte(int p, byte value) {
        bytes[p] = value;
    }

    /** Writes a char of a reserved run. */
    public void putChar(int p, char value) {
        CHAR_NATIVE.set(bytes, p, order(value));
    }

    /** Writes a short of a reserved run. */
    public void putShort(int p, short value) {
        SHORT_NATIVE.set(bytes, p, order(value));
    }

    /** Writes an int of a reserved run. */
    public void putInt(int p, int value) {
        INT_NATIVE.set(bytes, p, order(value));
    }

    /** Writes a long of a reserved run. */
    public void putLong(int p, long value) {
        LONG_NATIVE.set(bytes, p, order(value));
    }

    /** Writes a float of a reserved run (its raw bits, as writeFloat). */
    public void putFloat(int p, float value) {
        int v = Float.floatToRawIntBits(value);
        INT_NATIVE.set(bytes, p, order(v));
    }

    /** Writes a double of a reserved run (its raw bits, as writeDouble). */
    public void putDouble(int p, double value) {
        long v = Double.doubleToRawLongBits(value);
        LONG_NATIVE.set(bytes, p, order(v));
    }

    @Override
    public void writeBoolean(boolean value) throws IOException {
        room(1);
        bytes[position++] = value ? (byte) 1 : (byte) 0;
    }

    @Override
    public void writeByte(byte value) throws IOException {
        room(1);
        bytes[position++] = value;
    }

    @Override
    public void writeChar(char value) throws IOException {
        if (end - position < 2) {
            sendBlock(false);
        }
        char v = value;
        CHAR_NATIVE.set(bytes, position, order(v));
        position += 2;
    }

    @Override
    public void writeShort(short value) throws IOException {
        if (end - position < 2) {
            sendBlock(false);
        }
        short v = value;
        SHORT_NATIVE.set(bytes, position, order(v));
        position += 2;
    }

    @Override
    public void writeInt(int value) throws IOException {
        if (end - position < 4) {
            sendBlock(false);
        }
        int v = value;
        INT_NATIVE.set(bytes, position, order(v));
        position += 4;
    }

    @Override
    public void writeLong(long value) throws IOException {
        if (end - position < 8) {
            sendBlock(false);
        }
        long v = value;
        LONG_NATIVE.set(bytes, position, order(v));
        position += 8;
    }

    @Override
    public void writeFloat(float value) throws IOException {
        if (end - position < 4) {
            sendBlock(false);
        }
        int v = Float.floatToRawIntBits(value);
        INT_NATIVE.set(bytes, position, order(v));
        position += 4;
    }

    @Override
    public void writeDouble(double value) throws IOException {
        if (end - position < 8) {
            sendBlock(false);
        }
        long v = Double.doubleToRawLongBits(value);
        LONG_NATIVE.set(bytes, position, order(v));
        position += 8;
    }

    /**
     * Writes the characters of {@code value} as UTF-16 chars in this stream's byte order, straight
     * from the string into the block buffer (no intermediate array). Used by the data
     * serialization's {@code writeString}.
     */
    void writeChars(String value) throws IOException {
        int length = value.length();
        for (int i = 0; i < length; ) {
            room(2);
            int n = Math.min(length - i, free() >>> 1);
            int p = position;
            for (int end = i + n; i < end; i++, p += 2) {
                char c = value.charAt(i);
                CHAR_NATIVE.set(bytes, p, order(c));
            }
            position = p;
        }
    }

    @Override
    public void writeArray(boolean[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        widen(length);
        while (length > 0) {
            room(1);
            int n = Math.min(length, free());
            int p = position;
            for (int end = offset + n; offset < end; offset++) {
                bytes[p++] = source[offset] ? (byte) 1 : (byte) 0;
            }
            position = p;
            length -= n;
        }
    }

    @Override
    public void writeArray(byte[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        widen(length);
        while (length > 0) {
            room(1);
            int n = Math.min(length, free());
            if (n == length || n < BY_REFERENCE) {
                System.arraycopy(source, offset, bytes, position, n);
                position += n;
            } else {
                // The array fills the rest of this block: send the block straight from it (no copy).
                sendBlockWith(wrapper(source), offset, n, n);
            }
            offset += n;
            length -= n;
        }
    }

    /**
     * Whether {@code n} elements of {@code 1 << shift} bytes, the part of an array of {@code length}
     * more elements that fits the current block, go by reference: only a part that completes the
     * block (the array goes on after it) and is large, and only to a sink that takes arrays.
     */
    private boolean byReference(int n, int length, int shift) {
        return n < length && n >= BY_REFERENCE >>> shift && arraysByReference;
    }

    /**
     * Sends a non-final block made of the buffered bytes followed by elements {@code [offset ..
     * offset + n)} of {@code part}, a wrapper of an application's array, {@code bytes} bytes in
     * all, without copying the array: the same block as if it had been copied into the buffer
     * first. A byte[] goes to the sink as a third buffer, other arrays as the sink's array part.
     */
    private void sendBlockWith(Buffer part, int offset, int n, int bytes) throws IOException {
        sendBlockWith(part, offset, n, bytes, false);
    }

    /** {@link #sendBlockWith(Buffer, int, int, int)}, as the message's final block when {@code last}. */
    private void sendBlockWith(Buffer part, int offset, int n, int bytes, boolean last) throws IOException {
        if (closed) {
            throw new IOException("block output stream is closed");
        }
        int length = position + bytes;
        buffer.limit(position).position(0);
        bytesWrittenBase += length;
        header.clear();
        header.putInt(last ? length | LAST_BLOCK_FLAG : length);
        header.flip();
        part.limit(offset + n).position(offset);
        try {
            if (part instanceof ByteBuffer b) {
                blockWith[2] = b;
                sink.write(blockWith, 0, 3);
            } else {
                sink.write(block, 0, 2, part);
            }
        } finally {
            blockWith[2] = null;
            position = 0;
            end = last ? firstBlockSize : this.bytes.length;
            buffer.clear();
        }
    }

    /**
     * Sends the block of the pending part (the buffered bytes, then the part), as the message's final
     * block when {@code last}. The part's buffer gets its position and limit back afterwards (its
     * owner may have moved them since it was written).
     */
    private void sendPending(boolean last) throws IOException {
        ByteBuffer part = pendingPart;
        pendingPart = null;
        int limit = part.limit();
        int at = part.position();
        try {
            part.limit(part.capacity()); // so that any position the part had is valid again
            sendBlockWith(part, pendingFrom, pendingBytes, pendingBytes, last);
        } finally {
            part.limit(limit).position(at);
        }
    }

    @Override
    public void writeArray(char[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        writeElements(source, offset, length, 1);
    }

    @Override
    public void writeArray(short[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        writeElements(source, offset, length, 1);
    }

    @Override
    public void writeArray(int[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        writeElements(source, offset, length, 2);
    }

    @Override
    public void writeArray(long[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        writeElements(source, offset, length, 3);
    }

    @Override
    public void writeArray(float[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        writeElements(source, offset, length, 2);
    }

    @Override
    public void writeArray(double[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        writeElements(source, offset, length, 3);
    }

    /**
     * Writes elements {@code [offset .. offset + length)} of {@code source}, a primitive array of
     * elements of {@code 1 << shift} bytes other than byte[]: copied into the blocks, except for
     * large parts that complete a block, which go to a sink that takes arrays by reference. (Inlined
     * into each writeArray, where the array's type is known, the type tests fold away.)
     */
    private void writeElements(Object source, int offset, int length, int shift) throws IOException {
        widen((long) length << shift);
        while (length > 0) {
            room(1 << shift);
            int p = position;
            int n = Math.min(length, free() >>> shift);
            if (byReference(n, length, shift)) {
                sendBlockWith(wrapper(source), offset, n, n << shift);
            } else {
                copy(p, source, offset, n);
                position = p + (n << shift);
            }
            offset += n;
            length -= n;
        }
    }

    private void copy(int p, Object source, int offset, int n) {
        if (source instanceof int[] a) {
            views.put(p, a, offset, n);
        } else if (source instanceof double[] a) {
            views.put(p, a, offset, n);
        } else if (source instanceof long[] a) {
            views.put(p, a, offset, n);
        } else if (source instanceof float[] a) {
            views.put(p, a, offset, n);
        } else if (source instanceof short[] a) {
            views.put(p, a, offset, n);
        } else {
            views.put(p, (char[]) source, offset, n);
        }
    }

    /** A wrapper of {@code array}: the last one made when it wraps the same array. */
    private Buffer wrapper(Object array) {
        Buffer w = arrayWrapper;
        if (w == null || w.array() != array) {
            w = ByteViews.wrap(array);
            arrayWrapper = w;
        }
        return w;
    }

    @Override
    public void writeByteBuffer(ByteBuffer value) throws IOException {
        widen(value.remaining());
        while (value.hasRemaining()) {
            room(1);
            int n = Math.min(value.remaining(), free());
            if (n >= BY_REFERENCE && sink.partsAsMessages()) {
                // The sink sends it as a message of its own, which the receiving transport can put
                // straight into a direct buffer the reader reads into; it goes with the next block
                // sent (pendingPart), the final one when the message ends here.
                int from = value.position();
                pendingPart = value;
                pendingFrom = from;
                pendingBytes = n;
                end = position;
                value.position(from + n);
            } else {
                value.get(bytes, position, n);
                position += n;
            }
        }
    }

    @Override
    public long bytesWritten() {
        return bytesWrittenBase + position + (pendingPart != null ? pendingBytes : 0);
    }

    @Override
    public void resetBytesWritten() {
        bytesWrittenBase = -(position + (pendingPart != null ? pendingBytes : 0));
    }

    /**
     * Sends what is buffered as a non-final block and closes the sink. Idempotent. A message that
     * was not ended stays unfinished on the wire: the receiver sees the stream end inside it.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            flush();
        } finally {
            closed = true;
            sink.close();
        }
    }
}
