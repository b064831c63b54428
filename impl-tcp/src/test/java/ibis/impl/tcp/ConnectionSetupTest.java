package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.AlreadyConnectedException;
import ibis.ipl.ConnectionRefusedException;
import ibis.ipl.ConnectionTimedOutException;
import ibis.ipl.ConnectionsFailedException;
import ibis.ipl.Ibis;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.PortMismatchException;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.ReceivePortConnectUpcall;
import ibis.ipl.ReceivePortIdentifier;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortIdentifier;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PoolFixture;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/** Connection set-up between send and receive ports: what is accepted, what is refused and how. */
public class ConnectionSetupTest {

    private static final PortType SUN_ONE_TO_ONE = new PortType(PortType.CONNECTION_ONE_TO_ONE,
            PortType.SERIALIZATION_OBJECT_SUN, PortType.RECEIVE_EXPLICIT, PortType.RECEIVE_TIMEOUT,
            PortType.COMMUNICATION_FIFO, PortType.CONNECTION_DOWNCALLS, PortType.CONNECTION_UPCALLS,
            PortType.COMMUNICATION_RELIABLE);

    private static final PortType[] TYPES = {PortTypes.ONE_TO_ONE, PortTypes.MANY_TO_ONE_EXPLICIT, SUN_ONE_TO_ONE};

    private PoolFixture pool;
    private Ibis sender;
    private Ibis receiver;
    private int names;

    @BeforeClass
    public void start() throws Exception {
        pool = new PoolFixture("tcp");
        sender = pool.create(TYPES);
        receiver = pool.create(TYPES);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (pool != null) {
            pool.close();
        }
    }

    private synchronized String fresh(String base) {
        return base + "-" + (++names);
    }

    private ReceivePort enabledReceivePort(PortType type) throws Exception {
        ReceivePort rp = receiver.createReceivePort(type, fresh("in"));
        rp.enableConnections();
        return rp;
    }

    @Test(timeOut = 60_000)
    public void differentPortTypesGivePortMismatchNamingTheDifference() throws Exception {
        ReceivePort rp = enabledReceivePort(SUN_ONE_TO_ONE);
        SendPort sp = sender.createSendPort(PortTypes.ONE_TO_ONE);
        PortMismatchException e = expectThrows(PortMismatchException.class,
                () -> sp.connect(rp.identifier(), 5000, false));
        assertTrue(e.getMessage().contains(PortType.SERIALIZATION_OBJECT_SUN), e.getMessage());
        assertTrue(e.getMessage().contains(PortType.SERIALIZATION_DATA), e.getMessage());
        assertEquals(e.receivePortIdentifier(), rp.identifier());
        assertEquals(sp.connectedTo().length, 0);
    }

    @Test
    public void illFormedPortTypesAreRejected() {
        expectThrows(IbisConfigurationException.class, () -> new PortType(PortType.SERIALIZATION_DATA));
        expectThrows(IbisConfigurationException.class, () -> new PortType(PortType.CONNECTION_ONE_TO_ONE,
                PortType.CONNECTION_MANY_TO_ONE, PortType.SERIALIZATION_DATA));
        expectThrows(IbisConfigurationException.class, () -> new PortType(PortType.CONNECTION_ONE_TO_ONE));
    }

    @Test(timeOut = 60_000)
    public void portTypeNotGivenAtCreationIsRejected() {
        PortType other = new PortType(PortType.CONNECTION_ONE_TO_MANY, PortType.SERIALIZATION_BYTE,
                PortType.RECEIVE_EXPLICIT);
        IbisConfigurationException e = expectThrows(IbisConfigurationException.class,
                () -> sender.createSendPort(other));
        assertTrue(e.getMessage().contains("createIbis"), e.getMessage());
        expectThrows(IbisConfigurationException.class, () -> receiver.createReceivePort(other, "x"));
    }

    @Test(timeOut = 60_000)
    public void upcallAndExplicitReceiptMustFitThePortType() throws Exception {
        // ONE_TO_ONE has receive.explicit but no upcall capability.
        expectThrows(IbisConfigurationException.class,
                () -> receiver.createReceivePort(PortTypes.ONE_TO_ONE, fresh("up"), m -> { }));
        ReceivePort rp = receiver.createReceivePort(PortTypes.ONE_TO_ONE, fresh("dup"));
        // Ibis.createReceivePort: an IOException when the name is in use.
        java.io.IOException e = expectThrows(java.io.IOException.class,
                () -> receiver.createReceivePort(PortTypes.ONE_TO_ONE, rp.name()));
        assertTrue(e.getMessage().contains("exists already"), e.getMessage());
    }

