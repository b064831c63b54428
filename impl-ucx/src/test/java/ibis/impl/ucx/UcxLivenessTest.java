package ibis.impl.ucx;

import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.io.ByteSource;
import ibis.ipl.impl.ConnectionEnds;
import ibis.ipl.impl.HierarchicalLocation;
import ibis.ipl.impl.MemberIdentifier;
import ibis.testsupport.ChildJvm;
import ibis.testsupport.PeerMain;
import ibis.testsupport.Waits;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.Test;

/**
 * A peer process killed with SIGKILL: the side channel's socket closes with it, and whoever waits on
 * the connection (a reader for the next bytes, a writer for credit) fails with an IOException
 * instead of waiting for ever (UCX's endpoints run without peer error handling by default, so UCX
 * itself would not tell).
 */
public class UcxLivenessTest {

    /** Upper bound for a wait to end after the kill (far above what it needs; not a timing assertion). */
    private static final long ENDS_WITHIN_SECONDS = 30;

    private static final int HELLO = 1000;

    private static MemberIdentifier member(String hexContactData) {
        return new MemberIdentifier("peer", "pool", new HierarchicalLocation("peer"), null, UcxIbisStarter.NICKNAME,
                HexFormat.of().parseHex(hexContactData));
    }

    /** Child: connects to the transport whose contact data is {@code args[0]}, writes a little, stays. */
    public static final class Writer implements PeerMain.Role {
        @Override
        public void run(String[] args) throws Exception {
            UcxTransport transport = new UcxTransport(new Properties(), (sink, source, peer) -> { });
            ConnectionEnds ends = transport.connect(member(args[0]), 20_000);
            ends.sink().write(new ByteBuffer[] {ByteBuffer.wrap(new byte[HELLO])}, 0, 1);
            PeerMain.say("CONNECTED");
            PeerMain.stayUntilParentGoes();
        }
    }

    /** Child: accepts connections and never reads them; prints its contact data. */
    public static final class IdleReader implements PeerMain.Role {
        @Override
        public void run(String[] args) throws Exception {
            BlockingQueue<ConnectionEnds> accepted = new LinkedBlockingQueue<>();
            UcxTransport transport = new UcxTransport(new Properties(),
                    (sink, source, peer) -> accepted.add(new ConnectionEnds(sink, source, peer)));
            PeerMain.say("CONTACT " + HexFormat.of().formatHex(transport.contactData()));
            PeerMain.stayUntilParentGoes();
        }
    }

    private static ChildJvm start(Class<? extends PeerMain.Role> role, String... args) throws IOException {
        return ChildJvm.startPeer(List.of("-Xmx128m"), role, args);
    }

    @Test(timeOut = 120_000)
    public void aReaderWaitingForAKilledWriterFailsWithALostConnection() throws Exception {
        BlockingQueue<ConnectionEnds> accepted = new LinkedBlockingQueue<>();
        UcxTransport transport = new UcxTransport(new Properties(),
                (sink, source, peer) -> accepted.add(new ConnectionEnds(sink, source, peer)));
        try (ChildJvm child = start(Writer.class, HexFormat.of().formatHex(transport.contactData()))) {
            ConnectionEnds ends = accepted.poll(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS);
            assertNotNull(ends, "the child connected; its output:\n" + child.output());
            ByteSource source = ends.source();
            ByteBuffer hello = ByteBuffer.allocate(HELLO);
            while (hello.hasRemaining()) {
                source.read(hello, hello.remaining());
            }
            child.await("CONNECTED");
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread reader = new Thread(() -> {
                try {
                    source.read(ByteBuffer.allocate(1), 1);
                    outcome.complete(null);
                } catch (Throwable t) {
                    outcome.complete(t);
                }
            }, "reader of a writer to be killed");
            reader.start();
            Waits.untilStack(reader, "to wait for data", true, stack -> Waits.inMethod(stack, "await"));
            child.kill();
            Throwable t = outcome.get(ENDS_WITHIN_SECONDS, TimeUnit.SECONDS);
            assertTrue(t instanceof IOException, "the read fails: " + t);
            assertFalse(t instanceof EOFException, "a killed peer is a lost connection, not a regular end: " + t);
            assertTrue(t.getMessage().contains("lost"), t.getMessage());
            ends.closeQuietly();
        } finally {
            transport.close();
        }
    }

