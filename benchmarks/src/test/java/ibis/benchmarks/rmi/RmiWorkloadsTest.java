package ibis.benchmarks.rmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import ibis.benchmarks.rmi.RmiProcesses.Child;
import ibis.benchmarks.rmi.RmiProcesses.Mode;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;

import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/**
 * The rmi suite's server and client JVMs, on the JDK's java.rmi and (the rewritten copy) on Ibis
 * RMI: every workload at a tiny size computes the right result. The client checks each run itself
 * (the server counted every call, the value that arrived at the server, in the echo or at the
 * callback has the checksum of the value sent) and answers {@code ERR} otherwise.
 */
public class RmiWorkloadsTest {

    @DataProvider
    public Object[][] modes() {
        return new Object[][] {{Mode.JDK}, {Mode.IBIS}};
    }

    @Test(dataProvider = "modes", timeOut = 120_000)
    public void everyWorkloadDeliversWhatWasSentOnBothRmis(Mode mode) throws Exception {
        try (RmiProcesses procs = new RmiProcesses(mode)) {
            int port = mode == Mode.JDK ? freePort() : 1099;
            String pool = procs.newPoolName();
            Child server = procs.start("server", 1, RmiBenchServer.class.getName(),
                    i -> List.of(Integer.toString(port), "bench"), pool, 0).get(0);
            server.awaitLine("READY", 60_000, null);
            Child client = procs.start("client", 1, RmiBenchClient.class.getName(),
                    i -> List.of(Integer.toString(port), "bench", "--callback"), pool, 0).get(0);
            String stub = client.awaitLine("READY", 60_000, null).substring(6);
            if (mode == Mode.IBIS) {
                // The rewritten copy carries build-time stubs (the rewriter's RMI stubs pass).
                assertEquals(stub, BenchServiceImpl.class.getName() + "_IbisStub",
                        "the rewritten client must hold the build-time Ibis RMI stub");
            } else {
                assertFalse(stub.startsWith("ibis."), "the compiled client must hold a JDK stub: " + stub);
            }
            for (String op : List.of("ping0", "ping2i", "ping2i2f")) {
                assertOk(client, "RUN " + op + " - 3");
            }
            for (String spec : List.of("null", "byte:50", "int:200", "float:20", "double:12800", "ints4", "ints32",
                    "ints4null2", "tree:15", "tree:1023")) {
                for (String op : List.of("ping", "echo", "pingpong", "send")) {
                    assertOk(client, "RUN " + op + " " + spec + " 2");
                }
            }
            assertOk(client, "STAR 1 5");
            client.send("RUN nosuchop - 1");
            assertTrue(client.nextLine(30_000).startsWith("ERR "), "an unknown operation is refused");
            RmiProcesses.closeAll(List.of(client, server));
            assertEquals(client.process().exitValue(), 0);
            assertEquals(server.process().exitValue(), 0);
        }
    }

    private static void assertOk(Child client, String command) throws Exception {
        client.send(command);
        String answer = client.nextLine(60_000);
        assertTrue(answer.startsWith("OK "), command + " -> " + answer);
        assertTrue(Long.parseLong(answer.substring(3).trim()) > 0, command + " -> " + answer);
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
