package ibis.rmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.rmi.server.UnicastRemoteObject;
import ibis.rmi.testing.Echo;
import ibis.rmi.testing.EchoImpl;
import ibis.rmi.testing.RmiTestPool;
import ibis.testsupport.Waits;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.Test;

/**
 * A caller interrupted while its request waits for room in a full socket buffer (the server is
 * not reading yet) gets its reply, keeps its interrupt, and the stub's connection serves on.
 */
public class InterruptedCallTest {

    /**
     * Four arrays of 8 MiB (below ibis.io.object.array.max): far more than loopback socket buffers
     * hold (Linux autotunes them to a few MiB each).
     */
    private static final int PARTS = 4;
    private static final int PART_BYTES = 8 << 20;

    /** Opened by the test; the server's reading of a {@link Gate} waits for it. */
    static final CountDownLatch OPEN = new CountDownLatch(1);
    /** Counted down when the server started reading a {@link Gate}. */
    static final CountDownLatch SERVER_READING = new CountDownLatch(1);

    /** A parameter whose deserialization waits until the test opens it: the server stops reading there. */
    static final class Gate implements Serializable {
        private static final long serialVersionUID = 1L;

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            SERVER_READING.countDown();
            try {
                if (!OPEN.await(60, TimeUnit.SECONDS)) {
                    throw new IOException("the test never opened the gate");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while the gate was closed");
            }
        }
    }

    @Test(timeOut = 120_000)
    public void anInterruptWhileTheRequestWaitsForBufferRoomDoesNotEndTheCall() throws Exception {
        RmiTestPool.start();
        EchoImpl served = new EchoImpl();
        Echo echo = (Echo) UnicastRemoteObject.exportObject(served);
        try {
            assertEquals(echo.echoInt(1), 1, "connected");
            Object[] parameter = new Object[1 + PARTS];
            parameter[0] = new Gate();
            for (int p = 1; p <= PARTS; p++) {
                byte[] part = new byte[PART_BYTES];
                for (int i = 0; i < part.length; i++) {
                    part[i] = (byte) (i * 17 + (i >>> 11) + p);
                }
                parameter[p] = part;
            }
            CompletableFuture<Object> result = new CompletableFuture<>();
            CompletableFuture<Boolean> interruptKept = new CompletableFuture<>();
            Thread caller = new Thread(() -> {
                try {
                    result.complete(echo.echoObject(parameter));
                } catch (Throwable t) {
                    result.complete(t);
                }
                interruptKept.complete(Thread.interrupted());
            }, "interrupted caller");
            caller.start();
            try {
                assertTrue(SERVER_READING.await(60, TimeUnit.SECONDS), "the server reads the request");
                // in a native JDK call under the TCP sink: its send found the buffer full
                Waits.untilStack(caller, "blocked in its send", false,
                        stack -> Waits.inNativeCallUnder(stack, "ibis.impl.tcp.TcpByteSink"));
                caller.interrupt(); // as a thread pool's cancel(true) would
                OPEN.countDown();
                Object got = result.get(60, TimeUnit.SECONDS);
                assertTrue(got instanceof Object[], "the interrupted call returned its result, got " + got);
                Object[] array = (Object[]) got;
                assertEquals(array.length, parameter.length);
                assertTrue(array[0] instanceof Gate);
                for (int p = 1; p <= PARTS; p++) {
                    assertTrue(Arrays.equals((byte[]) array[p], (byte[]) parameter[p]), "every byte of part " + p
                            + " arrived and came back");
                }
                assertTrue(interruptKept.get(60, TimeUnit.SECONDS), "the caller keeps its interrupt");
            } finally {
                OPEN.countDown();
                caller.interrupt();
                caller.join(30_000);
            }
            assertEquals(echo.echoInt(2), 2, "the stub serves on");
        } finally {
            UnicastRemoteObject.unexportObject(served, true);
        }
    }
}
