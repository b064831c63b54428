package ibis.impl.ucx.system;

import static org.testng.Assert.assertEquals;

import ibis.testsupport.PoolFixture;

import java.util.ArrayList;
import java.util.List;

import org.testng.annotations.Test;

/**
 * Volume between two child JVMs on this host: a million small messages and a gibibyte in
 * mebibyte messages, each checked by a CRC-32 over every payload in order, at both ends.
 */
public class VolumeTest {

    @Test(timeOut = 300_000)
    public void aMillionSmallMessagesArriveIntactAndInOrder() throws Exception {
        stream(false, 1_000_000);
    }

    @Test(timeOut = 300_000)
    public void aGibibyteInMebibyteMessagesArrivesIntact() throws Exception {
        stream(true, 1024);
    }

    private static void stream(boolean large, long messages) throws Exception {
        String kind = large ? "large" : "small";
        String expected = SystemPeer.expectedStream(large, messages);
        List<Child> children = new ArrayList<>();
        try (PoolFixture pool = new PoolFixture()) {
            Child receiver = SystemSetup.startMember(children, "receiver", SystemSetup.jvmOptions(), "stream-receiver",
                    pool.serverAddress(), pool.poolName(), kind);
            receiver.awaitLine("READY", 60);
            long start = System.nanoTime();
            Child sender = SystemSetup.startMember(children, "sender", SystemSetup.jvmOptions(), "stream-sender",
                    pool.serverAddress(), pool.poolName(), kind, Long.toString(messages));
            SystemSetup.assertImplementation(sender);
            assertEquals(receiver.awaitLine("RESULT", 240), expected, receiver.output());
            assertEquals(sender.awaitLine("RESULT", 60), expected, sender.output());
            System.out.printf("%s: %d %s messages in %.1f s (with JVM start)%n", SystemSetup.implementation(),
                    messages, kind, (System.nanoTime() - start) / 1e9);
            assertEquals(receiver.awaitExit(60), 0, receiver.output());
            assertEquals(sender.awaitExit(60), 0, sender.output());
        } finally {
            SystemSetup.closeAll(children);
        }
    }
}
