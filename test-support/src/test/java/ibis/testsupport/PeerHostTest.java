package ibis.testsupport;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.annotations.Test;

/**
 * Roles run by a {@link PeerHost} (in a thread of this JVM, over a socket pair on loopback) behave for the test
 * as child JVMs do through {@link HostedPeers} and {@link ChildJvm#of}: their lines arrive, a role
 * that returns ends with 0, one that throws prints {@code FAILED} and ends with 1, a stopped one ends
 * with 143 after what it gave {@link PeerMain#closeWhenParentGoes} was closed, and closing the
 * channel stops every role and ends the host.
 */
public class PeerHostTest {

    /** Says HELLO and its argument, then stays until stopped; its closer counts down {@code closed}. */
    public static final class Talker implements PeerMain.Role {
        static volatile CountDownLatch closed = new CountDownLatch(1);

        @Override
        public void run(String[] args) throws Exception {
            CountDownLatch mine = closed;
            PeerMain.closeWhenParentGoes(mine::countDown);
            PeerMain.say("HELLO " + args[0]);
            PeerMain.stayUntilParentGoes();
        }
    }

    /** Says DONE and returns. */
    public static final class Returner implements PeerMain.Role {
        @Override
        public void run(String[] args) {
            PeerMain.say("DONE");
        }
    }

    /** Throws. */
    public static final class Thrower implements PeerMain.Role {
        @Override
        public void run(String[] args) {
            throw new IllegalStateException("boom " + args.length);
        }
    }

    /** A host serving in a thread of this JVM, and its test side. */
    private static final class Fixture implements AutoCloseable {
        final HostedPeers peers;
        final Thread host;
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        Fixture() throws IOException {
            // A socket pair on loopback: pipes of java.io fail once a thread that wrote to them ended.
            try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                Socket testSide = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                Socket hostSide = server.accept();
                host = new Thread(() -> {
                    try (hostSide) {
                        PeerHost.serve(hostSide.getInputStream(), hostSide.getOutputStream());
                    } catch (Throwable t) {
                        failure.set(t);
                    }
                }, "peer-host");
                host.start();
                // Closing the commands ends only that direction, as closing one of two named pipes does.
                OutputStream commands = new FilterOutputStream(testSide.getOutputStream()) {
                    @Override
                    public void close() throws IOException {
                        flush();
                        testSide.shutdownOutput();
                    }
                };
                peers = new HostedPeers(testSide.getInputStream(), commands);
            }
        }

        @Override
        public void close() throws Exception {
            peers.close();
            host.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(host.isAlive(), "the host ends when its commands end");
            assertEquals(failure.get(), null);
        }
    }

    @Test(timeOut = 60_000)
    public void aStoppedRoleEndsWith143AfterItsResourcesWereClosed() throws Exception {
        try (Fixture f = new Fixture()) {
            CountDownLatch closed = new CountDownLatch(1);
            Talker.closed = closed;
            ChildJvm peer = ChildJvm.of(f.peers.start(Talker.class, List.of("there")));
            assertEquals(peer.await("HELLO"), "there");
            assertTrue(peer.process().isAlive());
            assertEquals(closed.getCount(), 1L, "nothing is closed while the role runs");
            peer.kill();
            assertEquals(peer.process().exitValue(), PeerHost.STOPPED);
            assertEquals(closed.getCount(), 0L, "what the role gave closeWhenParentGoes was closed");
        }
    }

    @Test(timeOut = 60_000)
    public void aRoleThatReturnsEndsWith0AndOneThatThrowsSaysFailedAndEndsWith1() throws Exception {
        try (Fixture f = new Fixture()) {
            ChildJvm done = ChildJvm.of(f.peers.start(Returner.class, List.of()));
            assertEquals(done.await("DONE"), "");
            assertEquals(done.awaitExit(30), 0);
            ChildJvm thrown = ChildJvm.of(f.peers.start(Thrower.class, List.of("a", "b")));
            assertEquals(thrown.await(PeerMain.FAILED), "java.lang.IllegalStateException: boom 2");
            thrown.awaitLine("\tat ibis.testsupport.PeerHostTest$Thrower.run", Waits.EVENTUALLY_MILLIS);
            assertEquals(thrown.awaitExit(30), 1);
        }
    }

    @Test(timeOut = 60_000)
    public void closingTheChannelStopsTheRolesStillRunning() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        ChildJvm peer;
        try (Fixture f = new Fixture()) {
            Talker.closed = closed;
            peer = ChildJvm.of(f.peers.start(Talker.class, List.of("x")));
            assertEquals(peer.await("HELLO"), "x");
        }
        assertEquals(peer.awaitExit(30), PeerHost.STOPPED);
        assertEquals(closed.getCount(), 0L);
    }
}
