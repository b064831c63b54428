package ibis.io;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import ibis.testsupport.MemoryPipe;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.testng.annotations.Test;

/**
 * Large byte buffers of {@code writeByteBuffer}/{@code readByteBuffer}: a sink that sends a large
 * last part as a message of its own ({@link ByteSink#partsAsMessages()}) gets them by reference, as
 * the last buffer of their block; other sinks get whole blocks as before; a reader's buffer is
 * handed to the source to fill when nothing is buffered.
 */
public class LargeByteBufferTest {

    /** A sink over a memory pipe that records how it was called. */
    private static final class RecordingSink implements ByteSink {
        final MemoryPipe pipe = new MemoryPipe();
        final boolean parts;
        final List<String> calls = new ArrayList<>();
        final List<ByteBuffer> lastBuffers = new ArrayList<>();

        RecordingSink(boolean parts) {
            this.parts = parts;
        }

        @Override
        public boolean partsAsMessages() {
            return parts;
        }

        @Override
        public void write(ByteBuffer[] buffers, int offset, int count) throws IOException {
            calls.add("write" + count);
            lastBuffers.add(buffers[offset + count - 1]);
            pipe.sink.write(buffers, offset, count);
        }

        @Override
        public void close() {
        }
    }

    private static ByteBuffer pattern(int size, int seed, boolean direct) {
        ByteBuffer b = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
        for (int i = 0; i < size; i++) {
            b.put(i, (byte) (i * 13 + seed));
        }
        return b;
    }

    @Test
    public void aLargeBufferGoesByReferenceToASinkThatSendsPartsAsMessages() throws IOException {
        RecordingSink sink = new RecordingSink(true);
        BlockOutputStream out = new BlockOutputStream(sink, 65_536);
        ByteBuffer big = pattern(100_000, 1, true);
        out.writeInt(7);
        out.writeByteBuffer(big);
        assertEquals(big.position(), big.limit(), "writeByteBuffer advances the position to the limit");
        out.writeByte((byte) 9);
        out.endMessage();
        assertTrue(sink.calls.contains("write3"), sink.calls.toString());
        assertTrue(sink.lastBuffers.contains(big), "the application's buffer itself is the part");

        BlockInputStream in = new BlockInputStream(sink.pipe.source, 65_536, out.order());
        assertEquals(in.readInt(), 7);
        ByteBuffer got = ByteBuffer.allocateDirect(100_000);
        in.readByteBuffer(got);
        assertEquals(got.flip(), pattern(100_000, 1, true));
        assertEquals(in.readByte(), (byte) 9);
        in.endMessage();
    }

    @Test
    public void smallBuffersAndSinksWithoutPartsGetWholeBlocks() throws IOException {
        RecordingSink parts = new RecordingSink(true);
        BlockOutputStream out = new BlockOutputStream(parts, 65_536);
        out.writeByteBuffer(pattern(4095, 3, true)); // below the threshold: copied
        out.endMessage();
        assertEquals(parts.calls, List.of("write2"), "one whole block");

        RecordingSink stream = new RecordingSink(false);
        BlockOutputStream plain = new BlockOutputStream(stream, 65_536);
        plain.writeByteBuffer(pattern(50_000, 5, true));
        plain.endMessage();
        assertFalse(stream.calls.contains("write3"), "a sink without parts gets whole blocks only: " + stream.calls);
        BlockInputStream in = new BlockInputStream(stream.pipe.source, 65_536, plain.order());
        ByteBuffer got = ByteBuffer.allocate(50_000);
        in.readByteBuffer(got);
        assertEquals(got.flip(), pattern(50_000, 5, true));
        in.endMessage();
    }

    @Test
    public void aReaderBufferIsFilledByTheSourceWhenNothingIsBuffered() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream out = new BlockOutputStream(pipe.sink, 65_536);
        out.writeByteBuffer(pattern(20_000, 6, true));
        out.endMessage();
        List<ByteBuffer> destinations = new ArrayList<>();
        ByteSource recording = pipe.observedSource((destination, n) -> destinations.add(destination));
        BlockInputStream in = new BlockInputStream(recording, 65_536, out.order());
        ByteBuffer got = ByteBuffer.allocateDirect(20_000);
        in.readByteBuffer(got);
        assertEquals(got.position(), 20_000);
        assertTrue(destinations.stream().anyMatch(d -> d == got),
                "the source was asked to fill the reader's buffer itself");
        assertEquals(got.flip(), pattern(20_000, 6, true));
        in.endMessage();
    }

    /**
     * A part goes out with the next block the stream sends: when the message ends right after it,
     * that block is the final one (no empty block for the end); bytes written after it follow it;
     * a caller that moves its buffer's position before finishing gets it back as it left it.
     */
    @Test
    public void aPartThatEndsTheMessageCarriesTheEndAndLaterBytesFollowIt() throws IOException {
        RecordingSink sink = new RecordingSink(true);
        BlockOutputStream out = new BlockOutputStream(sink, 65_536);
        ByteBuffer big = pattern(30_000, 2, true);
        out.writeInt(5);
        out.writeByteBuffer(big);
        assertEquals(out.bytesWritten(), 30_004, "the part counts as written before it is sent");
        assertEquals(sink.calls, List.of(), "the part waits for the next block");
        big.clear().position(123); // the caller moves it (its bytes stay) before finishing
        out.endMessage();
        assertEquals(sink.calls, List.of("write3"), "one block: the buffered int, the part, and the end");
        assertEquals(big.position(), 123, "the caller's position is given back");
        assertEquals(big.limit(), big.capacity());

        ByteBuffer second = pattern(20_000, 4, true);
        out.writeByteBuffer(second);
        out.writeLong(77L); // after the part: must follow it
        out.writeByteBuffer(pattern(10_000, 8, false));
        out.flush();
        out.writeShort((short) 3);
        out.endMessage();

        BlockInputStream in = new BlockInputStream(sink.pipe.source, 65_536, out.order());
        assertEquals(in.readInt(), 5);
        ByteBuffer got = ByteBuffer.allocateDirect(30_000);
        in.readByteBuffer(got);
        assertEquals(got.flip(), pattern(30_000, 2, true));
        in.endMessage();
        ByteBuffer got2 = ByteBuffer.allocateDirect(20_000);
        in.readByteBuffer(got2);
        assertEquals(got2.flip(), pattern(20_000, 4, true));
        assertEquals(in.readLong(), 77L);
        ByteBuffer got3 = ByteBuffer.allocate(10_000);
        in.readByteBuffer(got3);
        assertEquals(got3.flip(), pattern(10_000, 8, false));
        assertEquals(in.readShort(), (short) 3);
        in.endMessage();
    }
}
