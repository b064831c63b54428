package ibis.io;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;
import static org.testng.Assert.fail;

import ibis.testsupport.MemoryPipe;

import java.io.EOFException;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/** The block framing between {@link BlockOutputStream} and {@link BlockInputStream}. */
public class BlockStreamTest {

    private static final ByteOrder[] ORDERS = {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN};

    /** Writer order, buffer size, delivery chunk size (0 = whole). */
    @DataProvider
    public Object[][] configurations() {
        return new Object[][] {
            {ByteOrder.BIG_ENDIAN, 16, 0},
            {ByteOrder.LITTLE_ENDIAN, 16, 0},
            {ByteOrder.BIG_ENDIAN, 16, 3},
            {ByteOrder.LITTLE_ENDIAN, 17, 5},
            {ByteOrder.BIG_ENDIAN, 61, 7},
            {ByteOrder.LITTLE_ENDIAN, 1000, 0},
            {ByteOrder.BIG_ENDIAN, 64 * 1024, 11},
            {ByteOrder.nativeOrder(), 64 * 1024, 0},
        };
    }

    @Test(dataProvider = "configurations", timeOut = 60_000)
    public void everyPrimitiveArrayAndSliceRoundTripsAcrossBlocksAndMessages(ByteOrder order, int bufferSize,
            int chunk) throws IOException {
        MemoryPipe pipe = new MemoryPipe(chunk, 42);
        BlockOutputStream out = BlockOutputStream.create(pipe.sink, bufferSize, order);
        BlockInputStream in = new BlockInputStream(pipe.source, Math.max(16, bufferSize / 2 + 3), order);
        RandomData[] messages = new RandomData[6];
        for (int m = 0; m < messages.length; m++) {
            messages[m] = new RandomData(1000 + m + bufferSize, 150, m % 2 == 0 ? 40 : 700);
            messages[m].writeAll(out);
            if (m % 3 == 1) {
                out.flush();
            }
            out.endMessage();
        }
        for (RandomData message : messages) {
            message.readAll(in);
            expectThrows(EndOfMessageException.class, in::readByte);
            in.endMessage();
        }
        assertEquals(pipe.source.available(), 0);
    }