    @Test(timeOut = 120_000)
    public void aWriterWaitingForAKilledReaderFailsWithALostConnection() throws Exception {
        UcxTransport transport = new UcxTransport(new Properties(), (sink, source, peer) -> { });
        try (ChildJvm child = start(IdleReader.class)) {
            ConnectionEnds ends = transport.connect(member(child.await("CONTACT")), 20_000);
            int window = UcxPropertyTable.WINDOW_PROPERTY.get(null);
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread writer = new Thread(() -> {
                try {
                    ByteBuffer block = ByteBuffer.allocate(64 * 1024);
                    for (long written = 0; written < 3L * window; written += block.capacity()) {
                        block.clear();
                        ends.sink().write(new ByteBuffer[] {block}, 0, 1);
                    }
                    outcome.complete(null);
                } catch (Throwable t) {
                    outcome.complete(t);
                }
            }, "writer to a reader to be killed");
            writer.start();
            // Nobody reads: the writer waits for credit (or for its sends to be taken).
            Waits.untilStack(writer, "to wait for the reader", true,
                    stack -> Waits.inMethod(stack, "awaitCredit", "takeStaging") && Waits.inMethod(stack, "await"));
            assertFalse(outcome.isDone(), "three windows cannot be written while nobody reads: " + outcome);
            child.kill();
            Throwable t = outcome.get(ENDS_WITHIN_SECONDS, TimeUnit.SECONDS);
            assertTrue(t instanceof IOException, "the write fails: " + t);
            assertTrue(t.getMessage().contains("lost"), t.getMessage());
            ends.closeQuietly();
        } finally {
            transport.close();
        }
    }

    /**
     * The worker's side watcher notes a killed peer by itself, while no end reads or writes (the ends
     * no longer look at the side channel per call); the next write then fails at once. Its thread
     * ends with the worker.
     */
    @Test(timeOut = 120_000)
    public void theSideWatcherNotesAKilledPeerWhileNoEndLooks() throws Exception {
        UcxTransport transport = new UcxTransport(new Properties(), (sink, source, peer) -> { });
        Thread watcher;
        try (ChildJvm child = start(IdleReader.class)) {
            ConnectionEnds ends = transport.connect(member(child.await("CONTACT")), 20_000);
            UcxConnection connection = ((UcxByteSink) ends.sink()).connection();
            watcher = transport.worker().sideWatcher.thread();
            assertNotNull(watcher, "the first connection started the side watcher");
            assertFalse(connection.peerLost(), "the peer lives");
            child.kill();
            Waits.until("the side watcher notes the killed peer", connection::peerLost);
            IOException e = expectThrows(IOException.class,
                    () -> ends.sink().write(new ByteBuffer[] {ByteBuffer.wrap(new byte[] {1})}, 0, 1));
            assertTrue(e.getMessage().contains("lost"), e.getMessage());
            ends.closeQuietly();
        } finally {
            transport.close();
        }
        watcher.join(Waits.EVENTUALLY_MILLIS);
        assertFalse(watcher.isAlive(), "the side watcher ends with the worker");
    }

    /**
     * Connections set up and torn down one after another let go of every side channel, although
     * each was registered with the side watcher's selector, and the watcher goes on.
     */
    @Test(timeOut = 120_000)
    public void tornDownConnectionsLeaveNoSideChannelOpen() throws Exception {
        try (TransportPair pair = new TransportPair()) {
            pair.connect(); // starts both side watchers
            int before = openFiles();
            for (int i = 0; i < 200; i++) {
                TransportPair.Connection c = pair.connect();
                c.connector().closeQuietly();
                c.acceptor().closeQuietly();
            }
            Waits.until("the side channels of 200 closed connections are let go (" + before + " files open before)",
                    () -> openFiles() <= before);
            assertTrue(pair.from.worker().sideWatcher.thread().isAlive(), "the watcher goes on for the others");
        }
    }

    private static int openFiles() {
        String[] fds = new java.io.File("/proc/self/fd").list();
        assertNotNull(fds, "/proc/self/fd lists this process's open files (Linux)");
        return fds.length;
    }
}
