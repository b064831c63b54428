package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import ibis.io.BlockInputStream;
import ibis.io.BlockOutputStream;
import ibis.ipl.Ibis;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PoolFixture;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.annotations.Test;

/**
 * The TCP sink takes the large parts of primitive arrays as they are from a block stream and copies
 * them once, into its direct staging buffer (or through it a piece at a time for a block larger than
 * the staging limit), and the TCP source stores them into the reader's arrays from its own: over a
 * real loopback connection, the reader gets every array back, at every byte alignment of the block.
 */
public class TcpArrayPartsTest {

    @Test
    public void theSinkTakesArrays() throws IOException {
        try (SocketChannel unconnected = SocketChannel.open()) {
            assertTrue(new TcpByteSink(unconnected, TcpByteSource.polling(unconnected, 64, 0)).takesArrays());
        }
    }

    /**
     * Written (non-blocking, waiting for room whenever the reader lags): 64 KiB blocks are staged
     * whole, 3 MiB blocks exceed the 1 MiB staging limit. Read: through sources with a tiny and a
     * 64 KiB read-ahead, each storing the arrays straight from its staging buffer, with elements
     * that straddle two socket reads.
     */
    @Test(timeOut = 60_000)
    public void arraysOfEveryTypeArriveWholeThroughStagedAndChunkedBlocks() throws Exception {
        for (int bufferSize : new int[] {64 * 1024, 3 << 20}) {
            for (int readAhead : new int[] {64, 64 * 1024}) {
                try (ServerSocketChannel server = ServerSocketChannel.open()) {
                    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                    try (SocketChannel sender = SocketChannel.open(server.getLocalAddress());
                            SocketChannel receiver = server.accept()) {
                        TcpByteSource source = TcpByteSource.polling(receiver, readAhead, 50);
                        assertTrue(source.takesArrays());
                        roundTrip(bufferSize, sender, source, "read-ahead " + readAhead);
                        source.close();
                    }
                }
            }
        }
    }

    /** One send port to three receivers: every receiver gets every array part of every block. */
    @Test(timeOut = 60_000)
    public void aMulticastHandsEachReceiverTheWholeArrays() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Ibis senderIbis = pool.create(PortTypes.ONE_TO_MANY);
            List<ReceivePort> ports = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                ReceivePort rp = pool.create(PortTypes.ONE_TO_MANY).createReceivePort(PortTypes.ONE_TO_MANY, "in");
                rp.enableConnections();
                ports.add(rp);
            }
            SendPort sp = senderIbis.createSendPort(PortTypes.ONE_TO_MANY);
            for (ReceivePort rp : ports) {
                sp.connect(rp.identifier());
            }
            Random r = new Random(3);
            int[] ints = r.ints(100_000).toArray();
            double[] doubles = r.doubles(70_000).toArray();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try {
                    for (int m = 0; m < 3; m++) {
                        WriteMessage w = sp.newMessage();
                        w.writeByte((byte) m);
                        w.writeArray(ints);
                        w.writeArray(doubles, m, doubles.length - m);
                        w.finish();
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "multicast writer");
            writer.start();
            for (int m = 0; m < 3; m++) {
                for (ReceivePort rp : ports) {
                    String where = "message " + m + " at " + rp.name();
                    ReadMessage rm = rp.receive();
                    assertEquals(rm.readByte(), (byte) m, where);
                    int[] gotInts = new int[ints.length];
                    rm.readArray(gotInts);
                    assertTrue(Arrays.equals(gotInts, ints), where + ": int[]");
                    double[] gotDoubles = new double[doubles.length - m];
                    rm.readArray(gotDoubles);
                    assertTrue(Arrays.equals(gotDoubles, Arrays.copyOfRange(doubles, m, doubles.length)),
                            where + ": double[]");
                    rm.finish();
                }
            }
            writer.join();
            assertNull(failure.get());
            sp.close();
        }
    }

    private static void roundTrip(int bufferSize, SocketChannel sender, TcpByteSource source, String reader)
            throws Exception {
        Random r = new Random(bufferSize);
        int n = 1 << 20; // 4 to 8 MiB per array: several blocks of either size
        int[] ints = r.ints(n).toArray();
        long[] longs = r.longs(n).toArray();
        double[] doubles = r.doubles(n).toArray();
        char[] chars = new char[2 * n];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) r.nextInt();
        }
        BlockOutputStream out = new BlockOutputStream(new TcpByteSink(sender, TcpByteSource.polling(sender, 64, 0)),
                bufferSize);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                for (int skew = 0; skew < 8; skew++) {
                    for (int b = 0; b < skew; b++) {
                        out.writeByte((byte) b); // the arrays start at every byte alignment of a block
                    }
                    out.writeArray(ints, skew, n - skew);
                    out.writeArray(chars, 1, chars.length - 1);
                    out.writeArray(longs, 0, n);
                    out.writeArray(doubles, skew, n - 2 * skew);
                    out.endMessage();
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "array writer");
        writer.start();
        BlockInputStream in = new BlockInputStream(source, 64 * 1024, ByteOrder.nativeOrder(), bufferSize);
        for (int skew = 0; skew < 8; skew++) {
            String where = "blocks of " + bufferSize + ", " + reader + ", skew " + skew;
            for (int b = 0; b < skew; b++) {
                assertEquals(in.readByte(), (byte) b, where);
            }
            int[] gotInts = new int[n - skew];
            in.readArray(gotInts, 0, gotInts.length);
            assertTrue(Arrays.equals(gotInts, Arrays.copyOfRange(ints, skew, n)), where + ": int[]");
            char[] gotChars = new char[chars.length - 1];
            in.readArray(gotChars, 0, gotChars.length);
            assertTrue(Arrays.equals(gotChars, Arrays.copyOfRange(chars, 1, chars.length)), where + ": char[]");
            long[] gotLongs = new long[n];
            in.readArray(gotLongs, 0, n);
            assertTrue(Arrays.equals(gotLongs, longs), where + ": long[]");
            double[] gotDoubles = new double[n - 2 * skew];
            in.readArray(gotDoubles, 0, gotDoubles.length);
            assertTrue(Arrays.equals(gotDoubles, Arrays.copyOfRange(doubles, skew, n - skew)), where + ": double[]");
            in.endMessage();
        }
        writer.join();
        assertNull(failure.get());
    }
}
