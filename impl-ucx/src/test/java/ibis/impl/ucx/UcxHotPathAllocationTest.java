package ibis.impl.ucx;

import static org.testng.Assert.assertTrue;

import ibis.ipl.Ibis;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PoolFixture;

import java.lang.management.ManagementFactory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/**
 * The message path allocates nothing per message once warm: sending and explicitly receiving
 * messages in one thread, the bytes that thread allocated stay flat.
 */
public class UcxHotPathAllocationTest {

    private static final Logger LOG = LoggerFactory.getLogger(UcxHotPathAllocationTest.class);

    private static final PortType TYPE = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA,
            PortType.RECEIVE_EXPLICIT, PortType.COMMUNICATION_FIFO, PortType.COMMUNICATION_NUMBERED);

    /**
     * int[] length, warm-up and measured messages: small messages, and 160 KB ones whose arrays the
     * UCX sink copies once into its staging buffers (rendezvous messages, still in flight when the
     * write returns).
     */
    /** The measured messages are counted in this many windows. */
    private static final int WINDOWS = 4;

    @DataProvider
    public Object[][] payloads() {
        return new Object[][] {{64, 20_000, 20_000}, {40_000, 1_000, 2_000}};
    }

    @Test(dataProvider = "payloads", timeOut = 120_000)
    public void sendingAndReceivingAllocatesNothingPerMessage(int length, int warmup, int measured) throws Exception {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        if (!(bean instanceof com.sun.management.ThreadMXBean)) {
            throw new AssertionError(
                    "must be available on every supported JDK: this JVM cannot count allocated bytes per thread");
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        try (PoolFixture pool = new PoolFixture(UcxIbisStarter.NICKNAME)) {
            Ibis a = pool.create(TYPE);
            Ibis b = pool.create(TYPE);
            ReceivePort rp = b.createReceivePort(TYPE, "in");
            rp.enableConnections();
            SendPort sp = a.createSendPort(TYPE);
            sp.connect(rp.identifier());
            int[] payload = new int[length];
            for (int i = 0; i < length; i++) {
                payload[i] = i * 31;
            }
            int[] into = new int[length];
            // The measured messages in WINDOWS equal windows: something allocated once (a buffer
            // grown, a JIT deoptimisation) shows in one window only, a per-message allocation in all.
            long id = Thread.currentThread().getId();
            long fewest = Long.MAX_VALUE;
            long windowStart = 0;
            int window = measured / WINDOWS;
            for (int i = 0; i < warmup + window * WINDOWS; i++) {
                if (i >= warmup && (i - warmup) % window == 0) {
                    long now = threads.getThreadAllocatedBytes(id);
                    if (i > warmup) {
                        fewest = Math.min(fewest, now - windowStart);
                    }
                    windowStart = now;
                }
                WriteMessage w = sp.newMessage();
                w.writeInt(i);
                w.writeArray(payload);
                w.finish();
                ReadMessage r = rp.receive();
                if (r.readInt() != i) {
                    throw new AssertionError("message " + i + " out of order");
                }
                r.readArray(into);
                r.finish();
            }
            fewest = Math.min(fewest, threads.getThreadAllocatedBytes(id) - windowStart);
            long perMessage = fewest / window;
            LOG.info("bytes allocated per message (send + receive) once warm, in the quietest window: {}",
                    perMessage);
            assertTrue(java.util.Arrays.equals(into, payload));
            // A few bytes of slack for JVM-internal noise; one object per message would be 16 or more.
            assertTrue(perMessage < 8, "the message path allocates " + perMessage + " bytes per message");
        }
    }
}
