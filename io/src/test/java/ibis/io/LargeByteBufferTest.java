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
}