    @Test(timeOut = 60_000)
    public void connectingToAMissingPortWithATimeoutTimesOut() throws Exception {
        SendPort sp = sender.createSendPort(PortTypes.ONE_TO_ONE);
        ConnectionTimedOutException e = expectThrows(ConnectionTimedOutException.class,
                () -> sp.connect(receiver.identifier(), "no-such-port", 300, false));
        assertTrue(e.getMessage().contains("no-such-port"), e.getMessage());
        assertEquals(e.receivePortName(), "no-such-port");
    }

    @Test(timeOut = 60_000)
    public void connectWaitsForAReceivePortCreatedLater() throws Exception {
        String name = fresh("late");
        SendPort sp = sender.createSendPort(PortTypes.ONE_TO_ONE);
        CompletableFuture<ReceivePortIdentifier> connected = CompletableFuture.supplyAsync(() -> {
            try {
                return sp.connect(receiver.identifier(), name, 30_000, true);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        ReceivePort rp = receiver.createReceivePort(PortTypes.ONE_TO_ONE, name);
        rp.enableConnections();
        assertEquals(connected.get(30, TimeUnit.SECONDS), rp.identifier());
    }

    @Test(timeOut = 60_000)
    public void disabledConnectionsAreRefusedOrTimeOutWhenFillingTheTimeout() throws Exception {
        ReceivePort rp = receiver.createReceivePort(PortTypes.ONE_TO_ONE, fresh("disabled"));
        SendPort sp = sender.createSendPort(PortTypes.ONE_TO_ONE);
        ConnectionRefusedException refused = expectThrows(ConnectionRefusedException.class,
                () -> sp.connect(rp.identifier(), 5000, false));
        assertTrue(refused.getMessage().contains("does not accept connections"), refused.getMessage());
        expectThrows(ConnectionTimedOutException.class, () -> sp.connect(rp.identifier(), 300, true));
        rp.enableConnections();
        sp.connect(rp.identifier(), 5000, false);
        rp.disableConnections();
        SendPort second = sender.createSendPort(PortTypes.ONE_TO_ONE);
        expectThrows(ConnectionRefusedException.class, () -> second.connect(rp.identifier(), 5000, false));
        assertEquals(rp.connectedTo().length, 1, "disabling keeps the existing connection");
    }

    @Test(timeOut = 60_000)
    public void gotConnectionReturningFalseRefusesTheConnection() throws Exception {
        int[] asked = new int[1];
        ReceivePort rp = receiver.createReceivePort(PortTypes.ONE_TO_ONE, fresh("picky"),
                new ReceivePortConnectUpcall() {
                    @Override
                    public boolean gotConnection(ReceivePort port, SendPortIdentifier applicant) {
                        synchronized (asked) {
                            asked[0]++;
                        }
                        return false;
                    }

                    @Override
                    public void lostConnection(ReceivePort port, SendPortIdentifier origin, Throwable cause) {
                    }
                });
        rp.enableConnections();
        SendPort sp = sender.createSendPort(PortTypes.ONE_TO_ONE);
        ConnectionRefusedException e = expectThrows(ConnectionRefusedException.class,
                () -> sp.connect(rp.identifier(), 5000, false));
        assertTrue(e.getMessage().contains("gotConnection"), e.getMessage());
        synchronized (asked) {
            assertEquals(asked[0], 1);
        }
        assertEquals(rp.connectedTo().length, 0);
    }

    @Test(timeOut = 60_000)
    public void aSecondSenderOnAOneToOnePortIsRefused() throws Exception {
        ReceivePort rp = enabledReceivePort(PortTypes.ONE_TO_ONE);
        SendPort first = sender.createSendPort(PortTypes.ONE_TO_ONE);
        first.connect(rp.identifier());
        SendPort second = receiver.createSendPort(PortTypes.ONE_TO_ONE);
        ConnectionRefusedException e = expectThrows(ConnectionRefusedException.class,
                () -> second.connect(rp.identifier(), 5000, false));
        assertTrue(e.getMessage().contains(PortType.CONNECTION_MANY_TO_ONE), e.getMessage());
        assertEquals(rp.connectedTo(), new SendPortIdentifier[] {first.identifier()});
    }

    @Test(timeOut = 60_000)
    public void connectingTwiceToTheSamePortGivesAlreadyConnected() throws Exception {
        ReceivePort rp = enabledReceivePort(PortTypes.MANY_TO_ONE_EXPLICIT);
        SendPort sp = sender.createSendPort(PortTypes.MANY_TO_ONE_EXPLICIT);
        sp.connect(rp.identifier());
        expectThrows(AlreadyConnectedException.class, () -> sp.connect(rp.identifier()));
    }

    @Test(timeOut = 60_000)
    public void aOneToOneSendPortCannotConnectToTwoReceivers() throws Exception {
        ReceivePort rp1 = enabledReceivePort(PortTypes.ONE_TO_ONE);
        ReceivePort rp2 = enabledReceivePort(PortTypes.ONE_TO_ONE);
        SendPort sp = sender.createSendPort(PortTypes.ONE_TO_ONE);
        sp.connect(rp1.identifier());
        expectThrows(IbisConfigurationException.class, () -> sp.connect(rp2.identifier()));
    }

    @Test(timeOut = 60_000)
    public void connectingToSeveralPortsReportsEachFailureAndKeepsTheRest() throws Exception {
        PortType multicast = PortTypes.ONE_TO_MANY;
        try (PoolFixture own = new PoolFixture("tcp")) {
            Ibis a = own.create(multicast);
            Ibis b = own.create(multicast);
            ReceivePort good = b.createReceivePort(multicast, "good");
            good.enableConnections();
            ReceivePort closed = b.createReceivePort(multicast, "closed-for-business");
            SendPort sp = a.createSendPort(multicast);
            ConnectionsFailedException e = expectThrows(ConnectionsFailedException.class,
                    () -> sp.connect(new ReceivePortIdentifier[] {good.identifier(), closed.identifier()}, 2000,
                            false));
            assertEquals(e.getFailures().length, 1);
            assertEquals(e.getFailures()[0].receivePortIdentifier(), closed.identifier());
            assertEquals(e.getObtainedConnections(), new ReceivePortIdentifier[] {good.identifier()});
            assertEquals(sp.connectedTo(), new ReceivePortIdentifier[] {good.identifier()});
        }
    }

    @Test(timeOut = 60_000)
    public void downcallsListNewAndLostConnectionsOnce() throws Exception {
        ReceivePort rp = enabledReceivePort(PortTypes.MANY_TO_ONE_EXPLICIT);
        SendPort a = sender.createSendPort(PortTypes.MANY_TO_ONE_EXPLICIT);
        SendPort b = receiver.createSendPort(PortTypes.MANY_TO_ONE_EXPLICIT);
        a.connect(rp.identifier());
        b.connect(rp.identifier());
        SendPortIdentifier[] fresh = rp.newConnections();
        Arrays.sort(fresh, (x, y) -> x.toString().compareTo(y.toString()));
        SendPortIdentifier[] expected = {a.identifier(), b.identifier()};
        Arrays.sort(expected, (x, y) -> x.toString().compareTo(y.toString()));
        assertEquals(fresh, expected);
        assertEquals(rp.newConnections().length, 0, "reported once");
        assertEquals(rp.connectedTo().length, 2);
        assertEquals(a.connectedTo(), new ReceivePortIdentifier[] {rp.identifier()});
    }

    @Test(timeOut = 60_000)
    public void disconnectIsARegularCloseForTheReceiver() throws Exception {
        ReceivePort rp = enabledReceivePort(PortTypes.ONE_TO_ONE);
        SendPort sp = sender.createSendPort(PortTypes.ONE_TO_ONE);
        sp.connect(rp.identifier());
        WriteMessage w = sp.newMessage();
        w.writeInt(5);
        w.finish();
        sp.disconnect(rp.identifier());
        assertEquals(sp.connectedTo().length, 0);
        ReadMessage r = rp.receive();
        assertEquals(r.readInt(), 5, "messages sent before the disconnect arrive");
        r.finish();
        // The CLOSE is seen by the next receive, which then waits for a new sender.
        expectThrows(ibis.ipl.ReceiveTimedOutException.class, () -> rp.receive(300));
        assertEquals(rp.connectedTo().length, 0);
        // ReceivePort.lostConnections(): the senders that disconnected or whose connection broke.
        assertEquals(rp.lostConnections(), new SendPortIdentifier[] {sp.identifier()});
        assertEquals(sp.lostConnections().length, 0, "an own disconnect is not lost for the send port");
        // The port accepts a new sender afterwards.
        SendPort again = sender.createSendPort(PortTypes.ONE_TO_ONE);
        again.connect(rp.identifier());
        w = again.newMessage();
        w.writeInt(6);
        w.finish();
        r = rp.receive();
        assertEquals(r.readInt(), 6);
        r.finish();
    }

    @Test(timeOut = 60_000)
    public void newMessageOnAnUnconnectedPortFails() throws Exception {
        SendPort sp = sender.createSendPort(PortTypes.ONE_TO_ONE);
        java.io.IOException e = expectThrows(java.io.IOException.class, sp::newMessage);
        assertTrue(e.getMessage().contains("not connected"), e.getMessage());
    }
}
