package ibis.ipl.tck;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;
import static org.testng.Assert.fail;

import ibis.ipl.AlreadyConnectedException;
import ibis.ipl.ConnectionFailedException;
import ibis.ipl.ConnectionRefusedException;
import ibis.ipl.ConnectionTimedOutException;
import ibis.ipl.ConnectionsFailedException;
import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.ReceivePortConnectUpcall;
import ibis.ipl.ReceivePortIdentifier;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortIdentifier;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PoolFixture;
import ibis.testsupport.Waits;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.annotations.Test;

/**
 * Connection set-up and tear-down: cardinalities, enabling, refusals, time-outs, connection
 * bookkeeping (connectedTo / newConnections / lostConnections and the connection upcalls), regular
 * disconnects and closing ports.
 */
public class ConnectionContractTest {

    private static Set<Object> set(Object... items) {
        return new HashSet<>(Arrays.asList(items));
    }

    // ---------------------------------------------------------------- cardinalities

    @Test(timeOut = 60_000)
    public void aNewSendPortConnectsRightAfterTheOneBeforeItClosed() throws Exception {
        // A common IPL 2.x pattern: close a send port, make a new one, connect it to the same
        // one-sender port. The receiver may not have read the first one's CLOSE yet (here nobody
        // receives, so only its idle check reads it): the connect waits instead of being refused.
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "in");
            rp.enableConnections();
            SendPort first = s.createSendPort(Types.ONE_TO_ONE);
            first.connect(rp.identifier());
            first.close();
            SendPort second = s.createSendPort(Types.ONE_TO_ONE);
            second.connect(rp.identifier());
            Msg.sendInt(second, 9);
            assertEquals(Msg.receiveInt(rp), 9);
            assertEquals(Arrays.asList(rp.connectedTo()), List.of(second.identifier()));
        }
    }

    @Test(timeOut = 60_000)
    public void aOneToOneReceivePortRefusesASecondSender() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s1 = pool.create(Types.ALL);
            Ibis s2 = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "in");
            rp.enableConnections();
            SendPort first = s1.createSendPort(Types.ONE_TO_ONE);
            first.connect(rp.identifier());
            SendPort second = s2.createSendPort(Types.ONE_TO_ONE);
            expectThrows(ConnectionRefusedException.class, () -> second.connect(rp.identifier(), 10_000, false));
            assertEquals(second.connectedTo().length, 0);
            Msg.sendInt(first, 7);
            assertEquals(Msg.receiveInt(rp), 7, "the first connection is untouched");
            assertEquals(Arrays.asList(rp.connectedTo()), List.of(first.identifier()));
        }
    }

    @Test(timeOut = 60_000)
    public void aOneToManyReceivePortRefusesASecondSender() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_MANY, "in");
            rp.enableConnections();
            SendPort first = s.createSendPort(Types.ONE_TO_MANY);
            first.connect(rp.identifier());
            SendPort second = s.createSendPort(Types.ONE_TO_MANY);
            expectThrows(ConnectionRefusedException.class, () -> second.connect(rp.identifier(), 10_000, false));
            Msg.sendInt(first, 8);
            assertEquals(Msg.receiveInt(rp), 8);
        }
    }

    @Test(timeOut = 60_000)
    public void aManyToOneReceivePortAcceptsSeveralSenders() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.MANY_TO_ONE, "in");
            rp.enableConnections();
            List<SendPort> senders = new ArrayList<>();
            Set<Object> ids = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                Ibis s = pool.create(Types.ALL);
                SendPort sp = s.createSendPort(Types.MANY_TO_ONE);
                sp.connect(r.identifier(), "in");
                senders.add(sp);
                ids.add(sp.identifier());
            }
            for (int i = 0; i < senders.size(); i++) {
                Msg.sendInt(senders.get(i), 100 + i);
            }
            Set<Integer> got = new HashSet<>();
            Set<Object> origins = new HashSet<>();
            for (int i = 0; i < senders.size(); i++) {
                ReadMessage m = rp.receive(Waits.EVENTUALLY_MILLIS);
                got.add(m.readInt());
                origins.add(m.origin());
                m.finish();
            }
            assertEquals(got, Set.of(100, 101, 102));
            assertEquals(origins, ids);
            assertEquals(set((Object[]) rp.connectedTo()), ids);
        }
    }

    @Test(timeOut = 60_000)
    public void aOneToManySendPortMulticastsEveryMessageToEveryReceiver() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis s = pool.create(Types.ALL);
            SendPort sp = s.createSendPort(Types.ONE_TO_MANY);
            List<ReceivePort> ports = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Ibis r = pool.create(Types.ALL);
                ReceivePort rp = r.createReceivePort(Types.ONE_TO_MANY, "in");
                rp.enableConnections();
                ports.add(rp);
                sp.connect(rp.identifier());
            }
            assertEquals(set((Object[]) sp.connectedTo()),
                    set(ports.get(0).identifier(), ports.get(1).identifier(), ports.get(2).identifier()));
            for (int m = 0; m < 5; m++) {
                WriteMessage w = sp.newMessage();
                w.writeInt(m);
                w.writeString("multicast " + m);
                w.finish();
            }
            for (ReceivePort rp : ports) {
                for (int m = 0; m < 5; m++) {
                    ReadMessage r = rp.receive(Waits.EVENTUALLY_MILLIS);
                    assertEquals(r.readInt(), m);
                    assertEquals(r.readString(), "multicast " + m);
                    assertEquals(r.origin(), sp.identifier());
                    r.finish();
                }
            }
        }
    }

    @Test(timeOut = 60_000)
    public void manyToManyConnectsEverySenderToEveryReceiver() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(Types.ALL);
            Ibis b = pool.create(Types.ALL);
            ReceivePort ra = a.createReceivePort(Types.MANY_TO_MANY, "in");
            ReceivePort rb = b.createReceivePort(Types.MANY_TO_MANY, "in");
            ra.enableConnections();
            rb.enableConnections();
            SendPort sa = a.createSendPort(Types.MANY_TO_MANY);
            SendPort sb = b.createSendPort(Types.MANY_TO_MANY);
            for (SendPort sp : List.of(sa, sb)) {
                sp.connect(ra.identifier());
                sp.connect(rb.identifier());
            }
            Msg.sendInt(sa, 1);
            Msg.sendInt(sb, 2);
            for (ReceivePort rp : List.of(ra, rb)) {
                Set<Integer> got = new HashSet<>();
                got.add(Msg.receiveInt(rp));
                got.add(Msg.receiveInt(rp));
                assertEquals(got, Set.of(1, 2), "receiver " + rp.identifier());
                assertEquals(rp.connectedTo().length, 2);
            }
        }
    }

    @Test(timeOut = 60_000)
    public void aSendPortOfASingleReceiverTypeCannotConnectToASecondReceiver() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis s = pool.create(Types.ALL);
            Ibis r = pool.create(Types.ALL);
            for (PortType type : List.of(Types.ONE_TO_ONE, Types.MANY_TO_ONE)) {
                String tag = type.hasCapability(PortType.CONNECTION_ONE_TO_ONE) ? "oto" : "mto";
                ReceivePort r1 = r.createReceivePort(type, tag + "1");
                ReceivePort r2 = r.createReceivePort(type, tag + "2");
                r1.enableConnections();
                r2.enableConnections();
                SendPort sp = s.createSendPort(type);
                sp.connect(r1.identifier());
                try {
                    sp.connect(r2.identifier(), 10_000, false);
                    fail(type + ": a second receiver was accepted");
                } catch (ConnectionFailedException | IbisConfigurationException expected) {
                    // Either is what an IPL program can catch for this.
                }
                assertEquals(Arrays.asList(sp.connectedTo()), List.of(r1.identifier()), type.toString());
                Msg.sendInt(sp, 3);
                assertEquals(Msg.receiveInt(r1), 3);
            }
        }
    }

    // ---------------------------------------------------------------- enabling, refusing, time-outs

    @Test(timeOut = 60_000)
    public void aNewReceivePortRefusesConnectionsUntilEnabled() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ConnectionEvents events = new ConnectionEvents();
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "in", events);
            SendPort sp = s.createSendPort(Types.ONE_TO_ONE);
            expectThrows(ConnectionRefusedException.class, () -> sp.connect(rp.identifier(), 10_000, false));
            assertEquals(rp.connectedTo().length, 0);
            assertTrue(events.accepted.isEmpty(), "gotConnection was asked while connections were disabled");
            rp.enableConnections();
            sp.connect(rp.identifier(), 10_000, false);
            Msg.sendInt(sp, 11);
            assertEquals(Msg.receiveInt(rp), 11);
        }
    }

    @Test(timeOut = 60_000)
    public void connectingToADisabledPortWhileFillingTheTimeoutGivesConnectionTimedOut() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "in");
            SendPort sp = s.createSendPort(Types.ONE_TO_ONE);
            expectThrows(ConnectionTimedOutException.class, () -> sp.connect(rp.identifier(), 500, true));
            expectThrows(ConnectionTimedOutException.class, () -> sp.connect(r.identifier(), "in", 500, true));
        }
    }

    @Test(timeOut = 60_000)
    public void anAttemptThatTimedOutAfterTheReceiverAcceptedItIsNoLostConnection() throws Exception {
        // The sender gives up its handshake while the receiver is still deciding (its connection
        // upcall holds the answer back), and the receiver accepts afterwards: a receive() waiting
        // on the port must not fail for that withdrawn connection, and the next connection works.
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            CountDownLatch senderGaveUp = new CountDownLatch(1);
            AtomicInteger applications = new AtomicInteger();
            BlockingQueue<AtomicReference<Throwable>> lostCauses = new LinkedBlockingQueue<>();
            ReceivePortConnectUpcall slowFirstAnswer = new ReceivePortConnectUpcall() {
                @Override
                public boolean gotConnection(ReceivePort receiver, SendPortIdentifier applicant) {
                    if (applications.incrementAndGet() == 1) {
                        try {
                            senderGaveUp.await(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    return true;
                }

                @Override
                public void lostConnection(ReceivePort receiver, SendPortIdentifier origin, Throwable cause) {
                    lostCauses.add(new AtomicReference<>(cause));
                }
            };
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "in", slowFirstAnswer);
            rp.enableConnections();
            CompletableFuture<Integer> received = CompletableFuture.supplyAsync(() -> {
                try {
                    return Msg.receiveInt(rp);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            SendPort sp = s.createSendPort(Types.ONE_TO_ONE);
            expectThrows(ConnectionFailedException.class, () -> sp.connect(rp.identifier(), 300, false));
            assertEquals(sp.connectedTo().length, 0);
            senderGaveUp.countDown();
            sp.connect(rp.identifier(), Waits.EVENTUALLY_MILLIS, true);
            Msg.sendInt(sp, 42);
            assertEquals((int) received.get(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS), 42,
                    "the receive() that waited while the withdrawn attempt came and went");
            assertTrue(applications.get() >= 2, "both attempts reached the receiver");
            for (AtomicReference<Throwable> cause : lostCauses) {
                assertNull(cause.get(), "a withdrawn attempt ends regularly, it is not lost with a cause");
            }
            assertEquals(Arrays.asList(rp.connectedTo()), List.of(sp.identifier()));
        }
    }

    @Test(timeOut = 60_000)
    public void connectingToAPortThatDoesNotExistTimesOut() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            SendPort sp = s.createSendPort(Types.ONE_TO_ONE);
            ConnectionTimedOutException e = expectThrows(ConnectionTimedOutException.class,
                    () -> sp.connect(r.identifier(), "nobody-home", 500, true));
            assertEquals(e.receivePortName(), "nobody-home");
            assertEquals(e.ibisIdentifier(), r.identifier());
            assertEquals(sp.connectedTo().length, 0);
        }
    }

    @Test(timeOut = 60_000)
    public void connectWithATimeoutWaitsForAReceivePortCreatedAfterwards() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            SendPort sp = s.createSendPort(Types.ONE_TO_ONE);
            CountDownLatch started = new CountDownLatch(1);
            AtomicReference<Thread> connector = new AtomicReference<>();
            CompletableFuture<ReceivePortIdentifier> connected = Async.supply(() -> {
                connector.set(Thread.currentThread());
                started.countDown();
                try {
                    return sp.connect(r.identifier(), "late", 30_000, true);
                } catch (ConnectionFailedException e) {
                    throw new RuntimeException(e);
                }
            });
            started.await();
            Waits.untilBlockedOrDone(connector.get());
            assertFalse(connected.isDone(), "connect returned before the port existed");
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "late");
            rp.enableConnections();
            assertEquals(connected.get(40, TimeUnit.SECONDS), rp.identifier());
            Msg.sendInt(sp, 12);
            assertEquals(Msg.receiveInt(rp), 12);
        }
    }

    @Test(timeOut = 60_000)
    public void connectWithoutATimeoutWaitsForAPortThatIsCreatedAndEnabledLater() throws Exception {
        // The IPL 2.x "Hello" pattern: the client connects by (identifier, name) without a time-out,
        // possibly before the server created and enabled its port.
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.CLASSIC);
            Ibis s = pool.create(Types.CLASSIC);
            SendPort sp = s.createSendPort(Types.CLASSIC);
            CountDownLatch started = new CountDownLatch(1);
            AtomicReference<Thread> connector = new AtomicReference<>();
            CompletableFuture<ReceivePortIdentifier> connected = Async.supply(() -> {
                connector.set(Thread.currentThread());
                started.countDown();
                try {
                    return sp.connect(r.identifier(), "server");
                } catch (ConnectionFailedException e) {
                    throw new RuntimeException(e);
                }
            });
            started.await();
            Waits.untilBlockedOrDone(connector.get());
            ReceivePort rp = r.createReceivePort(Types.CLASSIC, "server");
            Waits.untilBlockedOrDone(connector.get());
            assertFalse(connected.isDone(), "connected to a port that had not enabled connections");
            rp.enableConnections();
            assertEquals(connected.get(40, TimeUnit.SECONDS), rp.identifier());
            WriteMessage w = sp.newMessage();
            w.writeString("Hi there");
            w.finish();
            ReadMessage m = rp.receive();
            assertEquals(m.readString(), "Hi there");
            m.finish();
        }
    }

    @Test(timeOut = 60_000)
    public void connectingToAnIbisThatEndedFailsInsteadOfHanging() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "in");
            rp.enableConnections();
            IbisIdentifier gone = r.identifier();
            r.end();
            SendPort sp = s.createSendPort(Types.ONE_TO_ONE);
            expectThrows(ConnectionFailedException.class, () -> sp.connect(gone, "in", 2_000, false));
            expectThrows(ConnectionFailedException.class, () -> sp.connect(rp.identifier(), 2_000, true));
            assertEquals(sp.connectedTo().length, 0);
        }
    }

    @Test(timeOut = 60_000)
    public void gotConnectionReturningFalseRefusesTheConnection() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ConnectionEvents refuser = new ConnectionEvents(false);
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "in", refuser);
            rp.enableConnections();
            SendPort sp = s.createSendPort(Types.ONE_TO_ONE);
            expectThrows(ConnectionRefusedException.class, () -> sp.connect(rp.identifier(), 10_000, false));
            assertEquals(rp.connectedTo().length, 0);
            assertEquals(sp.connectedTo().length, 0);
            assertTrue(refuser.lost.isEmpty(), "a refused connection is not a lost one: " + refuser.lost);
        }
    }

    @Test(timeOut = 120_000)
    public void aNoFromGotConnectionIsFinalWhateverTheTimeoutOrFillTimeout() throws Exception {
        // IPL 2.x: a denial by the connect upcall is the receiver's answer (ConnectionRefusedException
        // at once), unlike a port that does not exist or accept yet, which connect waits for.
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Properties shortWait = pool.properties();
            // Bounds a connect without time-out that (wrongly) keeps asking again.
            shortWait.setProperty("ibis.connect.timeout", "3000");
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(shortWait, new IbisCapabilities(), null, Types.ALL);
            ConnectionEvents refuser = new ConnectionEvents(false);
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "in", refuser);
            rp.enableConnections();
            SendPort sp = s.createSendPort(Types.ONE_TO_ONE, "applicant");
            expectThrows(ConnectionRefusedException.class, () -> sp.connect(rp.identifier()));
            expectThrows(ConnectionRefusedException.class, () -> sp.connect(r.identifier(), "in"));
            expectThrows(ConnectionRefusedException.class,
                    () -> sp.connect(rp.identifier(), Waits.EVENTUALLY_MILLIS, true));
            expectThrows(ConnectionRefusedException.class,
                    () -> sp.connect(r.identifier(), "in", Waits.EVENTUALLY_MILLIS, true));
            assertEquals(refuser.asked.size(), 4, "gotConnection is asked once per connect: " + refuser.asked);
            assertEquals(rp.connectedTo().length, 0);
            assertEquals(sp.connectedTo().length, 0);
        }
    }

    @Test(timeOut = 60_000)
    public void connectingTwiceToTheSamePortGivesAlreadyConnected() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.MANY_TO_MANY, "in");
            rp.enableConnections();
            SendPort sp = s.createSendPort(Types.MANY_TO_MANY);
            sp.connect(rp.identifier());
            expectThrows(AlreadyConnectedException.class, () -> sp.connect(rp.identifier(), 10_000, false));
            assertEquals(sp.connectedTo().length, 1);
            Msg.sendInt(sp, 5);
            assertEquals(Msg.receiveInt(rp), 5);
        }
    }

    @Test(timeOut = 60_000)
    public void disablingConnectionsKeepsExistingOnesAndRefusesNewOnes() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.MANY_TO_ONE, "in");
            rp.enableConnections();
            SendPort first = s.createSendPort(Types.MANY_TO_ONE);
            first.connect(rp.identifier());
            rp.disableConnections();
            SendPort second = s.createSendPort(Types.MANY_TO_ONE);
            expectThrows(ConnectionRefusedException.class, () -> second.connect(rp.identifier(), 10_000, false));
            Msg.sendInt(first, 9);
            assertEquals(Msg.receiveInt(rp), 9);
            rp.enableConnections();
            second.connect(rp.identifier(), 10_000, false);
            Msg.sendInt(second, 10);
            assertEquals(Msg.receiveInt(rp), 10);
        }
    }

    @Test(timeOut = 60_000)
    public void connectingToSeveralPortsReportsEachFailureAndKeepsTheConnectionsMade() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis s = pool.create(Types.ALL);
            Ibis r1 = pool.create(Types.ALL);
            Ibis r2 = pool.create(Types.ALL);
            ReceivePort good1 = r1.createReceivePort(Types.ONE_TO_MANY, "in");
            ReceivePort good2 = r2.createReceivePort(Types.ONE_TO_MANY, "in");
            ReceivePort disabled = r2.createReceivePort(Types.ONE_TO_MANY, "disabled");
            good1.enableConnections();
            good2.enableConnections();
            SendPort sp = s.createSendPort(Types.ONE_TO_MANY);
            ConnectionsFailedException e = expectThrows(ConnectionsFailedException.class,
                    () -> sp.connect(new ReceivePortIdentifier[] {good1.identifier(), disabled.identifier(),
                        good2.identifier()}, 10_000, false));
            assertEquals(e.getFailures().length, 1);
            assertEquals(e.getFailures()[0].receivePortIdentifier(), disabled.identifier());
            assertEquals(set((Object[]) e.getObtainedConnections()), set(good1.identifier(), good2.identifier()));
            assertEquals(set((Object[]) sp.connectedTo()), set(good1.identifier(), good2.identifier()));
            Msg.sendInt(sp, 77);
            assertEquals(Msg.receiveInt(good1), 77);
            assertEquals(Msg.receiveInt(good2), 77);
        }
    }

    @Test(timeOut = 60_000)
    public void connectingByAMapOfIbisesAndNamesReturnsTheirIdentifiers() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis s = pool.create(Types.ALL);
            Ibis r1 = pool.create(Types.ALL);
            Ibis r2 = pool.create(Types.ALL);
            ReceivePort p1 = r1.createReceivePort(Types.ONE_TO_MANY, "one");
            ReceivePort p2 = r2.createReceivePort(Types.ONE_TO_MANY, "two");
            p1.enableConnections();
            p2.enableConnections();
            Map<IbisIdentifier, String> targets = new LinkedHashMap<>();
            targets.put(r1.identifier(), "one");
            targets.put(r2.identifier(), "two");
            SendPort sp = s.createSendPort(Types.ONE_TO_MANY);
            ReceivePortIdentifier[] ids = sp.connect(targets);
            assertEquals(set((Object[]) ids), set(p1.identifier(), p2.identifier()));
            assertEquals(set((Object[]) sp.connectedTo()), set(p1.identifier(), p2.identifier()));
        }
    }

    // ---------------------------------------------------------------- bookkeeping

    @Test(timeOut = 60_000)
    public void connectedToNewConnectionsAndGotConnectionReportANewSender() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ConnectionEvents events = new ConnectionEvents();
            ReceivePort rp = r.createReceivePort(Types.MANY_TO_ONE, "in", events);
            rp.enableConnections();
            assertEquals(rp.newConnections().length, 0);
            SendPort sp = s.createSendPort(Types.MANY_TO_ONE, "out");
            ReceivePortIdentifier got = sp.connect(r.identifier(), "in");
            assertEquals(got, rp.identifier());
            assertEquals(Arrays.asList(sp.connectedTo()), List.of(rp.identifier()));
            assertEquals(events.accepted.poll(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS), sp.identifier(),
                    "gotConnection names the applicant");
            Waits.until("the receiver lists the connection", () -> rp.connectedTo().length == 1);
            assertEquals(Arrays.asList(rp.connectedTo()), List.of(sp.identifier()));
            assertEquals(Arrays.asList(rp.newConnections()), List.of(sp.identifier()));
            assertEquals(rp.newConnections().length, 0, "each new connection is reported once");
            assertEquals(rp.lostConnections().length, 0);
            assertEquals(sp.lostConnections().length, 0);
        }
    }

    @Test(timeOut = 60_000)
    public void portIdentifiersNameTheirPortAndIbisAndSurviveSerialization() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "the-receiver");
            SendPort named = s.createSendPort(Types.ONE_TO_ONE, "the-sender");
            SendPort anonymous = s.createSendPort(Types.ONE_TO_ONE);
            assertEquals(rp.name(), "the-receiver");
            assertEquals(rp.identifier().name(), "the-receiver");
            assertEquals(rp.identifier().ibisIdentifier(), r.identifier());
            assertEquals(named.name(), "the-sender");
            assertEquals(named.identifier().name(), "the-sender");
            assertEquals(named.identifier().ibisIdentifier(), s.identifier());
            assertNotNull(anonymous.name());
            assertFalse(anonymous.identifier().equals(named.identifier()));
            assertEquals(rp.getPortType(), Types.ONE_TO_ONE);
            assertEquals(named.getPortType(), Types.ONE_TO_ONE);

            ReceivePortIdentifier rpCopy = roundTrip(rp.identifier());
            SendPortIdentifier spCopy = roundTrip(named.identifier());
            assertEquals(rpCopy, rp.identifier());
            assertEquals(rpCopy.hashCode(), rp.identifier().hashCode());
            assertEquals(spCopy, named.identifier());
            assertEquals(spCopy.hashCode(), named.identifier().hashCode());

            // A deserialized identifier can be connected to.
            rp.enableConnections();
            named.connect(rpCopy);
            Msg.sendInt(named, 1);
            assertEquals(Msg.receiveInt(rp), 1);
        }
    }

    @SuppressWarnings("unchecked")
    static <T> T roundTrip(T value) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    @Test(timeOut = 60_000)
    public void aSecondReceivePortWithTheSameNameIsRejectedWithAnIOException() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            r.createReceivePort(Types.ONE_TO_ONE, "dup");
            // Ibis.createReceivePort: "@throws IOException when the port cannot be created, for example
            // because the name is in use" (IPL 2.x threw an IOException here too).
            expectThrows(IOException.class, () -> r.createReceivePort(Types.ONE_TO_ONE, "dup"));
        }
    }

    @Test(timeOut = 60_000)
    public void closingASendPortIsSeenByTheReceiverAsARegularLoss() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ConnectionEvents events = new ConnectionEvents();
            ReceivePort rp = r.createReceivePort(Types.MANY_TO_ONE, "in", events);
            rp.enableConnections();
            SendPort sp = s.createSendPort(Types.MANY_TO_ONE);
            sp.connect(rp.identifier());
            Msg.sendInt(sp, 1);
            sp.close();
            assertEquals(Msg.receiveInt(rp), 1, "a message sent before close arrives");
            ConnectionEvents.Lost lost = events.nextLost();
            assertEquals(lost.peer, sp.identifier());
            assertNull(lost.cause, "closing a send port is a regular disconnect (cause null), got " + lost.cause);
            Waits.until("the closed sender is gone from connectedTo()", () -> rp.connectedTo().length == 0);
            // ReceivePort.lostConnections(): "the send ports whose connection went away since the
            // previous call: they disconnected or closed, or the connection broke".
            List<SendPortIdentifier> gone = new ArrayList<>();
            Waits.until("lostConnections() lists the closed sender", () -> {
                gone.addAll(Arrays.asList(rp.lostConnections()));
                return gone.contains(sp.identifier());
            });
        }
    }

    @Test(timeOut = 60_000)
    public void disconnectIsARegularCloseThatTheSendPortDoesNotReportAsLost() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ConnectionEvents receiverEvents = new ConnectionEvents();
            ConnectionEvents senderEvents = new ConnectionEvents();
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "in", receiverEvents);
            rp.enableConnections();
            SendPort sp = s.createSendPort(Types.ONE_TO_ONE, "out", senderEvents, null);
            sp.connect(rp.identifier());
            Msg.sendInt(sp, 21);
            sp.disconnect(rp.identifier());
            assertEquals(sp.connectedTo().length, 0);
            assertEquals(Msg.receiveInt(rp), 21, "a message sent before the disconnect arrives");
            ConnectionEvents.Lost lost = receiverEvents.nextLost();
            assertEquals(lost.peer, sp.identifier());
            assertNull(lost.cause, "disconnect is regular: cause must be null, got " + lost.cause);
            assertEquals(sp.lostConnections().length, 0, "a disconnect by the send port itself is not lost");
            assertTrue(senderEvents.lost.isEmpty(), "no SendPortDisconnectUpcall for an own disconnect: "
                    + senderEvents.lost);
            // The send port can connect again afterwards.
            Waits.until("receiver forgot the old connection", () -> rp.connectedTo().length == 0);
            sp.connect(rp.identifier());
            Msg.sendInt(sp, 22);
            assertEquals(Msg.receiveInt(rp), 22);
        }
    }

    @Test(timeOut = 60_000)
    public void disconnectingFromAPortThatIsNotConnectedFails() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "in");
            SendPort sp = s.createSendPort(Types.ONE_TO_ONE);
            expectThrows(IOException.class, () -> sp.disconnect(rp.identifier()));
            expectThrows(IOException.class, () -> sp.disconnect(r.identifier(), "in"));
        }
    }

    // ---------------------------------------------------------------- closing receive ports

    @Test(timeOut = 60_000)
    public void closingAReceivePortWaitsForItsSendersSoThatNoMessageIsLost() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            List<Integer> received = new ArrayList<>();
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "in", m -> {
                int v = m.readInt();
                synchronized (received) {
                    received.add(v);
                }
            });
            rp.enableConnections();
            rp.enableMessageUpcalls();
            SendPort sp = s.createSendPort(Types.ONE_TO_ONE);
            sp.connect(rp.identifier());
            for (int i = 0; i < 100; i++) {
                Msg.sendInt(sp, i);
            }
            CompletableFuture<Void> closing = Async.run(() -> {
                try {
                    rp.close();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            sp.close();
            closing.get(40, TimeUnit.SECONDS);
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                expected.add(i);
            }
            synchronized (received) {
                assertEquals(received, expected, "every message sent before the close was delivered, in order");
            }
        }
    }

    @Test(timeOut = 60_000)
    public void closingAReceivePortWithoutWaitingIsSeenAsALostConnectionBySenders() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "in");
            rp.enableConnections();
            ConnectionEvents senderEvents = new ConnectionEvents();
            SendPort sp = s.createSendPort(Types.ONE_TO_ONE, "out", senderEvents, null);
            sp.connect(rp.identifier());
            Msg.sendInt(sp, 1);
            assertEquals(Msg.receiveInt(rp), 1);
            rp.close(-1);
            // The sender learns about it, at the latest when it writes.
            byte[] filler = new byte[16 * 1024];
            for (int i = 0; i < 2000 && senderEvents.lost.isEmpty(); i++) {
                try {
                    WriteMessage w = sp.newMessage();
                    w.writeArray(filler);
                    w.finish();
                } catch (IOException expected) {
                    break;
                }
            }
            ConnectionEvents.Lost lost = senderEvents.nextLost();
            assertEquals(lost.peer, rp.identifier());
            List<ReceivePortIdentifier> gone = new ArrayList<>();
            Waits.until("sender lostConnections() lists the closed receiver", () -> {
                gone.addAll(Arrays.asList(sp.lostConnections()));
                return gone.contains(rp.identifier());
            });
            assertEquals(sp.connectedTo().length, 0);
        }
    }

    @Test(timeOut = 60_000)
    public void closingAReceivePortFailsAReceiveThatIsWaiting() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "in");
            rp.enableConnections();
            AtomicReference<Thread> receiver = new AtomicReference<>();
            CountDownLatch started = new CountDownLatch(1);
            CompletableFuture<Throwable> outcome = Async.supply(() -> {
                receiver.set(Thread.currentThread());
                started.countDown();
                try {
                    ReadMessage m = rp.receive();
                    return new AssertionError("receive returned a message " + m);
                } catch (Throwable t) {
                    return t;
                }
            });
            started.await();
            Waits.untilBlockedOrDone(receiver.get());
            rp.close();
            Throwable t = outcome.get(40, TimeUnit.SECONDS);
            assertTrue(t instanceof IOException, "a blocked receive fails with an IOException: " + t);
            expectThrows(IOException.class, rp::receive);
        }
    }

    @Test(timeOut = 60_000)
    public void aClosedReceivePortCannotBeConnectedTo() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "in");
            rp.enableConnections();
            rp.close();
            rp.close(); // again: no effect
            SendPort sp = s.createSendPort(Types.ONE_TO_ONE);
            expectThrows(ConnectionFailedException.class, () -> sp.connect(rp.identifier(), 500, false));
            // The name is free again.
            ReceivePort again = r.createReceivePort(Types.ONE_TO_ONE, "in");
            again.enableConnections();
            sp.connect(again.identifier(), 10_000, false);
            Msg.sendInt(sp, 2);
            assertEquals(Msg.receiveInt(again), 2);
        }
    }

    @Test(timeOut = 60_000)
    public void closingASendPortTwiceHasNoEffectAndNewMessageAfterCloseFails() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis r = pool.create(Types.ALL);
            Ibis s = pool.create(Types.ALL);
            ReceivePort rp = r.createReceivePort(Types.ONE_TO_ONE, "in");
            rp.enableConnections();
            SendPort sp = s.createSendPort(Types.ONE_TO_ONE);
            sp.connect(rp.identifier());
            sp.close();
            sp.close();
            expectThrows(IOException.class, sp::newMessage);
        }
    }
}
