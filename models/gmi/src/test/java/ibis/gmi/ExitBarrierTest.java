package ibis.gmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;

import ibis.gmi.testing.ExitBarrierPeer;
import ibis.gmi.testing.GmiTestPool;
import ibis.testsupport.ChildJvm;
import ibis.testsupport.PoolFixture;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.Test;

/**
 * {@link Group#exit()} is a barrier, as in the earlier GMI: earlier GMI programs let every process
 * join a group and then call {@code exit()} at once, while only process 0 goes on invoking the
 * group. Three JVMs: processes 1 and 2 call {@code exit()} right after joining; once they are done
 * (their JVMs ended, or the directory at process 0 logs that both wait in {@code exit()}, whichever
 * comes first), the test lets process 0 make a group call combined by a flat sum. It must get the
 * sum of all three members, and only then may the others' {@code exit()} return.
 */
public class ExitBarrierTest {

    private static final String DIRECTORY_LOG = "DEBUG ibis.gmi.impl.GroupDirectory";

    @Test(timeOut = 180_000)
    public void processesThatExitEarlyKeepServingUntilEveryProcessExits() throws Exception {
        int size = 3;
        List<ChildJvm> children = new ArrayList<>();
        try (PoolFixture pool = new PoolFixture(GmiTestPool.implementation());
                ServerSocket go = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            for (int i = 0; i < size; i++) {
                children.add(ChildJvm.startPeer(List.of("-Xmx128m", "-XX:TieredStopAtLevel=1",
                        "-Dibis.server.address=" + pool.serverAddress(), "-Dibis.pool.name=" + pool.poolName(),
                        "-Dibis.pool.size=" + size, "-Dibis.implementation=" + pool.implementation(),
                        "-Dibis.gmi.connect.timeout=30000",
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                        "-Dorg.slf4j.simpleLogger.showThreadName=false",
                        "-Dorg.slf4j.simpleLogger.log.ibis.gmi.impl.GroupDirectory=debug"), ExitBarrierPeer.class,
                        Integer.toString(go.getLocalPort())));
            }
            ChildJvm zero = null;
            List<ChildJvm> others = new ArrayList<>();
            for (ChildJvm c : children) {
                if (c.awaitLine("RANK", 60_000).equals("RANK 0")) {
                    zero = c;
                } else {
                    others.add(c);
                }
            }
            assertNotNull(zero, "no process of rank 0");
            for (ChildJvm c : others) {
                c.awaitLine("EXITING", 60_000);
            }
            // The others are done: either their JVMs ended (an exit that does not wait), or process
            // 0's directory has both in its exit barrier.
            ChildJvm directory = zero;
            CompletableFuture<Void> waiting = new CompletableFuture<>();
            Thread reader = new Thread(() -> {
                try {
                    int seen = 0;
                    while (seen < size - 1) {
                        if (directory.awaitLine(DIRECTORY_LOG, 90_000).contains("is in Group.exit()")) {
                            seen++;
                        }
                    }
                    waiting.complete(null);
                } catch (InterruptedException e) {
                    waiting.cancel(false); // the others ended first
                } catch (AssertionError e) {
                    waiting.completeExceptionally(e);
                }
            }, "exit-barrier-log");
            reader.start();
            CompletableFuture<?>[] ends = others.stream().map(c -> c.process().onExit())
                    .toArray(CompletableFuture<?>[]::new);
            try {
                CompletableFuture.anyOf(waiting, CompletableFuture.allOf(ends)).get(90, TimeUnit.SECONDS);
            } finally {
                reader.interrupt(); // it must not take process 0's lines from here on
                reader.join();
            }
            go.setSoTimeout(60_000);
            try (Socket s = go.accept(); OutputStream out = s.getOutputStream()) {
                out.write("go\n".getBytes(StandardCharsets.UTF_8));
            }
            zero.awaitLine("WAITING go", 60_000);
            // ranks 0, 1, 2 answer rankTimes(1) with 1, 2, 3
            assertEquals(zero.awaitLine("RESULT", 60_000), "RESULT 6", zero.output());
            for (ChildJvm c : children) {
                c.awaitLine("EXITED", 60_000);
                assertEquals(c.awaitExit(30), 0, c.output());
            }
        } finally {
            for (ChildJvm c : children) {
                c.close();
            }
        }
    }
}
