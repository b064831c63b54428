package ibis.impl.ucx.system;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertTrue;

import ibis.testsupport.PoolFixture;

import java.util.ArrayList;
import java.util.List;

import org.testng.annotations.Test;

/**
 * Members killed with SIGKILL (no goodbye to anyone) in the middle of a stream between two child
 * JVMs on this host: the survivor notices within a bounded time, whether it was reading or blocked
 * writing.
 */
public class KilledMemberTest {

    /** The smallest credit window of ucx (ibis.ucx.window), so that a sender blocks early. */
    private static final int WINDOW = 3 << 20;
    private static final int MESSAGE = 64 << 10;
    private static final int READ_BEFORE_STALL = 16;

    @Test(timeOut = 180_000)
    public void aReceiverSeesTheLossOfASenderKilledMidStream() throws Exception {
        List<Child> children = new ArrayList<>();
        try (PoolFixture pool = new PoolFixture()) {
            Child receiver = SystemSetup.startMember(children, "receiver", SystemSetup.jvmOptions(), "stream-receiver",
                    pool.serverAddress(), pool.poolName(), "small");
            receiver.awaitLine("READY", 60);
            Child sender = SystemSetup.startMember(children, "sender", SystemSetup.jvmOptions(), "stream-sender",
                    pool.serverAddress(), pool.poolName(), "small", "-1");
            SystemSetup.assertImplementation(sender);
            receiver.awaitLine("RECEIVED 1000", 60);

            sender.kill(); // SIGKILL: no close message, no goodbye to the registry

            String lost = receiver.await("LOST receive", 60);
            assertTrue(lost.contains("Exception"), lost);
            String upcall = receiver.await("UPCALL lost", 60);
            assertNotEquals(upcall, "null", "the lostConnection upcall of a killed sender has a cause");
            assertEquals(receiver.awaitExit(60), 0, receiver.output());
        } finally {
            SystemSetup.closeAll(children);
        }
    }

    @Test(timeOut = 180_000)
    public void aSenderBlockedOnAFullWindowFailsWhenTheReceiverIsKilled() throws Exception {
        // ucx: at most the window plus what the ends buffer is in flight; tcp: the sockets' buffers.
        long bound = SystemSetup.ucx() ? READ_BEFORE_STALL * MESSAGE + WINDOW + (4 << 20) : 64 << 20;
        List<String> options = SystemSetup.ucx() ? SystemSetup.jvmOptions("-Dibis.ucx.window=" + WINDOW)
                : SystemSetup.jvmOptions();
        List<Child> children = new ArrayList<>();
        try (PoolFixture pool = new PoolFixture()) {
            Child receiver = SystemSetup.startMember(children, "receiver", options, "stall-receiver",
                    pool.serverAddress(), pool.poolName(), Integer.toString(READ_BEFORE_STALL));
            receiver.awaitLine("READY", 60);
            Child sender = SystemSetup.startMember(children, "sender", options, "flood-sender", pool.serverAddress(),
                    pool.poolName(), Integer.toString(MESSAGE), Long.toString(bound));
            SystemSetup.assertImplementation(sender);
            assertEquals(receiver.await("STALLED consumed=", 60), Long.toString((long) READ_BEFORE_STALL * MESSAGE));
            long blockedAt = Long.parseLong(sender.await("BLOCKED completed=", 60));
            assertTrue(blockedAt <= bound, "blocked after " + blockedAt + " bytes");

            receiver.kill();

            String failed = sender.await("WRITE FAILED completed=", 60);
            long completed = Long.parseLong(failed.substring(0, failed.indexOf(' ')));
            assertTrue(completed <= bound, failed);
            assertEquals(sender.awaitExit(60), 0, sender.output());
        } finally {
            SystemSetup.closeAll(children);
        }
    }
}
