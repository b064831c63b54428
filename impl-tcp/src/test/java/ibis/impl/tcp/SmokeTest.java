package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;

import ibis.ipl.Ibis;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PoolFixture;

import org.testng.annotations.Test;

public class SmokeTest {

    @Test(timeOut = 60_000)
    public void oneMessageGoesThrough() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Ibis a = pool.create(PortTypes.ONE_TO_ONE);
            Ibis b = pool.create(PortTypes.ONE_TO_ONE);
            ReceivePort rp = b.createReceivePort(PortTypes.ONE_TO_ONE, "in");
            rp.enableConnections();
            SendPort sp = a.createSendPort(PortTypes.ONE_TO_ONE);
            sp.connect(rp.identifier());
            WriteMessage w = sp.newMessage();
            w.writeInt(42);
            w.writeString("hello");
            w.finish();
            ReadMessage r = rp.receive();
            assertEquals(r.readInt(), 42);
            assertEquals(r.readString(), "hello");
            r.finish();
            long t0 = System.nanoTime();
            int n = 20000;
            for (int i = 0; i < n; i++) {
                w = sp.newMessage();
                w.writeByte((byte) i);
                w.finish();
                r = rp.receive();
                assertEquals(r.readByte(), (byte) i);
                r.finish();
            }
            System.err.println("one-way pipelined per message: " + (System.nanoTime() - t0) / n / 1000.0 + " us");
        }
    }

    /** The IPL conformance suite checks that some implementation is chosen; this one is the default. */
    @Test
    public void tcpIsTheDefaultImplementation() {
        assertEquals(ibis.ipl.IbisFactory.DEFAULT_IMPLEMENTATION, TcpIbisStarter.NICKNAME);
    }
}
