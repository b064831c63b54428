package ibis.registry.server;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.testsupport.ChildJvm;

import java.util.List;
import java.util.Properties;

import org.testng.annotations.Test;

/** The command line of {@code ibis-server}, as a started process sees it. */
public class RegistryServerMainTest {

    /**
     * A start script written for IPL 2.x's server passes options about SmartSockets hubs and its
     * remote control, in any case; the server starts anyway, says which options it ignores, and
     * serves.
     */
    @Test(timeOut = 120_000)
    public void theOptionsOfIpl2sServerAreAcceptedAndTheServerStarts() throws Exception {
        try (ChildJvm server = ChildJvm.start(List.of(), RegistryServerMain.class.getName(), "--PORT", "0",
                "--Events", "--errors", "--stats", "--no-hub", "--hub-addresses", "h1,h2", "--hub-address-file",
                "hubs.txt", "--remote")) {
            String listening = server.awaitLine("Ibis registry server listening on", 60_000);
            assertTrue(listening.matches(".*:\\d+$"), listening);
            String output = server.output();
            assertTrue(output.contains("--hub-addresses h1,h2 (an IPL 2.x option) is ignored"), output);
            assertTrue(output.contains("--remote (an IPL 2.x option) is ignored"), output);
        }
    }

    @Test(timeOut = 120_000)
    public void anUnknownOptionIsStillAUsageError() throws Exception {
        try (ChildJvm server = ChildJvm.start(List.of(), RegistryServerMain.class.getName(), "--frobnicate")) {
            assertEquals(server.awaitExit(60), 2, server.output());
            assertTrue(server.output().contains("unknown argument '--frobnicate'"), server.output());
        }
    }

    @Test(timeOut = 60_000)
    public void statisticsNameThePoolsAndTheConnections() throws Exception {
        CentralRegistryServer server = new CentralRegistryServer(0, new Properties());
        try {
            server.start();
            String text = RegistryServerMain.statistics(server);
            assertTrue(text.startsWith("statistics: 0 pool(s), 0 connection(s)"), text);
        } finally {
            server.close();
        }
    }
}
