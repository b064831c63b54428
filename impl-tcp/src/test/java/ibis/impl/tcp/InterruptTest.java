package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.Ibis;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;

import java.io.IOException;
import java.io.InterruptedIOException;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * Interrupts of threads that send or receive: an interrupt is the application's business and never
 * breaks a connection (a thread pool's cancel, or a timeout mechanism, would otherwise cut the
 * connection of every other user of the port). Waiting for the next message ends with an
 * {@link InterruptedIOException}; sending and reading inside a message go on; the interrupt status
 * is kept for the caller either way.
 */
public class InterruptTest {

    private TestPool pool;
    private Ibis a;
    private Ibis b;
    private int names;

    @BeforeClass
    public void start() throws Exception {
        pool = new TestPool();
        a = pool.create(TestPool.ONE_TO_ONE);
        b = pool.create(TestPool.ONE_TO_ONE);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (pool != null) {
            pool.close();
        }
    }

    private synchronized String fresh(String base) {
        return base + "-" + (++names);
    }

    private static void send(SendPort sp, int value) throws IOException {
        WriteMessage w = sp.newMessage();
        w.writeInt(value);
        w.finish();
    }

    private static int receive(ReceivePort rp) throws IOException {
        ReadMessage m = rp.receive(30_000);
        int value = m.readInt();
        m.finish();
        return value;
    }

    @Test(timeOut = 60_000)
    public void anInterruptedReceiveThrowsInterruptedIoExceptionAndTheConnectionGoesOn() throws Exception {
        ReceivePort rp = b.createReceivePort(TestPool.ONE_TO_ONE, fresh("rx"));
        rp.enableConnections();
        SendPort sp = a.createSendPort(TestPool.ONE_TO_ONE);
        sp.connect(rp.identifier());
        send(sp, 1);
        assertEquals(receive(rp), 1);
        Thread.currentThread().interrupt();
        try {
            expectThrows(InterruptedIOException.class, () -> rp.receive(30_000));
            assertTrue(Thread.interrupted(), "the interrupt status is kept for the caller");
        } finally {
            Thread.interrupted();
        }
        send(sp, 2);
        assertEquals(receive(rp), 2, "the connection still delivers");
        assertEquals(rp.lostConnections().length, 0);
        assertEquals(rp.connectedTo().length, 1);
        sp.close();
        rp.close();
    }

    @Test(timeOut = 60_000)
    public void aSenderWithAPendingInterruptSendsAndKeepsTheInterrupt() throws Exception {
        ReceivePort rp = b.createReceivePort(TestPool.ONE_TO_ONE, fresh("rx"));
        rp.enableConnections();
        SendPort sp = a.createSendPort(TestPool.ONE_TO_ONE);
        sp.connect(rp.identifier());
        byte[] big = new byte[300_000]; // several blocks, and more than one socket write
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i * 13);
        }
        Thread.currentThread().interrupt();
        try {
            WriteMessage w = sp.newMessage();
            w.writeInt(7);
            w.writeArray(big);
            w.finish();
            assertTrue(Thread.interrupted(), "the interrupt status is kept for the caller");
        } finally {
            Thread.interrupted();
        }
        ReadMessage m = rp.receive(30_000);
        assertEquals(m.readInt(), 7);
        byte[] back = new byte[big.length];
        m.readArray(back);
        m.finish();
        assertEquals(back, big);
        send(sp, 8);
        assertEquals(receive(rp), 8, "the connection still delivers");
        assertEquals(sp.lostConnections().length, 0);
        sp.close();
        rp.close();
    }
}
