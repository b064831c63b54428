package ibis.ipl.tck;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import ibis.ipl.ConnectionClosedException;
import ibis.ipl.Ibis;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.ReceivePortIdentifier;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortIdentifier;
import ibis.ipl.WriteMessage;
import ibis.testsupport.ChildJvm;
import ibis.testsupport.PoolFixture;
import ibis.testsupport.Waits;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.Test;

/**
 * Failures: members that crash (real JVMs killed with SIGKILL) or end, and what readers, writers,
 * connection upcalls, downcall lists and the registry report about it.
 */
public class FailureContractTest {

    @Test(timeOut = 90_000)
    public void aKilledSenderGivesConnectionClosedToTheReaderOfItsMessageAndALostConnection() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            RegistryLog log = new RegistryLog();
            Ibis parent = pool.create(ContractPeer.CAPABILITIES, log, Types.ALL);
            parent.registry().enableEvents();
            assertEquals(parent.registry().elect("parent"), parent.identifier());
            ConnectionEvents events = new ConnectionEvents();
            ReceivePort rp = parent.createReceivePort(Types.ONE_TO_ONE, "in", events);
            rp.enableConnections();
            try (ChildJvm child = ImplementationUnderTest.startPeer("writer", pool)) {
                ReadMessage m = rp.receive(Waits.EVENTUALLY_MILLIS);
                assertEquals(m.readInt(), 1234);
                m.readArray(new byte[1000]);
                child.await("FLUSHED");
                SendPortIdentifier origin = m.origin();
                child.kill();
                try {
                    m.readInt();
                    fail("read past the data of a message whose sender was killed");
                } catch (ConnectionClosedException expected) {
                    // the contract's exception for a lost connection
                } catch (IOException other) {
                    fail("a lost connection must show up as ConnectionClosedException, got " + other, other);
                }
                m.finish(new IOException("contract test: sender gone"));
                ConnectionEvents.Lost lost = events.nextLost();
                assertEquals(lost.peer, origin);
                assertNotNull(lost.cause, "a broken connection has a cause");
                List<SendPortIdentifier> gone = new ArrayList<>();
                Waits.until("lostConnections() lists the killed sender", () -> {
                    gone.addAll(Arrays.asList(rp.lostConnections()));
                    return gone.contains(origin);
                });
                assertEquals(rp.connectedTo().length, 0);
                log.awaitEvent("died " + origin.ibisIdentifier().name());
            }
        }
    }

    @Test(timeOut = 90_000)
    public void aKilledMemberIsReportedDiedToEveryOtherMember() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            RegistryLog logA = new RegistryLog();
            RegistryLog logB = new RegistryLog();
            Ibis a = pool.create(ContractPeer.CAPABILITIES, logA, Types.ALL);
            Ibis b = pool.create(ContractPeer.CAPABILITIES, logB, Types.ALL);
            a.registry().enableEvents();
            b.registry().enableEvents();
            try (ChildJvm child = ImplementationUnderTest.startPeer("member", pool)) {
                String name = child.await("JOINED");
                logA.awaitEvent("joined " + name);
                logB.awaitEvent("joined " + name);
                child.kill();
                logA.awaitEvent("died " + name);
                logB.awaitEvent("died " + name);
                assertFalse(logA.events().contains("left " + name), "a crash is not a leave");
            }
            assertEquals(logA.events("joined"), logB.events("joined"));
            assertFalse(logA.overlapped() || logB.overlapped(), "events were delivered concurrently");
        }
    }

    @Test(timeOut = 120_000)
    public void multicastKeepsDeliveringToTheOthersWhenAReceiverIsKilledAndReportsItAtFinish() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis sender = pool.create(ContractPeer.CAPABILITIES, null, Types.ALL);
            Ibis other = pool.create(ContractPeer.CAPABILITIES, null, Types.ALL);
            ReceivePort local = other.createReceivePort(Types.ONE_TO_MANY, "in");
            local.enableConnections();
            ConnectionEvents senderEvents = new ConnectionEvents();
            SendPort sp = sender.createSendPort(Types.ONE_TO_MANY, "mcast", senderEvents, null);
            try (ChildJvm child = ImplementationUnderTest.startPeer("reader", pool)) {
                child.await("READY");
                IbisIdentifier childId = sender.registry().getElectionResult("child");
                ReceivePortIdentifier childPort = sp.connect(childId, "in");
                sp.connect(local.identifier());

                // The local receiver drains everything it is sent, concurrently.
                List<Integer> localGot = new ArrayList<>();
                CompletableFuture<Void> draining = Async.run(() -> {
                    try {
                        while (true) {
                            ReadMessage m = local.receive();
                            int v = m.readInt();
                            m.readArray(new byte[32 * 1024]);
                            m.finish();
                            synchronized (localGot) {
                                localGot.add(v);
                            }
                            if (v < 0) {
                                return;
                            }
                        }
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                });

                byte[] payload = new byte[32 * 1024];
                send(sp, 0, payload);
                assertEquals(child.await("GOT"), "0");
                child.kill();

                int sent = 1;
                List<IOException> finishErrors = new ArrayList<>();
                for (; sent < 2000 && senderEvents.lost.isEmpty(); sent++) {
                    WriteMessage w = sp.newMessage();
                    try {
                        w.writeInt(sent);
                        w.writeArray(payload);
                    } catch (IOException e) {
                        fail("a write to a multicast port failed instead of being reported at finish(): " + e, e);
                    }
                    try {
                        w.finish();
                    } catch (IOException e) {
                        finishErrors.add(e);
                    }
                }
                ConnectionEvents.Lost lost = senderEvents.nextLost();
                assertEquals(lost.peer, childPort, "SendPortDisconnectUpcall names the lost receiver");
                List<ReceivePortIdentifier> gone = new ArrayList<>();
                Waits.until("sender lostConnections() lists the killed receiver", () -> {
                    gone.addAll(Arrays.asList(sp.lostConnections()));
                    return gone.contains(childPort);
                });
                assertEquals(Arrays.asList(sp.connectedTo()), List.of(local.identifier()),
                        "the failed connection is dropped, the other kept");
                // Later messages go to the remaining receiver without errors.
                send(sp, sent, payload);
                send(sp, -1, payload);
                draining.get(60, TimeUnit.SECONDS);
                List<Integer> expected = new ArrayList<>();
                for (int i = 0; i <= sent; i++) {
                    expected.add(i);
                }
                expected.add(-1);
                synchronized (localGot) {
                    assertEquals(localGot, expected, "the remaining receiver got every message ("
                            + finishErrors.size() + " finish() calls reported the failure)");
                }
            }
        }
    }

    private static void send(SendPort sp, int value, byte[] payload) throws IOException {
        WriteMessage w = sp.newMessage();
        w.writeInt(value);
        w.writeArray(payload);
        w.finish();
    }

    @Test(timeOut = 90_000)
    public void multicastKeepsDeliveringToTheOthersWhenAReceiverEnds() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis sender = pool.create(Types.ALL);
            ConnectionEvents senderEvents = new ConnectionEvents();
            SendPort sp = sender.createSendPort(Types.ONE_TO_MANY, "mcast", senderEvents, null);
            List<Ibis> receivers = new ArrayList<>();
            List<ReceivePort> ports = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Ibis r = pool.create(Types.ALL);
                ReceivePort rp = r.createReceivePort(Types.ONE_TO_MANY, "in");
                rp.enableConnections();
                sp.connect(rp.identifier());
                receivers.add(r);
                ports.add(rp);
            }
            byte[] payload = new byte[32 * 1024];
            send(sp, 0, payload);
            for (ReceivePort rp : ports) {
                ReadMessage m = rp.receive(Waits.EVENTUALLY_MILLIS);
                assertEquals(m.readInt(), 0);
                m.finish();
            }
            ReceivePortIdentifier goneId = ports.get(1).identifier();
            receivers.get(1).end();

            // Keep sending (the other two drain concurrently) until the sender knows.
            List<List<Integer>> got = List.of(new ArrayList<>(), new ArrayList<>());
            List<CompletableFuture<Void>> draining = new ArrayList<>();
            for (int k = 0; k < 2; k++) {
                ReceivePort rp = ports.get(k == 0 ? 0 : 2);
                List<Integer> into = got.get(k);
                draining.add(Async.run(() -> {
                    try {
                        while (true) {
                            ReadMessage m = rp.receive();
                            int v = m.readInt();
                            m.finish();
                            synchronized (into) {
                                into.add(v);
                            }
                            if (v < 0) {
                                return;
                            }
                        }
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                }));
            }
            int sent = 1;
            for (; sent < 2000 && senderEvents.lost.isEmpty(); sent++) {
                WriteMessage w = sp.newMessage();
                try {
                    w.writeInt(sent);
                    w.writeArray(payload);
                } catch (IOException e) {
                    fail("a write to a multicast port failed instead of being reported at finish(): " + e, e);
                }
                try {
                    w.finish();
                } catch (IOException e) {
                    // reported at finish(): allowed
                }
            }
            ConnectionEvents.Lost lost = senderEvents.nextLost();
            assertEquals(lost.peer, goneId);
            send(sp, -1, payload);
            for (CompletableFuture<Void> f : draining) {
                f.get(60, TimeUnit.SECONDS);
            }
            List<Integer> expected = new ArrayList<>();
            for (int i = 1; i < sent; i++) {
                expected.add(i);
            }
            expected.add(-1);
            for (List<Integer> g : got) {
                synchronized (g) {
                    assertEquals(g, expected);
                }
            }
            assertFalse(Arrays.asList(sp.connectedTo()).contains(goneId));
        }
    }

    @Test(timeOut = 60_000)
    public void anEndedPeerIsSeenAsLeftAndItsConnectionsAsLost() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            RegistryLog log = new RegistryLog();
            Ibis a = pool.create(ContractPeer.CAPABILITIES, log, Types.ALL);
            a.registry().enableEvents();
            Ibis b = pool.create(ContractPeer.CAPABILITIES, null, Types.ALL);
            ConnectionEvents receiverEvents = new ConnectionEvents();
            ReceivePort rp = a.createReceivePort(Types.MANY_TO_ONE, "in", receiverEvents);
            rp.enableConnections();
            SendPort fromB = b.createSendPort(Types.MANY_TO_ONE, "b-out");
            fromB.connect(rp.identifier());
            Msg.sendInt(fromB, 1);
            assertEquals(Msg.receiveInt(rp), 1);
            String bName = b.identifier().name();
            b.end();
            log.awaitEvent("left " + bName);
            assertFalse(log.events().contains("died " + bName), "end() is a leave, not a death");
            ConnectionEvents.Lost lost = receiverEvents.nextLost();
            assertEquals(lost.peer, fromB.identifier());
            List<SendPortIdentifier> gone = new ArrayList<>();
            Waits.until("lostConnections() lists the ended peer's port", () -> {
                gone.addAll(Arrays.asList(rp.lostConnections()));
                return gone.contains(fromB.identifier());
            });
            b.end(); // again: no effect
        }
    }

    @Test(timeOut = 90_000)
    public void anExplicitOneToOnePortReportsAKilledSenderWithoutAReceiveCall() throws Exception {
        // Nothing reads the port: the loss must still be reported by the lostConnection upcall
        // and lostConnections(), and connectedTo() must no longer list the dead sender.
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis parent = pool.create(ContractPeer.CAPABILITIES, null, Types.ALL);
            assertEquals(parent.registry().elect("parent"), parent.identifier());
            ConnectionEvents events = new ConnectionEvents();
            ReceivePort rp = parent.createReceivePort(Types.ONE_TO_ONE, "in", events);
            rp.enableConnections();
            try (ChildJvm child = ImplementationUnderTest.startPeer("sender", pool)) {
                child.await("SENT");
                assertEquals(Msg.receiveInt(rp), 99);
                SendPortIdentifier origin = rp.connectedTo()[0];
                child.kill();
                ConnectionEvents.Lost lost = events.nextLost();
                assertEquals(lost.peer, origin);
                assertNotNull(lost.cause, "a broken connection has a cause");
                List<SendPortIdentifier> gone = new ArrayList<>();
                Waits.until("lostConnections() lists the killed sender", () -> {
                    gone.addAll(Arrays.asList(rp.lostConnections()));
                    return gone.contains(origin);
                });
                assertEquals(rp.connectedTo().length, 0);
            }
        }
    }

    /** Its readObject refuses: the reader's object stream cannot go on past it (no block framing). */
    public static final class Refused implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        int value = 5;

        private void readObject(java.io.ObjectInputStream in) throws IOException {
            throw new java.io.InvalidObjectException("refused on purpose");
        }
    }

    @Test(timeOut = 90_000)
    public void aStreamTheReaderCannotGoOnWithGivesUpTheConnectionSoTheSenderLearnsIt() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.OBJECT_ONE_TO_ONE, "refusing");
            rp.enableConnections();
            SendPort sp = s.createSendPort(Types.OBJECT_ONE_TO_ONE);
            sp.connect(rp.identifier());
            WriteMessage w = sp.newMessage();
            w.writeObject(new Refused());
            w.writeInt(7);
            w.finish();
            ReadMessage m = rp.receive(Waits.EVENTUALLY_MILLIS);
            org.testng.Assert.expectThrows(IOException.class, m::readObject);
            m.finish();
            // The sender goes on with the same stream (its own writes succeeded), which this side
            // cannot read past the refused object: the next receive gives the connection up rather
            // than leaving the sender writing messages that nobody can read.
            WriteMessage next = sp.newMessage();
            next.writeInt(8);
            next.finish();
            ConnectionClosedException given = org.testng.Assert.expectThrows(ConnectionClosedException.class,
                    () -> rp.receive(Waits.EVENTUALLY_MILLIS));
            assertTrue(given.getMessage().contains("cannot be read past an earlier error"), given.getMessage());
            assertEquals(rp.connectedTo().length, 0);
            IOException senderSaw = null;
            byte[] block = new byte[1024];
            for (int i = 0; i < 100_000 && senderSaw == null; i++) {
                try {
                    WriteMessage n = sp.newMessage();
                    n.writeArray(block);
                    n.finish();
                } catch (IOException e) {
                    senderSaw = e;
                }
            }
            assertNotNull(senderSaw, "the sender never learnt that its connection was given up");
        }
    }

    @Test(timeOut = 60_000)
    public void endingAnIbisFailsAReceiveThatIsWaitingInIt() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.MANY_TO_ONE, "in");
            rp.enableConnections();
            SendPort sp = s.createSendPort(Types.MANY_TO_ONE);
            sp.connect(rp.identifier());
            java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.atomic.AtomicReference<Thread> receiver =
                    new java.util.concurrent.atomic.AtomicReference<>();
            CompletableFuture<Throwable> outcome = Async.supply(() -> {
                receiver.set(Thread.currentThread());
                started.countDown();
                try {
                    return new AssertionError("receive returned " + rp.receive());
                } catch (Throwable t) {
                    return t;
                }
            });
            started.await();
            Waits.untilBlockedOrDone(receiver.get());
            CompletableFuture<Void> ending = Async.run(() -> {
                try {
                    r.end();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            ending.get(40, TimeUnit.SECONDS);
            Throwable t = outcome.get(40, TimeUnit.SECONDS);
            assertTrue(t instanceof IOException, "the waiting receive fails with an IOException: " + t);
        }
    }

    @Test(timeOut = 60_000)
    public void endingAnIbisReturnsEvenWhileAWriteMessageIsUnfinished() throws Exception {
        // Ibis.end(): "Ports still open are closed; a port's open connections are broken". A program
        // that bails out in the middle of a message must not hang in end().
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ConnectionEvents events = new ConnectionEvents();
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "in", events);
            rp.enableConnections();
            SendPort sp = s.createSendPort(Types.ONE_TO_ONE);
            sp.connect(rp.identifier());
            WriteMessage w = sp.newMessage();
            w.writeInt(1);
            w.flush();
            CompletableFuture<Void> ending = Async.run(() -> {
                try {
                    s.end();
                } catch (IOException e) {
                    // a failure report is fine; hanging is not
                }
            });
            ending.get(20, TimeUnit.SECONDS);
            // The receiver gets the part of the message that was flushed, then the connection loss
            // (an explicit port learns of the half message only when it receives it).
            ReadMessage m = rp.receive(Waits.EVENTUALLY_MILLIS);
            assertEquals(m.readInt(), 1, "the flushed part of the message arrives");
            try {
                m.readInt();
                fail("read past a broken connection");
            } catch (IOException expected) {
                assertTrue(expected instanceof ConnectionClosedException,
                        "a broken connection is a ConnectionClosedException, not " + expected);
            }
            try {
                m.finish();
            } catch (IOException alsoFine) {
                // finishing a message whose connection broke may report it again
            }
            assertEquals(events.nextLost().peer, sp.identifier(), "the receiver sees the connection go");
        }
    }

    @Test(timeOut = 60_000)
    public void aOneToOneSenderLearnsThatItsReceiverEnded() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(Types.ALL);
            Ibis b = pool.create(Types.ALL);
            ReceivePort rp = b.createReceivePort(Types.ONE_TO_ONE, "in");
            rp.enableConnections();
            ConnectionEvents events = new ConnectionEvents();
            SendPort sp = a.createSendPort(Types.ONE_TO_ONE, "out", events, null);
            sp.connect(rp.identifier());
            Msg.sendInt(sp, 1);
            assertEquals(Msg.receiveInt(rp), 1);
            b.end();
            boolean failed = false;
            byte[] filler = new byte[16 * 1024];
            for (int i = 0; i < 2000 && events.lost.isEmpty() && !failed; i++) {
                try {
                    WriteMessage w = sp.newMessage();
                    w.writeArray(filler);
                    w.finish();
                } catch (IOException expected) {
                    failed = true;
                }
            }
            ConnectionEvents.Lost lost = events.nextLost();
            assertEquals(lost.peer, rp.identifier());
            List<ReceivePortIdentifier> gone = new ArrayList<>();
            Waits.until("sender lostConnections() lists the ended receiver", () -> {
                gone.addAll(Arrays.asList(sp.lostConnections()));
                return gone.contains(rp.identifier());
            });
            assertTrue(sp.connectedTo().length == 0, Arrays.toString(sp.connectedTo()));
        }
    }
}
