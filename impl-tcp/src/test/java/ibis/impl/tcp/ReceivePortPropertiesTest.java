package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.Ibis;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.ipl.impl.ImplPropertyTable;
import ibis.testsupport.PoolFixture;

import java.util.Properties;

import org.testng.annotations.Test;

/** Properties given to {@code createReceivePort} hold for that port: the yield period of its receive. */
public class ReceivePortPropertiesTest {

    private static Properties yieldEvery(String value) {
        Properties p = new Properties();
        p.setProperty(ImplPropertyTable.RECEIVE_YIELD_EVERY, value);
        return p;
    }

    @Test(timeOut = 60_000)
    public void aBadYieldPeriodOfAPortIsRefusedNamingTheProperty() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Ibis a = pool.create(PortTypes.MANY_TO_ONE_EXPLICIT);
            IbisConfigurationException e = expectThrows(IbisConfigurationException.class,
                    () -> a.createReceivePort(PortTypes.MANY_TO_ONE_EXPLICIT, "bad", null, null, yieldEvery("0")));
            assertTrue(e.getMessage().contains(ImplPropertyTable.RECEIVE_YIELD_EVERY), e.getMessage());
        }
    }

    @Test(timeOut = 60_000)
    public void aPortWithItsOwnYieldPeriodReceives() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Ibis a = pool.create(PortTypes.MANY_TO_ONE_EXPLICIT);
            Ibis b = pool.create(PortTypes.MANY_TO_ONE_EXPLICIT);
            ReceivePort rp = b.createReceivePort(PortTypes.MANY_TO_ONE_EXPLICIT, "in", null, null, yieldEvery("1"));
            rp.enableConnections();
            SendPort[] senders = { a.createSendPort(PortTypes.MANY_TO_ONE_EXPLICIT),
                b.createSendPort(PortTypes.MANY_TO_ONE_EXPLICIT) };
            long sum = 0;
            for (SendPort sp : senders) {
                sp.connect(rp.identifier());
            }
            for (int i = 0; i < 1000; i++) {
                WriteMessage w = senders[i % 2].newMessage();
                w.writeInt(i);
                w.finish();
                ReadMessage r = rp.receive();
                sum += r.readInt();
                r.finish();
            }
            assertEquals(sum, 999L * 1000 / 2);
            for (SendPort sp : senders) {
                sp.close();
            }
            rp.close();
        }
    }
}
