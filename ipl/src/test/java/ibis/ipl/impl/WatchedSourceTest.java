package ibis.ipl.impl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.io.ByteSource;

import java.io.EOFException;
import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;

import org.testng.annotations.Test;

/** A receive connection's source wrapper passes reads into arrays on to the transport and notes its failures. */
public class WatchedSourceTest {

    /** A source of a fixed number of ints (0, 1, 2, ...), read into arrays; then end of stream. */
    private static final class IntsSource implements ByteSource {
        private final boolean takesArrays;
        private int next;
        private final int count;

        IntsSource(boolean takesArrays, int count) {
            this.takesArrays = takesArrays;
            this.count = count;
        }

        @Override
        public boolean takesArrays() {
            return takesArrays;
        }

        @Override
        public void read(Buffer destination) throws IOException {
            IntBuffer d = (IntBuffer) destination;
            while (d.hasRemaining()) {
                if (next == count) {
                    throw new EOFException("no more ints");
                }
                d.put(next++);
            }
        }

        @Override
        public int read(ByteBuffer destination, int minimum) {
            throw new AssertionError("not used");
        }

        @Override
        public int available() {
            return 0;
        }

        @Override
        public boolean awaitData(long timeoutMillis) {
            return true;
        }

        @Override
        public void close() {
        }
    }

    @Test
    public void readsIntoArraysGoToTheTransportAndItsFailureIsNoted() throws IOException {
        assertFalse(new WatchedSource(new IntsSource(false, 0)).takesArrays());
        WatchedSource watched = new WatchedSource(new IntsSource(true, 5));
        assertTrue(watched.takesArrays());
        int[] into = new int[3];
        watched.read(IntBuffer.wrap(into));
        assertEquals(into, new int[] {0, 1, 2});
        assertNull(watched.failure());
        EOFException e = expectThrows(EOFException.class, () -> watched.read(IntBuffer.wrap(new int[3])));
        assertSame(watched.failure(), e);
    }

    /** Counts which poll the reader used: a single look or a spinning one. */
    private static final class PollCountingSource implements ByteSource {
        int single;
        int spinning;
        IOException failWith;

        @Override
        public int read(ByteBuffer destination, int minimum) {
            throw new AssertionError("not used");
        }

        @Override
        public int available() {
            return 0;
        }

        @Override
        public boolean awaitData(long timeoutMillis) {
            single++;
            return false;
        }

        @Override
        public boolean awaitDataSpinning() throws IOException {
            spinning++;
            if (failWith != null) {
                throw failWith;
            }
            return false;
        }

        @Override
        public void close() {
        }
    }

    @Test
    public void aSpinningPollReachesTheTransportsSpinningPollAndAQuietLookNeither() throws IOException {
        PollCountingSource transport = new PollCountingSource();
        WatchedSource watched = new WatchedSource(transport);
        ibis.io.BlockInputStream in = new ibis.io.BlockInputStream(watched, 4096, java.nio.ByteOrder.nativeOrder());
        assertFalse(in.awaitMessageSpinning());
        assertEquals(transport.spinning, 1, "the spinning poll of a waiting reader reaches the transport's");
        assertEquals(transport.single, 0);
        assertFalse(in.awaitMessage(-1));
        assertEquals(transport.single, 1, "a single look stays a single look");
        assertFalse(watched.bufferedOnly(in));
        assertEquals(transport.spinning + transport.single, 2, "a look at the buffered bytes only asked the transport");
        transport.failWith = new IOException("gone");
        IOException e = expectThrows(IOException.class, in::awaitMessageSpinning);
        assertSame(watched.failure(), e, "a failure of the spinning poll is the connection's");
    }
}