    @Test(timeOut = 60_000)
    public void writerAndReaderThreadsStreamAMessageOfManyBlocks() throws Exception {
        MemoryPipe pipe = new MemoryPipe(13, 7);
        BlockOutputStream out = new BlockOutputStream(pipe.sink, 256);
        BlockInputStream in = new BlockInputStream(pipe.source, 100, out.order());
        RandomData data = new RandomData(99, 400, 3000);
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                data.writeAll(out);
                out.endMessage();
            } catch (Throwable t) {
                writerFailure.set(t);
            }
        });
        writer.start();
        data.readAll(in);
        in.endMessage();
        writer.join();
        assertEquals(writerFailure.get(), null);
    }

    @Test
    public void wireFormatIsBigEndianHeaderWithLastFlagThenPayloadInWriterOrder() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream out = BlockOutputStream.create(pipe.sink, 16, ByteOrder.LITTLE_ENDIAN);
        out.writeInt(0x01020304);
        out.flush();
        out.flush(); // nothing buffered: no block
        out.writeShort((short) 0x0506);
        out.endMessage();
        out.endMessage(); // an empty message: header only
        assertEquals(HexFormat.of().formatHex(pipe.unread()),
                "00000004" + "04030201" + "80000002" + "0605" + "80000000");
        assertEquals(out.bytesWritten(), 6);
    }

    @Test
    public void aFullBufferIsSentAsANonFinalBlockOfExactlyTheBufferSize() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream out = BlockOutputStream.create(pipe.sink, 16, ByteOrder.BIG_ENDIAN);
        byte[] payload = new byte[40];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) i;
        }
        out.writeArray(payload, 0, 40);
        out.endMessage();
        ByteBuffer wire = ByteBuffer.wrap(pipe.unread());
        assertEquals(wire.remaining(), 40 + 3 * 4);
        assertEquals(wire.getInt(0), 16);
        assertEquals(wire.getInt(20), 16);
        assertEquals(wire.getInt(40), 0x8000_0000 | 8);
        assertEquals(wire.get(4 + 16 + 4), 16, "second block continues the payload");
    }

    @Test
    public void primitivesAreNeverSplitByTheWriterButTheReaderAcceptsSplitOnes() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream out = BlockOutputStream.create(pipe.sink, 16, ByteOrder.BIG_ENDIAN);
        out.writeArray(new byte[13], 0, 13);
        out.writeLong(0x1122334455667788L); // does not fit in the 3 bytes left: goes to the next block
        out.endMessage();
        ByteBuffer wire = ByteBuffer.wrap(pipe.unread());
        assertEquals(wire.getInt(0), 13);
        assertEquals(wire.getInt(17), 0x8000_0000 | 8);

        // A hand-made stream where a long and an int straddle block boundaries.
        byte[] split = HexFormat.of()
                .parseHex("00000003" + "112233" + "00000002" + "4455" + "80000007" + "667788" + "0A0B0C0D");
        BlockInputStream in = new BlockInputStream(MemoryPipe.of(split, 0, 1).source, 16, ByteOrder.BIG_ENDIAN);
        assertEquals(in.readLong(), 0x1122334455667788L);
        assertEquals(in.readInt(), 0x0A0B0C0D);
        assertThrows(EndOfMessageException.class, in::readByte);

        BlockInputStream arrays = new BlockInputStream(MemoryPipe.of(split, 0, 1).source, 16, ByteOrder.BIG_ENDIAN);
        int[] ints = new int[3];
        arrays.readArray(ints, 0, 3);
        assertEquals(ints, new int[] {0x11223344, 0x55667788, 0x0A0B0C0D});
    }

    /**
     * Runs (reserve/putX, claim/xAt) give the bytes of the same values written one by one, in both
     * byte orders, with every buffer and delivery configuration: a run that does not fit the writer's
     * block starts a new block, and a run the reader finds split (hand-made stream) is assembled.
     */
    @Test(dataProvider = "configurations", timeOut = 60_000)
    public void runsOfPrimitivesEqualTheValuesWrittenOneByOne(ByteOrder order, int bufferSize, int chunk)
            throws IOException {
        MemoryPipe runs = new MemoryPipe(chunk, 7);
        MemoryPipe single = new MemoryPipe(chunk, 7);
        BlockOutputStream r = BlockOutputStream.create(runs.sink, bufferSize, order);
        BlockOutputStream s = BlockOutputStream.create(single.sink, bufferSize, order);
        for (int i = 0; i < 200; i++) {
            r.writeByte((byte) i); // shifts the runs against the block boundaries
            s.writeByte((byte) i);
            int p = r.reserve(16);
            r.putBoolean(p, i % 3 == 0);
            r.putByte(p + 1, (byte) -i);
            r.putChar(p + 2, (char) (0xfe00 + i));
            r.putShort(p + 4, (short) (-300 * i));
            r.putInt(p + 6, 0x01020304 * i);
            r.putFloat(p + 10, i * 0.5f);
            r.putShort(p + 14, (short) i);
            s.writeBoolean(i % 3 == 0);
            s.writeByte((byte) -i);
            s.writeChar((char) (0xfe00 + i));
            s.writeShort((short) (-300 * i));
            s.writeInt(0x01020304 * i);
            s.writeFloat(i * 0.5f);
            s.writeShort((short) i);
            p = r.reserve(16);
            r.putLong(p, 0x0102030405060708L * i);
            r.putDouble(p + 8, Math.PI * i);
            s.writeLong(0x0102030405060708L * i);
            s.writeDouble(Math.PI * i);
        }
        r.endMessage();
        s.endMessage();
        byte[] runBytes = runs.unread();
        byte[] singleBytes = single.unread();
        // The payload is the same; only where blocks end may differ.
        assertEquals(payload(runBytes), payload(singleBytes));
        BlockInputStream fromRuns = new BlockInputStream(MemoryPipe.of(runBytes, chunk, 3).source, bufferSize, order);
        BlockInputStream fromSingle = new BlockInputStream(MemoryPipe.of(singleBytes, chunk, 3).source, bufferSize,
                order);
        for (BlockInputStream in : new BlockInputStream[] {fromRuns, fromSingle}) {
            for (int i = 0; i < 200; i++) {
                assertEquals(in.readByte(), (byte) i);
                int p = in.claim(16);
                assertEquals(in.booleanAt(p), i % 3 == 0);
                assertEquals(in.byteAt(p + 1), (byte) -i);
                assertEquals(in.charAt(p + 2), (char) (0xfe00 + i));
                assertEquals(in.shortAt(p + 4), (short) (-300 * i));
                assertEquals(in.intAt(p + 6), 0x01020304 * i);
                assertEquals(in.floatAt(p + 10), i * 0.5f);
                assertEquals(in.shortAt(p + 14), (short) i);
                p = in.claim(16);
                assertEquals(in.longAt(p), 0x0102030405060708L * i);
                assertEquals(in.doubleAt(p + 8), Math.PI * i);
            }
            assertThrows(EndOfMessageException.class, in::readByte);
        }
    }

    @Test
    public void aRunTheReaderFindsSplitAcrossBlocksIsAssembled() throws IOException {
        byte[] split = HexFormat.of()
                .parseHex("00000003" + "112233" + "00000002" + "4455" + "80000007" + "667788" + "0A0B0C0D");
        BlockInputStream in = new BlockInputStream(MemoryPipe.of(split, 0, 1).source, 16, ByteOrder.BIG_ENDIAN);
        int p = in.claim(12);
        assertEquals(in.longAt(p), 0x1122334455667788L);
        assertEquals(in.intAt(p + 8), 0x0A0B0C0D);
        assertThrows(EndOfMessageException.class, in::readByte);
        BlockInputStream truncated = new BlockInputStream(MemoryPipe.of(split, 0, 1).source, 16, ByteOrder.BIG_ENDIAN);
        assertThrows(EndOfMessageException.class, () -> truncated.claim(16));
        assertThrows(IllegalArgumentException.class, () -> new BlockInputStream(MemoryPipe.of(split, 0, 1).source, 16,
                ByteOrder.BIG_ENDIAN).claim(BlockInputStream.CLAIM_MAX + 1));
        assertThrows(IllegalArgumentException.class,
                () -> new BlockOutputStream(new MemoryPipe().sink, 16).reserve(17));
    }

    /** The payload bytes of a stream of blocks (headers removed). */
    private static byte[] payload(byte[] wire) {
        ByteBuffer in = ByteBuffer.wrap(wire);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        while (in.hasRemaining()) {
            int length = in.getInt() & 0x7fff_ffff;
            out.write(wire, in.position(), length);
            in.position(in.position() + length);
        }
        return out.toByteArray();
    }

    @Test
    public void theReaderUsesThePeerByteOrder() throws IOException {
        for (ByteOrder writerOrder : ORDERS) {
            MemoryPipe pipe = new MemoryPipe();
            BlockOutputStream out = BlockOutputStream.create(pipe.sink, 64, writerOrder);
            assertEquals(out.order(), writerOrder);
            out.writeInt(0x01020304);
            out.writeArray(new long[] {0x0102030405060708L}, 0, 1);
            out.writeDouble(Math.PI);
            out.endMessage();
            byte[] wire = pipe.unread();
            assertEquals(wire[4], writerOrder == ByteOrder.BIG_ENDIAN ? 1 : 4);

            BlockInputStream right = new BlockInputStream(MemoryPipe.of(wire, 0, 0).source, 64, writerOrder);
            assertEquals(right.readInt(), 0x01020304);
            assertEquals(right.readLong(), 0x0102030405060708L);
            assertEquals(right.readDouble(), Math.PI);

            ByteOrder other = writerOrder == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
            BlockInputStream wrong = new BlockInputStream(MemoryPipe.of(wire, 0, 0).source, 64, other);
            assertEquals(wrong.readInt(), 0x04030201);
        }
        assertEquals(new BlockOutputStream(new MemoryPipe().sink, 16).order(), ByteOrder.nativeOrder());
    }

    @Test(timeOut = 60_000)
    public void aMessageOfManyBlocksCountsPayloadBytesOnly() throws IOException {
        MemoryPipe pipe = new MemoryPipe(0, 0, 1 << 21);
        BlockOutputStream out = new BlockOutputStream(pipe.sink, 64);
        BlockInputStream in = new BlockInputStream(pipe.source, 32, out.order());
        double[] values = new double[100_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 0.5;
        }
        out.writeByte((byte) 1); // misalign the doubles
        out.writeArray(values, 0, values.length);
        out.endMessage();
        long payload = 1 + 8L * values.length;
        assertEquals(out.bytesWritten(), payload);
        long blocks = (payload + 63) / 64;
        assertEquals(pipe.totalWritten(), payload + 4 * blocks);

        assertEquals(in.readByte(), 1);
        double[] back = new double[values.length];
        in.readArray(back, 0, back.length);
        assertEquals(back, values);
        assertEquals(in.bytesRead(), payload);
        in.resetBytesRead();
        out.resetBytesWritten();
        assertEquals(in.bytesRead(), 0);
        assertEquals(out.bytesWritten(), 0);
    }

    @Test
    public void endMessageSkipsTheUnreadRestIncludingUnreadBlocks() throws IOException {
        MemoryPipe pipe = new MemoryPipe(3, 5);
        BlockOutputStream out = new BlockOutputStream(pipe.sink, 16);
        BlockInputStream in = new BlockInputStream(pipe.source, 16, out.order());
        out.writeInt(1);
        out.writeArray(new long[50], 0, 50);
        out.flush();
        out.writeInt(2);
        out.endMessage();
        out.writeInt(3);
        out.endMessage();
        out.endMessage(); // empty
        out.writeInt(4);
        out.endMessage();

        assertEquals(in.readInt(), 1);
        assertTrue(in.hasRemaining());
        in.endMessage();
        assertEquals(in.readInt(), 3);
        assertFalse(in.hasRemaining());
        in.endMessage();
        in.endMessage(); // skips the empty message
        assertEquals(in.readInt(), 4);
        in.endMessage();
        assertEquals(in.bytesRead(), 4 + 400 + 4 + 4 + 4, "skipped bytes count as read");
    }

    @Test
    public void readingPastTheEndOfAMessageThrowsAndLeavesTheNextMessageIntact() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream out = new BlockOutputStream(pipe.sink, 32);
        BlockInputStream in = new BlockInputStream(pipe.source, 32, out.order());
        out.writeInt(7);
        out.endMessage();
        out.endMessage(); // empty message
        out.writeLong(8);
        out.endMessage();

        assertEquals(in.readShort(), out.order() == ByteOrder.BIG_ENDIAN ? 0 : 7);
        EOFException e = expectThrows(EOFException.class, in::readLong); // 2 bytes left: straddles the end
        assertEquals(e.getMessage(), "past end of message");
        assertTrue(e instanceof EndOfMessageException);
        assertThrows(EndOfMessageException.class, () -> in.readArray(new int[2], 0, 2));
        assertThrows(EndOfMessageException.class, in::readByte);
        assertEquals(in.readUpTo(new byte[4], 0, 4), -1);
        in.endMessage();

        assertThrows(EndOfMessageException.class, in::readBoolean);
        in.endMessage();

        assertEquals(in.readLong(), 8);
        in.endMessage();
    }

    @Test
    public void readUpToStopsAtTheEndOfTheMessage() throws IOException {
        MemoryPipe pipe = new MemoryPipe(2, 3);
        BlockOutputStream out = new BlockOutputStream(pipe.sink, 16);
        BlockInputStream in = new BlockInputStream(pipe.source, 16, out.order());
        out.writeArray(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, 0, 20);
        out.endMessage();
        out.writeByte((byte) 99);
        out.endMessage();
        byte[] got = new byte[30];
        assertEquals(in.readUpTo(got, 0, 30), 20);
        assertEquals(got[19], 20);
        assertEquals(in.readUpTo(got, 0, 0), 0);
        assertEquals(in.readUpTo(got, 0, 5), -1);
        in.endMessage();
        assertEquals(in.readByte(), 99);
    }

    @Test(timeOut = 60_000)
    public void awaitMessageReportsReadAheadDataAndWaitsForNewData() throws Exception {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream out = new BlockOutputStream(pipe.sink, 64);
        BlockInputStream in = new BlockInputStream(pipe.source, 64, out.order());
        assertFalse(in.awaitMessage(-1), "poll with nothing sent");
        assertFalse(in.awaitMessage(20), "time-out with nothing sent");

        out.writeInt(1);
        out.endMessage();
        out.writeInt(2);
        out.endMessage();
        assertTrue(in.awaitMessage(-1));
        assertEquals(in.readInt(), 1);
        in.endMessage();
        assertEquals(pipe.source.available(), 0, "the reader read ahead into the second message");
        assertTrue(in.awaitMessage(-1), "buffered read-ahead counts as an arrived message");
        assertEquals(in.readInt(), 2);
        in.endMessage();
        assertFalse(in.awaitMessage(-1));

        Thread writer = new Thread(() -> {
            try {
                out.writeInt(3);
                out.endMessage();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        writer.start();
        assertTrue(in.awaitMessage(0));
        assertEquals(in.readInt(), 3);
        writer.join();

        out.close();
        in.endMessage();
        assertTrue(in.awaitMessage(0), "end of stream is ready too");
        EOFException end = expectThrows(EOFException.class, in::readInt);
        assertFalse(end instanceof EndOfMessageException, "end of stream is not end of message");
    }

    @Test
    public void aBlockLengthAboveTheMaximumIsACorruptStream() throws IOException {
        byte[] good = HexFormat.of().parseHex("80000004" + "01020304");
        byte[] huge = HexFormat.of().parseHex("7FFFFFFF" + "01020304");
        BlockInputStream in = new BlockInputStream(MemoryPipe.of(concat(good, huge), 0, 0).source, 64,
                ByteOrder.BIG_ENDIAN);
        assertEquals(in.readInt(), 0x01020304);
        in.endMessage();
        StreamCorruptedException e = expectThrows(StreamCorruptedException.class, in::readInt);
        assertTrue(e.getMessage().contains("2147483647"), e.getMessage());
        assertTrue(e.getMessage().contains("stream offset 8"), e.getMessage());

        byte[] fifty = HexFormat.of().parseHex("80000032");
        BlockInputStream limited = new BlockInputStream(MemoryPipe.of(fifty, 0, 0).source, 64, ByteOrder.BIG_ENDIAN,
                49);
        assertThrows(StreamCorruptedException.class, limited::readByte);
        assertEquals(IoProperties.blockMax(null), IoProperties.DEFAULT_BLOCK_MAX);
    }

    /**
     * The same through a source that reads into arrays: a large array cut anywhere is an EOF, never
     * an end of message.
     */
    @Test(timeOut = 60_000)
    public void aTruncatedDirectArrayReadIsAnEofThatIsNotAnEndOfMessage() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream out = new BlockOutputStream(pipe.sink, 8192);
        int[] sent = new int[5000]; // 20,000 bytes: three blocks, read mostly straight into the array
        out.writeArray(sent, 0, sent.length);
        out.endMessage();
        byte[] wire = pipe.unread();
        for (int cut = 0; cut < wire.length; cut += 97) {
            byte[] truncated = java.util.Arrays.copyOf(wire, cut);
            MemoryPipe replay = MemoryPipe.of(truncated, 0, cut);
            BlockInputStream in = new BlockInputStream(replay.arraySource, 8192, out.order());
            try {
                in.readArray(new int[sent.length], 0, sent.length);
                in.endMessage();
                fail("truncated at " + cut + " but read completely");
            } catch (EndOfMessageException e) {
                fail("truncation at " + cut + " reported as end of message");
            } catch (EOFException expected) {
                // the connection ended inside the message
            }
        }
        MemoryPipe whole = MemoryPipe.of(wire, 0, 1);
        BlockInputStream in = new BlockInputStream(whole.arraySource, 8192, out.order());
        in.readArray(new int[sent.length], 0, sent.length);
        in.endMessage();
        assertTrue(whole.arrayReads() > 0, "the whole message used direct reads");
    }

    /**
     * After a block that went partly straight into an array, the next block is read ahead only
     * {@link BlockInputStream#SHORT_READ_AHEAD} bytes past its header: a stream of large arrays
     * then receives each array (but for those bytes) straight into it, not first into the buffer.
     * The first message, with nothing learnt yet, is read ahead by a whole buffer; a message of
     * small values after the arrays reads back the same.
     */
    @Test(timeOut = 60_000)
    public void afterADirectReadTheNextBlockIsReadAheadOnlyALittle() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream out = new BlockOutputStream(pipe.sink, 65536);
        int[] sent = new int[25_000]; // 100,000 bytes: two blocks of the 64 KiB buffer
        for (int i = 0; i < sent.length; i++) {
            sent[i] = i * 31 + 7;
        }
        for (int m = 0; m < 3; m++) {
            out.writeInt(m);
            out.writeArray(sent, 0, sent.length);
            out.endMessage();
        }
        for (int i = 0; i < 1000; i++) {
            out.writeLong(i * 1_000_003L);
        }
        out.endMessage();
        BlockInputStream in = new BlockInputStream(pipe.arraySource, 65536, out.order());
        long[] direct = new long[3];
        for (int m = 0; m < 3; m++) {
            long before = pipe.arrayBytes();
            assertEquals(in.readInt(), m);
            int[] got = new int[sent.length];
            in.readArray(got, 0, got.length);
            in.endMessage();
            assertEquals(got, sent, "message " + m);
            direct[m] = pipe.arrayBytes() - before;
        }
        assertTrue(direct[0] < 100_000 - 60_000,
                "first message: a whole buffer read ahead, " + direct[0] + " bytes direct");
        for (int m = 1; m < 3; m++) {
            assertTrue(direct[m] >= 100_000 - BlockInputStream.SHORT_READ_AHEAD,
                    "message " + m + ": " + direct[m] + " of 100,000 bytes straight into the array");
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals(in.readLong(), i * 1_000_003L);
        }
        in.endMessage();
    }

    /** The same for {@code byte[]}, which any source receives straight into the array. */
    @Test(timeOut = 60_000)
    public void afterADirectByteArrayReadTheNextBlockIsReadAheadOnlyALittle() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream out = new BlockOutputStream(pipe.sink, 65536);
        byte[] sent = new byte[100_000];
        for (int i = 0; i < sent.length; i++) {
            sent[i] = (byte) (i * 31 + 7);
        }
        for (int m = 0; m < 3; m++) {
            out.writeInt(m); // a header first, as an object stream writes one: read with read-ahead
            out.writeArray(sent, 0, sent.length);
            out.endMessage();
        }
        byte[][] got = new byte[3][sent.length];
        long[] direct = new long[3];
        ByteSource counting = pipe.observedSource((destination, n) -> {
            for (int m = 0; m < 3; m++) {
                if (destination.hasArray() && destination.array() == got[m]) {
                    direct[m] += n;
                }
            }
        });
        BlockInputStream in = new BlockInputStream(counting, 65536, out.order());
        for (int m = 0; m < 3; m++) {
            assertEquals(in.readInt(), m);
            in.readArray(got[m], 0, sent.length);
            in.endMessage();
            assertEquals(got[m], sent, "message " + m);
        }
        assertTrue(direct[0] < 100_000 - 60_000,
                "first message: a whole buffer read ahead, " + direct[0] + " bytes direct");
        for (int m = 1; m < 3; m++) {
            assertTrue(direct[m] >= 100_000 - BlockInputStream.SHORT_READ_AHEAD,
                    "message " + m + ": " + direct[m] + " of 100,000 bytes straight into the array");
        }
    }

    @Test
    public void aTruncatedStreamIsAnEofThatIsNotAnEndOfMessage() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream out = new BlockOutputStream(pipe.sink, 64);
        out.writeArray(new int[20], 0, 20);
        out.endMessage();
        byte[] wire = pipe.unread();
        for (int cut = 0; cut < wire.length; cut++) {
            byte[] truncated = java.util.Arrays.copyOf(wire, cut);
            BlockInputStream in = new BlockInputStream(MemoryPipe.of(truncated, 3, cut).source, 16, out.order());
            try {
                in.readArray(new int[20], 0, 20);
                in.endMessage();
                fail("truncated at " + cut + " but read completely");
            } catch (EndOfMessageException e) {
                fail("truncation at " + cut + " reported as end of message");
            } catch (EOFException expected) {
                // the connection ended inside the message
            }
        }
    }

    /**
     * A sink that takes arrays gets the large parts of arrays of every primitive type as they are
     * (the stream does not copy them), and the same bytes as a sink that does not; a source that
     * reads into arrays gets them back straight into the reader's arrays. A stream in the other
     * byte order never hands arrays over either way (its values must be swapped).
     */
    @Test(timeOut = 60_000)
    public void largeArraysGoAsTheyAreToASinkThatTakesThemWithTheSameBytes() throws IOException {
        ByteOrder foreign = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN
                : ByteOrder.BIG_ENDIAN;
        for (ByteOrder order : new ByteOrder[] {ByteOrder.nativeOrder(), foreign}) {
            for (int bufferSize : new int[] {4099, 5000, 64 * 1024}) {
                MemoryPipe copied = new MemoryPipe();
                MemoryPipe taken = new MemoryPipe();
                BlockOutputStream a = BlockOutputStream.create(copied.sink, bufferSize, order);
                BlockOutputStream b = BlockOutputStream.create(taken.arraySink, bufferSize, order);
                RandomData[] messages = new RandomData[4];
                for (int m = 0; m < messages.length; m++) {
                    messages[m] = new RandomData(31 * bufferSize + m, 80, 12_000);
                    for (BlockOutputStream out : new BlockOutputStream[] {a, b}) {
                        messages[m].writeAll(out);
                        out.endMessage();
                    }
                }
                String where = order + ", blocks of " + bufferSize;
                assertEquals(HexFormat.of().formatHex(taken.unread()), HexFormat.of().formatHex(copied.unread()),
                        where);
                assertEquals(b.bytesWritten(), a.bytesWritten(), where);
                if (order == ByteOrder.nativeOrder()) {
                    assertTrue(taken.arrayParts() > 10, where + ": array parts " + taken.arrayParts());
                } else {
                    assertEquals(taken.arrayParts(), 0, where);
                }
                // Read back through a source that reads into arrays: the large arrays of a
                // native-order stream go straight in.
                BlockInputStream in = new BlockInputStream(taken.arraySource, bufferSize, order);
                for (RandomData message : messages) {
                    message.readAll(in);
                    expectThrows(EndOfMessageException.class, in::readByte);
                    in.endMessage();
                }
                assertEquals(in.bytesRead(), b.bytesWritten(), where);
                if (order == ByteOrder.nativeOrder()) {
                    assertTrue(taken.arrayReads() > 10, where + ": array reads " + taken.arrayReads());
                } else {
                    assertEquals(taken.arrayReads(), 0, where);
                }
            }
        }
    }

    @Test
    public void byteBuffersRoundTripAndAreConsumed() throws IOException {
        MemoryPipe pipe = new MemoryPipe(4, 4);
        BlockOutputStream out = new BlockOutputStream(pipe.sink, 16);
        BlockInputStream in = new BlockInputStream(pipe.source, 16, out.order());
        ByteBuffer heap = ByteBuffer.wrap("hello, block framing".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        heap.position(7).limit(12);
        out.writeByteBuffer(heap);
        assertEquals(heap.position(), 12);
        assertEquals(heap.limit(), 12);
        out.endMessage();
        ByteBuffer direct = ByteBuffer.allocateDirect(5);
        in.readByteBuffer(direct);
        assertEquals(direct.position(), 5);
        direct.flip();
        assertEquals(java.nio.charset.StandardCharsets.US_ASCII.decode(direct).toString(), "block");
    }

    @Test
    public void closeFlushesClosesTheSinkOnceAndFurtherWritesFail() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream out = new BlockOutputStream(pipe.sink, 16);
        out.writeInt(5);
        out.close();
        out.close();
        assertTrue(pipe.writerClosed());
        assertEquals(pipe.unread().length, 8);
        assertThrows(IOException.class, out::endMessage);

        BlockInputStream in = new BlockInputStream(pipe.source, 16, out.order());
        assertEquals(in.readInt(), 5);
        in.close();
        assertThrows(IOException.class, in::readInt);
    }

    @Test
    public void constructorsRejectUnusableSizes() {
        MemoryPipe pipe = new MemoryPipe();
        assertThrows(IllegalArgumentException.class, () -> new BlockOutputStream(pipe.sink, 15));
        assertThrows(IllegalArgumentException.class, () -> new BlockOutputStream(pipe.sink, (1 << 30) + 1));
        assertThrows(IllegalArgumentException.class, () -> new BlockInputStream(pipe.source, 8, ByteOrder.BIG_ENDIAN));
        assertThrows(IllegalArgumentException.class,
                () -> new BlockInputStream(pipe.source, 64, ByteOrder.BIG_ENDIAN, 0));
        assertThrows(NullPointerException.class, () -> new BlockOutputStream(null, 64));
    }

    @Test
    public void arraysWithBadBoundsAreRejectedBeforeAnythingIsWritten() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream out = new BlockOutputStream(pipe.sink, 16);
        assertThrows(IndexOutOfBoundsException.class, () -> out.writeArray(new int[4], 2, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> out.writeArray(new double[4], -1, 1));
        assertEquals(out.bytesWritten(), 0);
        out.endMessage();
        assertEquals(pipe.unread().length, 4);
        assertNotEquals(out.bufferSize(), 0);
    }

    /** Payload lengths of the blocks a stream sent, negative for the last block of a message. */
    private static final class BlockRecorder implements ByteSink {
        final java.util.List<Integer> blocks = new java.util.ArrayList<>();
        final ByteSink next;

        BlockRecorder(ByteSink next) {
            this.next = next;
        }

        @Override
        public void write(ByteBuffer[] buffers, int offset, int count) throws IOException {
            int header = buffers[offset].getInt(buffers[offset].position());
            int length = header & ~BlockOutputStream.LAST_BLOCK_FLAG;
            blocks.add(header < 0 ? -length : length);
            next.write(buffers, offset, count);
        }

        @Override
        public void close() throws IOException {
            next.close();
        }
    }

    @Test(timeOut = 60_000)
    public void theFirstBlockOfAMessageOfSmallValuesIsSentEarlyAndTheRestInFullBlocks() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockRecorder recorder = new BlockRecorder(pipe.sink);
        BlockOutputStream out = BlockOutputStream.create(recorder, 1024, ByteOrder.LITTLE_ENDIAN, 256);
        BlockInputStream in = new BlockInputStream(pipe.source, 100, ByteOrder.LITTLE_ENDIAN);
        for (int m = 0; m < 2; m++) {
            for (int i = 0; i < 600; i++) { // 2400 bytes of ints: 256, then 1024, 1024, and the last 96
                out.writeInt(m * 1000 + i);
            }
            out.endMessage();
        }
        out.writeInt(7); // a small message is one block
        out.endMessage();
        assertEquals(recorder.blocks, java.util.List.of(256, 1024, 1024, -96, 256, 1024, 1024, -96, -4));
        for (int m = 0; m < 2; m++) {
            for (int i = 0; i < 600; i++) {
                assertEquals(in.readInt(), m * 1000 + i);
            }
            in.endMessage();
        }
        assertEquals(in.readInt(), 7);
        in.endMessage();
    }

    @Test(timeOut = 60_000)
    public void anArrayThatDoesNotFitTheFirstBlockMakesItAFullBlock() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockRecorder recorder = new BlockRecorder(pipe.sink);
        BlockOutputStream out = BlockOutputStream.create(recorder, 1024, ByteOrder.BIG_ENDIAN, 256);
        BlockInputStream in = new BlockInputStream(pipe.source, 100, ByteOrder.BIG_ENDIAN);
        int[] ints = new int[300];
        byte[] bytes = new byte[5000];
        for (int i = 0; i < ints.length; i++) {
            ints[i] = i * 31;
        }
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 7);
        }
        out.writeInt(-1);
        out.writeArray(ints, 0, ints.length); // 1200 bytes: the first block holds 1024
        out.endMessage();
        out.writeArray(bytes, 0, bytes.length); // by reference in part: the same blocks as copies
        out.endMessage();
        assertEquals(recorder.blocks, java.util.List.of(1024, -180, 1024, 1024, 1024, 1024, -904));
        assertEquals(in.readInt(), -1);
        int[] intsBack = new int[ints.length];
        in.readArray(intsBack, 0, intsBack.length);
        assertEquals(intsBack, ints);
        in.endMessage();
        byte[] bytesBack = new byte[bytes.length];
        in.readArray(bytesBack, 0, bytesBack.length);
        assertEquals(bytesBack, bytes);
        in.endMessage();
    }

    @Test
    public void aFirstBlockSizeOutsideTheBufferIsRejected() {
        MemoryPipe pipe = new MemoryPipe();
        assertThrows(IllegalArgumentException.class,
                () -> BlockOutputStream.create(pipe.sink, 64, ByteOrder.BIG_ENDIAN, 65));
        assertThrows(IllegalArgumentException.class,
                () -> BlockOutputStream.create(pipe.sink, 64, ByteOrder.BIG_ENDIAN, 15));
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] result = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, result, a.length, b.length);
        return result;
    }

    /**
     * Polling (awaitMessage with a negative time-out, what ReceivePort.poll() uses) sees a message
     * that arrived also over a source whose available() always says 0, as ByteSource allows.
     */
    @Test
    public void pollingSeesAnArrivedMessageWhenTheSourceNeverReportsBytesAvailable() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        ByteSource silent = new ByteSource() {
            @Override
            public int read(ByteBuffer destination, int minimum) throws IOException {
                return pipe.source.read(destination, minimum);
            }

            @Override
            public int available() {
                return 0;
            }

            @Override
            public boolean awaitData(long timeoutMillis) throws IOException {
                return pipe.source.awaitData(timeoutMillis);
            }

            @Override
            public void close() throws IOException {
                pipe.source.close();
            }
        };
        BlockOutputStream out = BlockOutputStream.create(pipe.sink, 64, ByteOrder.BIG_ENDIAN);
        BlockInputStream in = new BlockInputStream(silent, 64, ByteOrder.BIG_ENDIAN);
        assertFalse(in.awaitMessage(-1), "nothing was sent");
        out.writeInt(4711);
        out.endMessage();
        assertTrue(in.awaitMessage(-1), "the message arrived");
        assertEquals(in.readInt(), 4711);
        in.endMessage();
        assertFalse(in.awaitMessage(-1), "the message was read");
    }
}
