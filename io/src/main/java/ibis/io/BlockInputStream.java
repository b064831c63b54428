package ibis.io;

import java.io.IOException;
import java.io.StreamCorruptedException;
import java.lang.invoke.VarHandle;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * {@link DataInput} over a {@link ByteSource} that reads the blocks and messages framed by a
 * {@link BlockOutputStream} (wire format: io/README.md, "Block framing").
 *
 * <p>Reads within a message cross block boundaries transparently; a read past the final block of
 * the message throws {@link EndOfMessageException} ("past end of message") and consumes nothing
 * of the next message. {@link #endMessage()} skips what is left of the current message. Every
 * block length is checked against the configured maximum ({@code ibis.io.block.max}) before it is
 * used; a larger one gives a {@link StreamCorruptedException} naming the stream offset. Nothing is
 * ever allocated from a length read from the wire: payload streams through one fixed buffer.
 *
 * <p>The stream reads ahead: one {@link ByteSource#read} may deliver bytes of later blocks and
 * messages, which stay buffered here ({@link #awaitMessage} reports them).
 *
 * <p>Hot path: once constructed, reading primitives and arrays and ending messages allocate
 * nothing (the buffer and all typed views are created here). The buffer is a heap array read with
 * byte-array {@link VarHandle}s and bulk copies through typed views; the source fills it through a
 * heap {@link ByteBuffer} that wraps it. Not thread-safe: one reader at a time.
 */
public final class BlockInputStream implements DataInput {

    private final ByteSource source;
    private final byte[] bytes;       // received, unconsumed bytes in [position, limit); peer order;
                                      // [capacity, capacity + CLAIM_MAX) holds a claimed run that straddles blocks
    private final int capacity;       // the receive buffer: bytes[0, capacity)
    private int position;
    private int limit;
    private final boolean swap;       // the peer's byte order is not ours: primitives are byte-swapped
    private final boolean littleEndian; // the peer's byte order
    private final ByteBuffer buffer;  // wraps bytes: the source's destination, and the typed views
    /** Wraps the last destination array of a direct read (see readDirect); keeps that one array reachable. */
    private Buffer directTarget;
    /** The source reads straight into arrays of other primitives than bytes (and the peer's order is ours). */
    private final boolean arraysDirect;
    private final ByteBuffer scratch; // assembles a primitive that straddles a block boundary
    private final int maxBlockLength;

    /** Typed views of the receive buffer at every alignment, in the peer's order (no view per read). */
    private final ByteViews views;

    // The current block's payload ends at buffer index blockEnd (beyond limit while it has not all
    // arrived; shifted with the buffer contents when the buffer is compacted). end = min(limit,
    // blockEnd): the bytes of the current block that can be read now are [position, end), so a
    // primitive read checks one bound and updates only position.
    private long blockEnd;
    private int end;
    private boolean lastBlock;   // the current block is the final one of the message
    // part of the current block was received straight into an array (see SHORT_READ_AHEAD)
    private boolean directInBlock;
    // Counters are kept per block: bytes read = bytesReadBase + (blockLength - blockRemaining());
    // likewise the stream offset.
    private int blockLength;       // payload length of the current block
    private long bytesReadBase;    // payload bytes read before the current block (minus a reset)
    private long streamOffsetBase; // raw stream bytes (headers + payload) before the current block's payload

    /**
     * Byte arrays of at least this many bytes are read straight from the source when none of their
     * bytes are buffered.
     */
    static final int DIRECT_READ = 4096;

    /**
     * Read-ahead beyond a block header, in bytes, when the block before went (partly) straight
     * from the source into an array: a large array that follows its header in the next block then
     * also arrives mostly straight into the array, instead of its first buffer-full being received
     * into the buffer and copied again. Otherwise the read-ahead is the whole buffer.
     */
    static final int SHORT_READ_AHEAD = DIRECT_READ;

    /**
     * Creates a stream with the block length limit from the system property
     * {@code ibis.io.block.max} (default 16 MiB).
     *
     * @param bufferSize size of the receive buffer, at least {@link BlockOutputStream#MIN_BUFFER_SIZE}
     * @param peerOrder the byte order of the sender's payload, learnt in the connection handshake
     */
    public BlockInputStream(ByteSource source, int bufferSize, ByteOrder peerOrder) {
        this(source, bufferSize, peerOrder, IoProperties.blockMax(null));
    }

    /**
     * Creates a stream with an explicit block length limit.
     *
     * @param maxBlockLength the largest accepted block payload, in bytes (at least 1)
     */
    public BlockInputStream(ByteSource source, int bufferSize, ByteOrder peerOrder, int maxBlockLength) {
        this.source = Objects.requireNonNull(source, "source");
        Objects.requireNonNull(peerOrder, "peerOrder");
        if (bufferSize < BlockOutputStream.MIN_BUFFER_SIZE || bufferSize > BlockOutputStream.MAX_BUFFER_SIZE) {
            throw new IllegalArgumentException("block buffer size " + bufferSize + " not in ["
                    + BlockOutputStream.MIN_BUFFER_SIZE + ", " + BlockOutputStream.MAX_BUFFER_SIZE + "]");
        }
        if (maxBlockLength < 1) {
            throw new IllegalArgumentException("maximum block length must be positive: " + maxBlockLength);
        }
        this.maxBlockLength = maxBlockLength;
        capacity = bufferSize;
        bytes = new byte[bufferSize + CLAIM_MAX];
        swap = peerOrder != ByteOrder.nativeOrder();
        littleEndian = peerOrder == ByteOrder.LITTLE_ENDIAN;
        buffer = ByteBuffer.wrap(bytes, 0, bufferSize).slice().order(peerOrder);
        scratch = ByteBuffer.allocate(8).order(peerOrder);
        arraysDirect = !swap && source.takesArrays();
        views = new ByteViews(buffer, peerOrder);
    }

    /** The byte order in which the payload is interpreted (the peer's). */
    public ByteOrder order() {
        return buffer.order();
    }

    /**
     * Waits until the next message has started to arrive (or the stream ended). Bytes already
     * buffered by read-ahead count as arrived.
     *
     * @param timeoutMillis negative: do not wait (poll); 0: wait without limit; positive: at most that long
     * @return true when the next message (or end of stream) is ready to be read
     */
    public boolean awaitMessage(long timeoutMillis) throws IOException {
        if (limit > position) {
            return true;
        }
        // Not available(): a source may always answer 0 there; awaitData(-1) is its poll.
        return source.awaitData(timeoutMillis < 0 ? -1 : timeoutMillis);
    }

    /**
     * {@link #awaitMessage awaitMessage(-1)} for a reader that polls in a loop while it waits
     * ({@link ByteSource#awaitDataSpinning}): never blocks, but the source may look a little longer.
     */
    public boolean awaitMessageSpinning() throws IOException {
        if (limit > position) {
            return true;
        }
        return source.awaitDataSpinning();
    }

    /**
     * Skips whatever is left of the current message, so that the next read starts the next
     * message. Blocks until the final block of the current message has arrived. Skipped bytes
     * count in {@link #bytesRead()}.
     */
    public void endMessage() throws IOException {
        for (;;) {
            while (blockEnd > position) {
                if (limit == position) {
                    fill(1);
                }
                position = end;
            }
            if (lastBlock) {
                break;
            }
            nextBlock();
        }
        lastBlock = false; // the next read starts by reading the next message's first header
    }

    /**
     * Whether the current message has unread payload. May block until the next block header of
     * this message arrives; never reads into the next message.
     */
    public boolean hasRemaining() throws IOException {
        while (blockEnd == position) {
            if (lastBlock) {
                return false;
            }
            nextBlock();
        }
        return true;
    }

    /**
     * Reads {@code length} bytes, or fewer when the current message ends first.
     *
     * @return the number of bytes read, or -1 when {@code length > 0} and the message has no bytes left
     */
    public int readUpTo(byte[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        int done = 0;
        while (done < length) {
            if (!hasRemaining()) {
                break;
            }
            if (limit == position) {
                fill(1);
            }
            int n = Math.min(length - done, end - position);
            System.arraycopy(bytes, position, destination, offset + done, n);
            position += n;
            done += n;
        }
        return done == 0 && length > 0 ? -1 : done;
    }

    /**
     * Payload bytes left in the current message when that is known (the current block is its
     * final block), else -1. Lets a reader bound a claimed length by what can still arrive.
     */
    long knownRemaining() {
        return lastBlock ? blockRemaining() : -1;
    }

    /** Raw stream bytes (block headers and payload) consumed so far, for error messages. */
    long streamOffset() {
        return streamOffsetBase + (blockLength - blockRemaining());
    }

    /** Payload bytes of the current block that are buffered and can be read without blocking. */
    int bufferedInBlock() {
        return end - position;
    }

    /** Payload bytes of the current block not consumed yet (buffered or not). */
    private int blockRemaining() {
        return (int) (blockEnd - position);
    }

    /**
     * Waits until at least {@code min(wanted, rest of the current block, buffer size)} bytes of the
     * current block have arrived, and returns how many have (buffered here, or held by the source
     * and readable without blocking; at most the rest of the block). Lets a reader size an
     * allocation by bytes that have really arrived. Bytes the source holds already are not moved
     * into the buffer for this (that would cost a compaction of the buffer).
     */
    int prefetch(int wanted) throws IOException {
        int target = Math.min(Math.max(wanted, 0), Math.min(blockRemaining(), capacity));
        int have = bufferedInBlock();
        if (have >= target) {
            return have;
        }
        long arrived = Math.min((long) have + source.available(), blockRemaining());
        if (arrived >= target) {
            return (int) arrived;
        }
        fill(target - (limit - position));
        return bufferedInBlock();
    }

    // ---- block and buffer management

    /** Reads the next block header of the current message; blockRemaining() must be 0. */
    private void nextBlock() throws IOException {
        nextBlock(directInBlock ? SHORT_READ_AHEAD : capacity);
    }

    /**
     * nextBlock, receiving at most {@code readAhead} bytes (at least 4) beyond those buffered when
     * the header has to be received first.
     */
    private void nextBlock(int readAhead) throws IOException {
        if (lastBlock) {
            throw new EndOfMessageException();
        }
        bytesReadBase += blockLength; // the current block is consumed completely
        streamOffsetBase += blockLength;
        blockLength = 0;
        directInBlock = false;
        if (limit - position < 4) {
            fill(4 - (limit - position), readAhead);
        }
        int p = position;
        int word = (bytes[p] & 0xff) << 24 | (bytes[p + 1] & 0xff) << 16 | (bytes[p + 2] & 0xff) << 8
                | (bytes[p + 3] & 0xff);
        int length = word & ~BlockOutputStream.LAST_BLOCK_FLAG;
        if (length > maxBlockLength) {
            throw new StreamCorruptedException("block length " + length + " exceeds the maximum "
                    + maxBlockLength + " (" + IoProperties.BLOCK_MAX + ") in the block header at stream offset "
                    + streamOffsetBase);
        }
        position = p + 4;
        streamOffsetBase += 4;
        blockLength = length;
        blockEnd = (long) position + length;
        end = (int) Math.min(limit, blockEnd);
        lastBlock = word < 0;
    }

    /** Receives at least {@code minimum} more bytes (minimum <= free space after compacting). */
    private void fill(int minimum) throws IOException {
        fill(minimum, capacity);
    }

    /** fill, receiving at most {@code maximum} (>= minimum) more bytes. */
    private void fill(int minimum, int maximum) throws IOException {
        int left = limit - position;
        if (position > 0) {
            System.arraycopy(bytes, position, bytes, 0, left);
            blockEnd -= position;
            position = 0;
            limit = left;
        }
        buffer.limit((int) Math.min(capacity, (long) left + maximum)).position(left);
        try {
            source.read(buffer, minimum);
        } finally {
            limit = buffer.position();
            end = (int) Math.min(limit, blockEnd);
        }
    }

    /**
     * Makes {@code size} bytes of the current block readable from the buffer, or returns false when
     * the value straddles a block boundary (then the caller assembles it byte by byte).
     */
    private boolean contiguous(int size) throws IOException {
        while (blockEnd == position) {
            nextBlock();
        }
        if (blockEnd - position < size) {
            return false;
        }
        if (limit - position < size) {
            fill(size - (limit - position));
        }
        return true;
    }

    /** Collects a {@code size}-byte primitive that spans blocks into the scratch buffer. */
    private ByteBuffer straddled(int size) throws IOException {
        scratch.clear();
        for (int i = 0; i < size; i++) {
            scratch.put(readByte());
        }
        scratch.flip();
        return scratch;
    }

    // ---- primitives: the fast paths read one native-order value through a VarHandle (one load); a
    // peer of the other byte order has its values assembled from bytes.

    private int int16(byte[] b, int p) {
        if (!swap) {
            return (short) BlockOutputStream.SHORT_NATIVE.get(b, p);
        }
        return littleEndian ? (b[p] & 0xff) | b[p + 1] << 8 : b[p] << 8 | (b[p + 1] & 0xff);
    }

    private int int32(byte[] b, int p) {
        if (!swap) {
            return (int) BlockOutputStream.INT_NATIVE.get(b, p);
        }
        return littleEndian ? (b[p] & 0xff) | (b[p + 1] & 0xff) << 8 | (b[p + 2] & 0xff) << 16 | b[p + 3] << 24
                : b[p] << 24 | (b[p + 1] & 0xff) << 16 | (b[p + 2] & 0xff) << 8 | (b[p + 3] & 0xff);
    }

    private long int64(byte[] b, int p) {
        if (!swap) {
            return (long) BlockOutputStream.LONG_NATIVE.get(b, p);
        }
        long first = int32(b, p);
        long second = int32(b, p + 4);
        return littleEndian ? (first & 0xffff_ffffL) | second << 32 : first << 32 | (second & 0xffff_ffffL);
    }

    // ---- runs: the primitive fields of an object read with one bounds check (see io/README.md)

    /**
     * The largest run {@link #claim} accepts: {@link BlockOutputStream#MIN_BUFFER_SIZE}, so a
     * writer's run fits one block.
     */
    public static final int RUN_MAX = BlockOutputStream.MIN_BUFFER_SIZE;

    /** The largest claim: a run and the 4-byte header of the reference field after it (see io/README.md). */
    public static final int CLAIM_MAX = RUN_MAX + 4;

    /**
     * Claims the next {@code n} payload bytes (at most {@link #CLAIM_MAX}) as a run: they are read
     * with {@link #intAt} and its siblings at offsets {@code p} to {@code p + n - 1} of the returned
     * {@code p}, before any other read of this stream. A run that straddles two blocks is assembled
     * in a separate part of the buffer.
     */
    public int claim(int n) throws IOException {
        int p = position;
        if (end - p >= n && n >= 0) { // fast path: the whole run is buffered in this block
            position = p + n;
            return p;
        }
        return claimSlow(n);
    }

    private int claimSlow(int n) throws IOException {
        if (n < 0 || n > CLAIM_MAX) {
            throw new IllegalArgumentException("run of " + n + " bytes not in [0, " + CLAIM_MAX + "]");
        }
        if (contiguous(n)) {
            int p = position;
            position = p + n;
            return p;
        }
        for (int i = 0; i < n; i++) {
            byte b = readByte();
            bytes[capacity + i] = b;
        }
        return capacity;
    }

    /** A boolean of a claimed run. */
    public boolean booleanAt(int p) {
        return bytes[p] != 0;
    }

    /** A byte of a claimed run. */
    public byte byteAt(int p) {
        return bytes[p];
    }

    /** A char of a claimed run. */
    public char charAt(int p) {
        return (char) int16(bytes, p);
    }

    /** A short of a claimed run. */
    public short shortAt(int p) {
        return (short) int16(bytes, p);
    }

    /** An int of a claimed run. */
    public int intAt(int p) {
        return int32(bytes, p);
    }

    /** A long of a claimed run. */
    public long longAt(int p) {
        return int64(bytes, p);
    }

    /** A float of a claimed run. */
    public float floatAt(int p) {
        return Float.intBitsToFloat(int32(bytes, p));
    }

    /** A double of a claimed run. */
    public double doubleAt(int p) {
        return Double.longBitsToDouble(int64(bytes, p));
    }

    @Override
    public boolean readBoolean() throws IOException {
        return readByte() != 0;
    }

    @Override
    public byte readByte() throws IOException {
        int p = position;
        if (p < end) {
            position = p + 1;
            return bytes[p];
        }
        contiguous(1);
        return bytes[position++];
    }

    @Override
    public char readChar() throws IOException {
        int p = position;
        if (end - p >= 2) { // fast path: whole value buffered in this block
            position = p + 2;
            return (char) int16(bytes, p);
        }
        return readCharSlow();
    }

    private char readCharSlow() throws IOException {
        if (!contiguous(2)) {
            return straddled(2).getChar();
        }
        int p = position;
        position = p + 2;
        char v = (char) BlockOutputStream.CHAR_NATIVE.get(bytes, p);
        return swap ? Character.reverseBytes(v) : v;
    }

    @Override
    public short readShort() throws IOException {
        int p = position;
        if (end - p >= 2) { // fast path: whole value buffered in this block
            position = p + 2;
            return (short) int16(bytes, p);
        }
        return readShortSlow();
    }

    private short readShortSlow() throws IOException {
        if (!contiguous(2)) {
            return straddled(2).getShort();
        }
        int p = position;
        position = p + 2;
        short v = (short) BlockOutputStream.SHORT_NATIVE.get(bytes, p);
        return swap ? Short.reverseBytes(v) : v;
    }

    @Override
    public int readInt() throws IOException {
        int p = position;
        if (end - p >= 4) { // fast path: whole value buffered in this block
            position = p + 4;
            return int32(bytes, p);
        }
        return readIntSlow();
    }

    private int readIntSlow() throws IOException {
        if (!contiguous(4)) {
            return straddled(4).getInt();
        }
        int p = position;
        position = p + 4;
        int v = (int) BlockOutputStream.INT_NATIVE.get(bytes, p);
        return swap ? Integer.reverseBytes(v) : v;
    }

    @Override
    public long readLong() throws IOException {
        int p = position;
        if (end - p >= 8) { // fast path: whole value buffered in this block
            position = p + 8;
            return int64(bytes, p);
        }
        return readLongSlow();
    }

    private long readLongSlow() throws IOException {
        if (!contiguous(8)) {
            return straddled(8).getLong();
        }
        int p = position;
        position = p + 8;
        long v = (long) BlockOutputStream.LONG_NATIVE.get(bytes, p);
        return swap ? Long.reverseBytes(v) : v;
    }

    @Override
    public float readFloat() throws IOException {
        int p = position;
        if (end - p >= 4) { // fast path: whole value buffered in this block
            position = p + 4;
            return Float.intBitsToFloat(int32(bytes, p));
        }
        return readFloatSlow();
    }

    private float readFloatSlow() throws IOException {
        if (!contiguous(4)) {
            return straddled(4).getFloat();
        }
        int p = position;
        position = p + 4;
        int v = (int) BlockOutputStream.INT_NATIVE.get(bytes, p);
        return Float.intBitsToFloat(swap ? Integer.reverseBytes(v) : v);
    }

    @Override
    public double readDouble() throws IOException {
        int p = position;
        if (end - p >= 8) { // fast path: whole value buffered in this block
            position = p + 8;
            return Double.longBitsToDouble(int64(bytes, p));
        }
        return readDoubleSlow();
    }

    private double readDoubleSlow() throws IOException {
        if (!contiguous(8)) {
            return straddled(8).getDouble();
        }
        int p = position;
        position = p + 8;
        long v = (long) BlockOutputStream.LONG_NATIVE.get(bytes, p);
        return Double.longBitsToDouble(swap ? Long.reverseBytes(v) : v);
    }

    // ---- arrays: bulk copies of whole elements from the buffer; an element that straddles a
    // block boundary goes through the single-value path.

    /**
     * Number of whole {@code size}-byte elements readable now from the buffer (at least 1), or 0
     * when the next element straddles a block boundary.
     */
    private int elementsReadable(int size) throws IOException {
        if (!contiguous(size)) {
            return 0;
        }
        return (end - position) / size;
    }

    @Override
    public void readArray(boolean[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        while (length > 0) {
            int n = Math.min(length, elementsReadable(1));
            int p = position;
            for (int end = offset + n; offset < end; offset++) {
                destination[offset] = bytes[p++] != 0;
            }
            position = p;
            length -= n;
        }
    }

    @Override
    public void readArray(byte[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        while (length > 0) {
            if (position == limit && length >= DIRECT_READ) {
                // Nothing buffered and much to read: the source writes straight into the array
                // (no copy through the buffer); a block header in between is received on its own.
                if (blockEnd == position) {
                    nextBlock(4);
                }
                if (position == limit) {
                    int n = Math.min(length, blockRemaining());
                    readDirect(destination, offset, n);
                    offset += n;
                    length -= n;
                    continue;
                }
            }
            int n = Math.min(length, elementsReadable(1));
            System.arraycopy(bytes, position, destination, offset, n);
            position += n;
            offset += n;
            length -= n;
        }
    }

    /**
     * Receives the next {@code n} payload bytes of the current block (none buffered) straight into
     * {@code destination}.
     */
    private void readDirect(byte[] destination, int offset, int n) throws IOException {
        if (n > 0) {
            ByteBuffer target = (ByteBuffer) wrapper(destination);
            target.limit(offset + n).position(offset);
            source.read(target, n);
            blockEnd -= n; // consumed without passing through the buffer
            directInBlock = true;
        }
    }

    /**
     * For a readArray of elements of {@code 1 << shift} bytes (not bytes): when the source reads
     * into arrays, nothing is buffered and at least {@link #DIRECT_READ} bytes are left to read,
     * receives the elements of the current block straight into {@code destination} and returns
     * how many; 0 when the buffer has to be used (bytes buffered, a small rest, an element that
     * straddles two blocks).
     */
    private int readDirect(Object destination, int offset, int length, int shift) throws IOException {
        if (!arraysDirect || position != limit || ((long) length << shift) < DIRECT_READ) {
            return 0;
        }
        if (blockEnd == position) {
            nextBlock(4); // the header on its own (4 bytes), so that the payload stays unread
            if (position != limit) {
                return 0;
            }
        }
        int n = Math.min(length, blockRemaining() >>> shift);
        if (n > 0) {
            Buffer target = wrapper(destination);
            target.limit(offset + n).position(offset);
            source.read(target);
            blockEnd -= (long) n << shift; // consumed without passing through the buffer
            directInBlock = true;
        }
        return n;
    }

    /**
     * A wrapper of {@code array}: the last one made when it wraps the same array (a reader that
     * reuses its array, the usual receive loop, allocates nothing here once warm).
     */
    private Buffer wrapper(Object array) {
        Buffer w = directTarget;
        if (w == null || w.array() != array) {
            w = ByteViews.wrap(array);
            directTarget = w;
        }
        return w;
    }

    @Override
    public void readArray(char[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        while (length > 0) {
            int direct = readDirect(destination, offset, length, 1);
            if (direct > 0) {
                offset += direct;
                length -= direct;
                continue;
            }
            int n = Math.min(length, elementsReadable(2));
            if (n == 0) {
                destination[offset++] = readChar();
                length--;
                continue;
            }
            int p = position;
            views.get(p, destination, offset, n);
            position = p + (n << 1);
            offset += n;
            length -= n;
        }
    }

    @Override
    public void readArray(short[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        while (length > 0) {
            int direct = readDirect(destination, offset, length, 1);
            if (direct > 0) {
                offset += direct;
                length -= direct;
                continue;
            }
            int n = Math.min(length, elementsReadable(2));
            if (n == 0) {
                destination[offset++] = readShort();
                length--;
                continue;
            }
            int p = position;
            views.get(p, destination, offset, n);
            position = p + (n << 1);
            offset += n;
            length -= n;
        }
    }

    @Override
    public void readArray(int[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        while (length > 0) {
            int direct = readDirect(destination, offset, length, 2);
            if (direct > 0) {
                offset += direct;
                length -= direct;
                continue;
            }
            int n = Math.min(length, elementsReadable(4));
            if (n == 0) {
                destination[offset++] = readInt();
                length--;
                continue;
            }
            int p = position;
            views.get(p, destination, offset, n);
            position = p + (n << 2);
            offset += n;
            length -= n;
        }
    }

    @Override
    public void readArray(long[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        while (length > 0) {
            int direct = readDirect(destination, offset, length, 3);
            if (direct > 0) {
                offset += direct;
                length -= direct;
                continue;
            }
            int n = Math.min(length, elementsReadable(8));
            if (n == 0) {
                destination[offset++] = readLong();
                length--;
                continue;
            }
            int p = position;
            views.get(p, destination, offset, n);
            position = p + (n << 3);
            offset += n;
            length -= n;
        }
    }

    @Override
    public void readArray(float[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        while (length > 0) {
            int direct = readDirect(destination, offset, length, 2);
            if (direct > 0) {
                offset += direct;
                length -= direct;
                continue;
            }
            int n = Math.min(length, elementsReadable(4));
            if (n == 0) {
                destination[offset++] = readFloat();
                length--;
                continue;
            }
            int p = position;
            views.get(p, destination, offset, n);
            position = p + (n << 2);
            offset += n;
            length -= n;
        }
    }

    @Override
    public void readArray(double[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        while (length > 0) {
            int direct = readDirect(destination, offset, length, 3);
            if (direct > 0) {
                offset += direct;
                length -= direct;
                continue;
            }
            int n = Math.min(length, elementsReadable(8));
            if (n == 0) {
                destination[offset++] = readDouble();
                length--;
                continue;
            }
            int p = position;
            views.get(p, destination, offset, n);
            position = p + (n << 3);
            offset += n;
            length -= n;
        }
    }

    /**
     * As {@link #readArray(byte[], int, int)}: when nothing is buffered and at least
     * {@link #DIRECT_READ} bytes are left, the source writes straight into {@code value} (a
     * transport that receives into direct memory can then put a message straight into a direct
     * buffer of the application, with no copy at all).
     */
    @Override
    public void readByteBuffer(ByteBuffer value) throws IOException {
        while (value.hasRemaining()) {
            if (position == limit && value.remaining() >= DIRECT_READ) {
                if (blockEnd == position) {
                    nextBlock(4);
                }
                if (position == limit) {
                    readDirect(value, (int) Math.min(value.remaining(), blockRemaining()));
                    continue;
                }
            }
            int n = Math.min(value.remaining(), elementsReadable(1));
            value.put(bytes, position, n);
            position += n;
        }
    }

    /** Receives the next {@code n} payload bytes of the current block (none buffered) straight into {@code value}. */
    private void readDirect(ByteBuffer value, int n) throws IOException {
        if (n > 0) {
            int limit = value.limit();
            value.limit(value.position() + n);
            try {
                source.read(value, n);
            } finally {
                value.limit(limit);
            }
            blockEnd -= n; // consumed without passing through the buffer
            directInBlock = true;
        }
    }

    @Override
    public long bytesRead() {
        return bytesReadBase + (blockLength - blockRemaining());
    }

    @Override
    public void resetBytesRead() {
        bytesReadBase = -(blockLength - blockRemaining());
    }

    /** Closes the source. */
    @Override
    public void close() throws IOException {
        source.close();
    }
}
