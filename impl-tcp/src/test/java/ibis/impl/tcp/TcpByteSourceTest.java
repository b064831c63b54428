package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;
import static org.testng.Assert.fail;

import ibis.testsupport.Waits;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/**
 * The byte ends of a TCP connection on the receiving side, where the source polls a non-blocking
 * channel and waits in a selector: polling, timed and untimed waits, end of stream, closing and
 * interrupting a blocked reader, and the sink's writes over the same non-blocking channel.
 */
public class TcpByteSourceTest {

    private ServerSocketChannel server;
    /** The connecting end: blocking, like a send port's. */
    private SocketChannel sender;
    /** The accepted end, read through the polling source. */
    private SocketChannel receiver;
    private TcpByteSource source;

    @BeforeMethod
    public void connect() throws IOException {
        server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        sender = SocketChannel.open(server.getLocalAddress());
        receiver = server.accept();
        source = TcpByteSource.polling(receiver, 64, 50);
    }

    @AfterMethod(alwaysRun = true)
    public void close() throws IOException {
        source.close();
        sender.close();
        server.close();
    }

    private void send(byte... bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            sender.write(b);
        }
    }

    @Test(timeOut = 60_000)
    public void pollingFindsNothingThenTheBytesInOrder() throws IOException {
        assertEquals(source.available(), 0);
        assertFalse(source.awaitData(-1));
        send((byte) 1, (byte) 2, (byte) 3);
        assertTrue(source.awaitData(0));
        assertTrue(source.available() > 0);
        ByteBuffer into = ByteBuffer.allocate(3);
        assertEquals(source.read(into, 3), 3);
        assertEquals(into.array(), new byte[] {1, 2, 3});
        assertEquals(source.available(), 0);
    }

    @Test(timeOut = 60_000)
    public void aTimedWaitWithoutDataReturnsFalse() throws IOException {
        assertFalse(source.awaitData(20));
        send((byte) 7);
        assertTrue(source.awaitData(10_000));
    }

    @Test(timeOut = 60_000)
    public void aReadWaitsForTheMinimumAcrossSeveralArrivals() throws Exception {
        ByteBuffer into = ByteBuffer.allocate(1000);
        Thread writer = new Thread(() -> {
            try {
                for (int i = 0; i < 10; i++) {
                    byte[] chunk = new byte[100];
                    java.util.Arrays.fill(chunk, (byte) i);
                    send(chunk);
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        writer.start();
        int n = 0;
        while (n < 1000) {
            n += source.read(into, Math.min(into.remaining(), 1000 - n));
        }
        writer.join();
        for (int i = 0; i < 1000; i++) {
            assertEquals(into.get(i), (byte) (i / 100), "byte " + i);
        }
    }

    @Test(timeOut = 60_000)
    public void endOfStreamIsReportedAsDataAndThenAsEofException() throws IOException {
        send((byte) 9);
        sender.shutdownOutput();
        ByteBuffer into = ByteBuffer.allocate(8);
        assertEquals(source.read(into, 1), 1);
        assertTrue(source.awaitData(0), "end of stream counts as ready");
        expectThrows(EOFException.class, () -> source.read(into, 1));
    }

    @Test(timeOut = 60_000)
    public void closingWakesAReaderBlockedInTheSelector() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try {
                source.read(ByteBuffer.allocate(8), 1);
            } catch (Throwable t) {
                failure.set(t);
            }
            done.countDown();
        });
        reader.start();
        // Closing before the reader blocks must fail it as well, so no wait for it is needed here.
        source.close();
        assertTrue(done.await(30, TimeUnit.SECONDS), "the blocked reader did not return");
        assertTrue(failure.get() instanceof IOException, "expected an IOException, got " + failure.get());
    }

    @Test(timeOut = 60_000)
    public void anInterruptedWaitForTheNextMessageGetsAnInterruptedIoExceptionAndTheConnectionStays()
            throws Exception {
        Thread.currentThread().interrupt();
        try {
            source.awaitData(0);
            fail("the wait returned without data");
        } catch (InterruptedIOException e) {
            assertTrue(Thread.interrupted(), "the interrupt status is kept");
        } finally {
            Thread.interrupted();
        }
        send((byte) 5);
        ByteBuffer into = ByteBuffer.allocate(1);
        assertEquals(source.read(into, 1), 1, "the connection still works after the interrupt");
        assertEquals(into.get(0), (byte) 5);
    }

    @Test(timeOut = 60_000)
    public void aReadInsideAMessageWaitsThroughAnInterruptAndKeepsIt() throws Exception {
        send((byte) 1);
        Thread me = Thread.currentThread();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                // the rest arrives only once the reader waits for it
                Waits.untilStack(me, "to wait in its selector", false, stack -> java.util.Arrays.stream(stack).anyMatch(
                        frame -> frame.getClassName().endsWith("SelectorImpl")
                                && frame.getMethodName().equals("select")));
                send((byte) 2, (byte) 3);
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        writer.start();
        me.interrupt();
        ByteBuffer into = ByteBuffer.allocate(3);
        int n;
        try {
            n = source.read(into, 3);
        } finally {
            assertTrue(Thread.interrupted(), "the interrupt status is kept");
        }
        writer.join();
        assertEquals(failure.get(), null);
        assertEquals(n, 3);
        assertEquals(into.array(), new byte[] {1, 2, 3});
    }

    @Test(timeOut = 60_000)
    public void theSinkOfTheNonBlockingChannelWritesEverythingWhenTheSocketBufferFills() throws Exception {
        TcpByteSink sink = new TcpByteSink(receiver, source);
        int size = 8 << 20; // far more than the socket buffers hold
        ByteBuffer out = ByteBuffer.allocateDirect(size);
        for (int i = 0; i < size; i++) {
            out.put((byte) (i * 7));
        }
        out.flip();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                sink.write(new ByteBuffer[] {out}, 0, 1);
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        writer.start();
        ByteBuffer in = ByteBuffer.allocate(size);
        while (in.hasRemaining()) {
            if (sender.read(in) < 0) {
                break;
            }
        }
        writer.join();
        assertEquals(failure.get(), null);
        assertFalse(in.hasRemaining(), "not everything arrived");
        for (int i = 0; i < size; i += 4099) {
            assertEquals(in.get(i), (byte) (i * 7), "byte " + i);
        }
    }
}
