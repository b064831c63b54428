package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import ibis.registry.RegistryProperties;
import ibis.registry.server.CentralRegistryServer;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/** Two real JVMs talking through TCP, with the registry in this JVM; one of them gets killed. */
public class MultiProcessTest {

    private CentralRegistryServer server;
    private final List<Process> processes = new ArrayList<>();

    /** A child JVM and the lines it printed (output and errors merged). */
    private static final class Child {
        final Process process;
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final List<String> all = new ArrayList<>();

        Child(Process process) {
            this.process = process;
            Thread pump = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        synchronized (all) {
                            all.add(line);
                        }
                        lines.add(line);
                    }
                } catch (IOException e) {
                    // the child is gone
                }
            }, "child-output");
            pump.setDaemon(true);
            pump.start();
        }

        /** Waits for a line starting with {@code prefix}; fails with the child's output when it does not come. */
        String await(String prefix) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                String line = lines.poll(1, TimeUnit.SECONDS);
                if (line != null && line.startsWith(prefix)) {
                    return line;
                }
            }
            synchronized (all) {
                fail("no line starting with '" + prefix + "'; the child printed:\n" + String.join("\n", all));
            }
            return null;
        }
    }

    @BeforeMethod
    public void startServer() throws IOException {
        Properties p = new Properties();
        p.setProperty(RegistryProperties.SERVER_BIND, "127.0.0.1");
        server = new CentralRegistryServer(0, p);
        server.start();
    }

    @AfterMethod(alwaysRun = true)
    public void stopEverything() {
        for (Process p : processes) {
            p.destroyForcibly();
        }
        processes.clear();
        if (server != null) {
            server.close();
        }
    }

    private Child start(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        command.add("-Xmx128m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(PeerMain.class.getName());
        for (String a : args) {
            command.add(a);
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        processes.add(p);
        return new Child(p);
    }

    @Test(timeOut = 120_000)
    public void twoJvmsExchangeMessages() throws Exception {
        String pool = "mp-" + UUID.randomUUID();
        Child receiver = start("receiver", server.address(), pool);
        receiver.await("READY");
        Child sender = start("sender", server.address(), pool, "1000");
        assertEquals(receiver.await("DONE"), "DONE 1000");
        assertEquals(sender.await("SENT"), "SENT 1000");
        assertTrue(receiver.process.waitFor(60, TimeUnit.SECONDS));
        assertTrue(sender.process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(receiver.process.exitValue(), 0);
        assertEquals(sender.process.exitValue(), 0);
    }

    @Test(timeOut = 120_000)
    public void aKilledSenderIsSeenAsALostConnectionWithoutHanging() throws Exception {
        String pool = "mp-" + UUID.randomUUID();
        Child receiver = start("receiver", server.address(), pool);
        receiver.await("READY");
        Child sender = start("sender", server.address(), pool, "-1");
        receiver.await("RECEIVED 10");
        sender.process.destroyForcibly(); // SIGKILL: no CLOSE message, no goodbye to the registry
        assertTrue(sender.process.waitFor(60, TimeUnit.SECONDS));
        String lost = receiver.await("LOST");
        assertTrue(lost.contains("upcall true with cause true"), lost);
        assertTrue(receiver.process.waitFor(60, TimeUnit.SECONDS), "the receiver hangs");
        assertEquals(receiver.process.exitValue(), 0);
    }
}
