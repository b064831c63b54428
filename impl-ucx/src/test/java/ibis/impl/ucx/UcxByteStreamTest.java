package ibis.impl.ucx;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.io.ByteSink;
import ibis.io.ByteSource;
import ibis.testsupport.Waits;

import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

import org.testng.annotations.Test;

/** A sink and a source over real UCP workers: order, integrity, end of stream, flow control. */
public class UcxByteStreamTest {

    static void write(ByteSink sink, byte[] bytes) throws Exception {
        sink.write(new ByteBuffer[] {ByteBuffer.wrap(bytes)}, 0, 1);
    }

    static byte[] read(ByteSource source, int n) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) {
            source.read(b, b.remaining());
        }
        return b.array();
    }

    /**
     * A handshake as the base makes one: the connector writes a request and waits for the reply,
     * the acceptor (another thread) reads the request and replies; both sides progress their
     * workers, which completes UCX's wire-up of the endpoints.
     */
    static void handshake(TransportPair.Connection c) throws Exception {
        CompletableFuture<Void> acceptor = CompletableFuture.runAsync(() -> {
            try {
                assertEquals(read(c.acceptor().source(), 1)[0], (byte) 42);
                write(c.acceptor().sink(), new byte[] {43});
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        write(c.connector().sink(), new byte[] {42});
        assertEquals(read(c.connector().source(), 1)[0], (byte) 43);
        acceptor.get(10, TimeUnit.SECONDS);
    }

    @Test(timeOut = 60_000)
    public void smallMessagesArriveInOrderAndCloseGivesEndOfStream() throws Exception {
        try (TransportPair pair = new TransportPair()) {
            TransportPair.Connection c = pair.connect();
            ByteSink sink = c.connector().sink();
            ByteSource source = c.acceptor().source();
            handshake(c);
            for (int i = 0; i < 100; i++) {
                write(sink, new byte[] {(byte) i, (byte) (i + 1)});
            }
            for (int i = 0; i < 100; i++) {
                byte[] got = read(source, 2);
                assertEquals(got[0], (byte) i);
                assertEquals(got[1], (byte) (i + 1));
            }
            assertFalse(source.awaitData(-1), "nothing more arrived");
            sink.close();
            assertTrue(source.awaitData(10_000), "the end of the stream is there");
            expectThrows(EOFException.class, () -> source.read(ByteBuffer.allocate(1), 1));
        }
    }

    @Test(timeOut = 120_000)
    public void aWriterThreeWindowsAheadOfASlowReaderWaitsForCreditAndEverythingArrivesIntact() throws Exception {
        try (TransportPair pair = new TransportPair()) {
            TransportPair.Connection c = pair.connect();
            handshake(c);
            ByteSink sink = c.connector().sink();
            ByteSource source = c.acceptor().source();
            int window = UcxPropertyTable.WINDOW_PROPERTY.get(null);
            byte[] data = new byte[3 * window + 12_345];
            new Random(42).nextBytes(data);
            AtomicLong written = new AtomicLong();
            CompletableFuture<Throwable> writing = new CompletableFuture<>();
            Thread writer = new Thread(() -> {
                try {
                    for (int p = 0; p < data.length; p += 64 * 1024) {
                        int n = Math.min(64 * 1024, data.length - p);
                        sink.write(new ByteBuffer[] {ByteBuffer.wrap(data, p, n)}, 0, 1);
                        written.addAndGet(n);
                    }
                    sink.close();
                    writing.complete(null);
                } catch (Throwable t) {
                    writing.complete(t);
                }
            }, "writer ahead of its reader");
            writer.start();
            // Nothing is read yet: the writer must stop at the window and wait for credit.
            Waits.untilStack(writer, "to wait for credit", false, stack -> Waits.inMethod(stack, "awaitCredit")
                    && Waits.inMethod(stack, "await"));
            assertTrue(written.get() <= window, written.get() + " bytes written past a window of " + window);
            // The slow reader: small reads, each handing credit back only now and then.
            ByteBuffer got = ByteBuffer.allocate(data.length);
            while (got.hasRemaining()) {
                got.limit(Math.min(got.capacity(), got.position() + 1000));
                source.read(got, got.remaining());
                got.limit(got.capacity());
            }
            assertTrue(Arrays.equals(got.array(), data), "every byte arrives intact and in order");
            assertEquals(writing.get(60, TimeUnit.SECONDS), null, "the writer finished");
            assertTrue(source.awaitData(10_000), "the end follows the data");
            expectThrows(EOFException.class, () -> source.read(ByteBuffer.allocate(1), 1));
        }
    }

    /**
     * Arrays read straight from the staging buffer ({@code takesArrays}): elements whose bytes end
     * one UCX message and start the next (a 3-byte header shifts every chunk boundary) arrive
     * intact, whether the sender wrote them as bytes or handed the array over.
     */
    @Test(timeOut = 120_000)
    public void arrayElementsCutByMessageBoundariesArriveIntact() throws Exception {
        try (TransportPair pair = new TransportPair()) {
            TransportPair.Connection c = pair.connect();
            handshake(c);
            ByteSink sink = c.connector().sink();
            ByteSource source = c.acceptor().source();
            assertTrue(source.takesArrays() && sink.takesArrays());
            int[] ints = new int[300_000];
            double[] doubles = new double[150_001];
            Random random = new Random(7);
            for (int i = 0; i < ints.length; i++) {
                ints[i] = random.nextInt();
            }
            for (int i = 0; i < doubles.length; i++) {
                doubles[i] = random.nextDouble();
            }
            ByteBuffer intBytes = ByteBuffer.allocate(ints.length * 4).order(ByteOrder.nativeOrder());
            intBytes.asIntBuffer().put(ints);
            CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
                try {
                    ByteBuffer header = ByteBuffer.wrap(new byte[] {1, 2, 3});
                    sink.write(new ByteBuffer[] {header, intBytes}, 0, 2); // as bytes
                    header.clear();
                    sink.write(new ByteBuffer[] {header}, 0, 1, DoubleBuffer.wrap(doubles)); // the array itself
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            for (int round = 0; round < 2; round++) {
                ByteBuffer header = ByteBuffer.allocate(3);
                source.read(header, 3);
                assertEquals(header.array(), new byte[] {1, 2, 3});
                if (round == 0) {
                    int[] got = new int[ints.length];
                    source.read(IntBuffer.wrap(got));
                    assertTrue(Arrays.equals(got, ints), "every int arrives intact");
                } else {
                    double[] got = new double[doubles.length];
                    DoubleBuffer into = DoubleBuffer.wrap(got, 1, doubles.length - 1);
                    source.read(DoubleBuffer.wrap(got, 0, 1));
                    source.read(into);
                    assertEquals(into.position(), doubles.length, "the destination is consumed");
                    assertTrue(Arrays.equals(got, doubles), "every double arrives intact");
                }
            }
            writing.get(60, TimeUnit.SECONDS);
            assertFalse(source.awaitData(-1), "nothing more arrived");
        }
    }

    @Test(timeOut = 120_000)
    public void thousandMessagesOfRandomSizesArriveIntactAndInOrder() throws Exception {
        try (TransportPair pair = new TransportPair()) {
            TransportPair.Connection c = pair.connect();
            ByteSink sink = c.connector().sink();
            ByteSource source = c.acceptor().source();
            long seed = System.nanoTime();
            int messages = 1000;
            CompletableFuture<long[]> sent = CompletableFuture.supplyAsync(() -> {
                Random random = new Random(seed);
                long[] sums = new long[messages];
                try {
                    for (int i = 0; i < messages; i++) {
                        byte[] m = new byte[1 + random.nextInt(1 << 20)];
                        random.nextBytes(m);
                        CRC32 crc = new CRC32();
                        crc.update(m);
                        sums[i] = crc.getValue();
                        ByteBuffer header = ByteBuffer.allocate(4).putInt(0, m.length);
                        sink.write(new ByteBuffer[] {header, ByteBuffer.wrap(m)}, 0, 2);
                    }
                    sink.close();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
                return sums;
            });
            long[] got = new long[messages];
            ByteBuffer header = ByteBuffer.allocate(4);
            ByteBuffer direct = ByteBuffer.allocateDirect(1 << 20);
            for (int i = 0; i < messages; i++) {
                header.clear();
                source.read(header, 4);
                int length = header.getInt(0);
                // Alternately into a heap buffer and into a direct one (received straight into it).
                ByteBuffer body = (i & 1) == 0 ? ByteBuffer.allocate(length) : direct.clear().limit(length);
                while (body.hasRemaining()) {
                    source.read(body, body.remaining());
                }
                body.flip();
                CRC32 crc = new CRC32();
                crc.update(body);
                got[i] = crc.getValue();
            }
            expectThrows(EOFException.class, () -> source.read(ByteBuffer.allocate(1), 1));
            assertEquals(got, sent.get(60, TimeUnit.SECONDS), "seed " + seed);
        }
    }
}
