package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;

import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.ipl.impl.ImplPropertyTable;
import ibis.testsupport.PoolFixture;

import java.io.IOException;
import java.util.Properties;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/**
 * One-byte request/reply between two Ibis instances in this JVM, with explicit receipt and with
 * upcalls. Checks every echoed byte; the time per round trip is only logged (informational, no
 * timing assertion).
 */
public class RoundTripTest {

    private static final Logger LOG = LoggerFactory.getLogger(RoundTripTest.class);

    private static final PortType EXPLICIT = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_BYTE,
            PortType.RECEIVE_EXPLICIT, PortType.COMMUNICATION_FIFO);
    private static final PortType UPCALLS = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_BYTE,
            PortType.RECEIVE_EXPLICIT, PortType.RECEIVE_AUTO_UPCALLS, PortType.COMMUNICATION_FIFO);

    private static final int ROUNDS = Integer.getInteger("roundtrip.rounds", 20_000);

    @DataProvider
    public Object[][] spins() {
        String configured = System.getProperty("roundtrip.spins");
        if (configured != null) {
            String[] parts = configured.split(",");
            Object[][] result = new Object[parts.length][];
            for (int i = 0; i < parts.length; i++) {
                result[i] = new Object[] {parts[i].trim()};
            }
            return result;
        }
        return new Object[][] {{"0"}, {"50"}};
    }

    private static Properties withSpin(PoolFixture pool, String spin) {
        Properties p = pool.properties();
        p.setProperty(ImplPropertyTable.RECEIVE_SPIN_MICROS, spin);
        return p;
    }

    @Test(dataProvider = "spins", timeOut = 120_000)
    public void explicitReceiveEchoesEveryByte(String spin) throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Ibis a = pool.create(withSpin(pool, spin), new IbisCapabilities(), null, EXPLICIT);
            Ibis b = pool.create(withSpin(pool, spin), new IbisCapabilities(), null, EXPLICIT);
            ReceivePort aIn = a.createReceivePort(EXPLICIT, "in");
            ReceivePort bIn = b.createReceivePort(EXPLICIT, "in");
            aIn.enableConnections();
            bIn.enableConnections();
            SendPort aOut = a.createSendPort(EXPLICIT);
            SendPort bOut = b.createSendPort(EXPLICIT);
            aOut.connect(bIn.identifier());
            bOut.connect(aIn.identifier());
            Thread echo = new Thread(() -> {
                try {
                    for (int i = 0; i < ROUNDS; i++) {
                        ReadMessage r = bIn.receive();
                        byte v = r.readByte();
                        r.finish();
                        WriteMessage w = bOut.newMessage();
                        w.writeByte(v);
                        w.finish();
                    }
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            }, "echo");
            echo.start();
            long start = 0;
            for (int i = 0; i < ROUNDS; i++) {
                if (i == ROUNDS / 2) {
                    start = System.nanoTime(); // the first half warms up
                }
                WriteMessage w = aOut.newMessage();
                w.writeByte((byte) i);
                w.finish();
                ReadMessage r = aIn.receive();
                assertEquals(r.readByte(), (byte) i);
                r.finish();
            }
            long perRound = (System.nanoTime() - start) / (ROUNDS - ROUNDS / 2);
            echo.join();
            LOG.info("explicit receive, spin {} us: {} us per 1-byte round trip", spin, perRound / 1000.0);
        }
    }

    @DataProvider
    public Object[][] finishInUpcall() {
        return new Object[][] {{true}, {false}};
    }

    @Test(dataProvider = "finishInUpcall", timeOut = 120_000)
    public void upcallEchoesEveryByte(boolean finishInUpcall) throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Ibis a = pool.create(UPCALLS);
            Ibis b = pool.create(UPCALLS);
            ReceivePort aIn = a.createReceivePort(UPCALLS, "in");
            SendPort bOut = b.createSendPort(UPCALLS);
            ReceivePort bIn = b.createReceivePort(UPCALLS, "in", m -> {
                byte v = m.readByte();
                if (finishInUpcall) {
                    m.finish();
                }
                WriteMessage w = bOut.newMessage();
                w.writeByte(v);
                w.finish();
            });
            aIn.enableConnections();
            bIn.enableConnections();
            bIn.enableMessageUpcalls();
            SendPort aOut = a.createSendPort(UPCALLS);
            aOut.connect(bIn.identifier());
            bOut.connect(aIn.identifier());
            long start = 0;
            for (int i = 0; i < ROUNDS; i++) {
                if (i == ROUNDS / 2) {
                    start = System.nanoTime();
                }
                WriteMessage w = aOut.newMessage();
                w.writeByte((byte) i);
                w.finish();
                ReadMessage r = aIn.receive();
                assertEquals(r.readByte(), (byte) i);
                r.finish();
            }
            long perRound = (System.nanoTime() - start) / (ROUNDS - ROUNDS / 2);
            LOG.info("upcall echo ({}): {} us per 1-byte round trip",
                    finishInUpcall ? "finish() in the upcall" : "finished when the upcall returns", perRound / 1000.0);
        }
    }
}
