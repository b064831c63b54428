package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.testsupport.ChildJvm;
import ibis.testsupport.PoolFixture;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/** Two real JVMs talking through TCP, with the registry in this JVM; one of them gets killed. */
public class MultiProcessTest {

    private PoolFixture pool;
    private final List<ChildJvm> children = new ArrayList<>();

    @BeforeMethod
    public void startServer() throws IOException {
        pool = new PoolFixture("tcp");
    }

    @AfterMethod(alwaysRun = true)
    public void stopEverything() {
        children.forEach(ChildJvm::close);
        children.clear();
        if (pool != null) {
            pool.close();
        }
    }

    private ChildJvm start(String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of(args));
        all.add(1, pool.serverAddress());
        all.add(2, pool.poolName());
        ChildJvm child = ChildJvm.startPeer(List.of("-Xmx128m"), TcpPeer.class, all.toArray(new String[0]));
        children.add(child);
        return child;
    }

    @Test(timeOut = 120_000)
    public void twoJvmsExchangeMessages() throws Exception {
        ChildJvm receiver = start("receiver");
        receiver.awaitLine("READY", 60_000);
        ChildJvm sender = start("sender", "1000");
        assertEquals(receiver.awaitLine("DONE", 60_000), "DONE 1000");
        assertEquals(sender.awaitLine("SENT", 60_000), "SENT 1000");
        assertTrue(receiver.process().waitFor(60, TimeUnit.SECONDS));
        assertTrue(sender.process().waitFor(60, TimeUnit.SECONDS));
        assertEquals(receiver.process().exitValue(), 0);
        assertEquals(sender.process().exitValue(), 0);
    }

    @Test(timeOut = 120_000)
    public void aKilledSenderIsSeenAsALostConnectionWithoutHanging() throws Exception {
        ChildJvm receiver = start("receiver");
        receiver.awaitLine("READY", 60_000);
        ChildJvm sender = start("sender", "-1");
        receiver.awaitLine("RECEIVED 10", 60_000);
        sender.process().destroyForcibly(); // SIGKILL: no CLOSE message, no goodbye to the registry
        assertTrue(sender.process().waitFor(60, TimeUnit.SECONDS));
        String lost = receiver.awaitLine("LOST", 60_000);
        assertTrue(lost.contains("upcall true with cause true"), lost);
        assertTrue(receiver.process().waitFor(60, TimeUnit.SECONDS), "the receiver hangs");
        assertEquals(receiver.process().exitValue(), 0);
    }
}
