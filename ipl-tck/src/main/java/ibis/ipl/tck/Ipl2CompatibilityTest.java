package ibis.ipl.tck;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.ConnectionFailedException;
import ibis.ipl.ConnectionsFailedException;
import ibis.ipl.Ibis;
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
import ibis.testsupport.ChildJvm;
import ibis.testsupport.PoolFixture;
import ibis.testsupport.Waits;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/**
 * IPL 2.x programs that must run unchanged, each against a peer in another JVM: anonymous receive
 * ports in a request/reply exchange; writeArray(Object[]) read with readObject() followed by
 * shared references; a 100,000-link list over the sun serialization at the default stack size;
 * port types that ask for {@code connection.direct}, {@code connection.light} or
 * {@code connection.ultralight}, as programs written for IPL 2.x's default implementation did.
 */
public class Ipl2CompatibilityTest {

    /** A reply as the test's reply port saw it: the value and whether the server's connect by name failed. */
    private record Reply(int value, boolean byNameRefused) {
    }

    private static Reply readReply(ReadMessage m) throws java.io.IOException {
        Reply r = new Reply(m.readInt(), m.readBoolean());
        m.finish();
        return r;
    }

    /** Sends one request (the reply port's identifier, written with writeObject, and x) to the replier. */
    private static void request(SendPort requests, ReceivePort replyPort, int x) throws java.io.IOException {
        WriteMessage w = requests.newMessage();
        w.writeObject(replyPort.identifier());
        w.writeInt(x);
        w.finish();
    }

    @Test(timeOut = 120_000)
    public void anonymousReplyPortsAreReachedByTheirIdentifierFromAnotherProcessButNotByName() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool();
                ChildJvm server = ImplementationUnderTest.startPeer("replier", pool)) {
            Ibis client = pool.create(ContractPeer.CAPABILITIES, null, Types.ALL);
            server.await("READY");
            IbisIdentifier replier = client.registry().getElectionResult("replier", Waits.EVENTUALLY_MILLIS);
            assertNotNull(replier, "the replier never won its election");
            SendPort requests = client.createSendPort(Types.OBJECT_MANY_TO_ONE);
            requests.connect(replier, "requests", Waits.EVENTUALLY_MILLIS, true);

            // createReceivePort(type, null): explicit receipt.
            ReceivePort explicit = client.createReceivePort(Types.OBJECT_ONE_TO_ONE, null);
            explicit.enableConnections();
            request(requests, explicit, 21);
            assertEquals(readReply(explicit.receive(Waits.EVENTUALLY_MILLIS)), new Reply(42, true));
            assertEquals(server.await("REPLIED"), "21");

            // createReceivePort(type, null, upcall).
            BlockingQueue<Reply> upcalled = new ArrayBlockingQueue<>(1);
            ReceivePort withUpcall = client.createReceivePort(Types.OBJECT_ONE_TO_ONE, null,
                    m -> upcalled.add(readReply(m)));
            withUpcall.enableConnections();
            withUpcall.enableMessageUpcalls();
            request(requests, withUpcall, 5);
            assertEquals(upcalled.poll(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS), new Reply(10, true));

            // createReceivePort(type, null, connectUpcall).
            BlockingQueue<SendPortIdentifier> applicants = new ArrayBlockingQueue<>(4);
            ReceivePort withConnectUpcall = client.createReceivePort(Types.OBJECT_ONE_TO_ONE, null,
                    new ReceivePortConnectUpcall() {
                        @Override
                        public boolean gotConnection(ReceivePort receiver, SendPortIdentifier applicant) {
                            applicants.add(applicant);
                            return true;
                        }

                        @Override
                        public void lostConnection(ReceivePort receiver, SendPortIdentifier origin, Throwable cause) {
                            // the server closes its send port after each reply
                        }
                    });
            withConnectUpcall.enableConnections();
            request(requests, withConnectUpcall, -3);
            assertEquals(readReply(withConnectUpcall.receive(Waits.EVENTUALLY_MILLIS)), new Reply(-6, true));
            SendPortIdentifier applicant = applicants.poll(Waits.EVENTUALLY_MILLIS, TimeUnit.MILLISECONDS);
            assertNotNull(applicant, "the connect upcall was not asked");
            assertEquals(applicant.ibisIdentifier(), replier);

            assertNotEquals(explicit.name(), withUpcall.name());
            assertNotEquals(withUpcall.name(), withConnectUpcall.name());
            assertNotEquals(explicit.identifier(), withConnectUpcall.identifier());
        }
    }

    @Test(timeOut = 60_000)
    public void anAnonymousReceivePortCannotBeLookedUpByItsGeneratedName() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis receiver = pool.create(Types.ALL);
            Ibis sender = pool.create(Types.ALL);
            ReceivePort anonymous = receiver.createReceivePort(Types.ONE_TO_ONE, null);
            anonymous.enableConnections();
            assertNotNull(anonymous.name());
            SendPort byName = sender.createSendPort(Types.ONE_TO_ONE);
            ConnectionFailedException refused = expectThrows(ConnectionFailedException.class,
                    () -> byName.connect(receiver.identifier(), anonymous.name(), Waits.EVENTUALLY_MILLIS, true));
            assertTrue(refused.getMessage().contains("ReceivePortIdentifier"), refused.getMessage());
            assertEquals(byName.connectedTo().length, 0);

            byName.connect(anonymous.identifier());
            WriteMessage w = byName.newMessage();
            w.writeInt(7);
            w.finish();
            ReadMessage m = anonymous.receive(Waits.EVENTUALLY_MILLIS);
            assertEquals(m.readInt(), 7);
            m.finish();

            // The generated form is reserved: no named port can take it (so a name lookup never finds one).
            IbisConfigurationException reserved = expectThrows(IbisConfigurationException.class,
                    () -> receiver.createReceivePort(Types.ONE_TO_ONE, anonymous.name()));
            assertTrue(reserved.getMessage().contains("pass null"), reserved.getMessage());
            assertFalse(receiver.createReceivePort(Types.ONE_TO_ONE, null).name().equals(anonymous.name()));
        }
    }

    @Test(timeOut = 60_000)
    public void aMulticastPortConnectsToAnonymousPortsThroughAnArrayOfTheirIdentifiers() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis first = pool.create(Types.ALL);
            Ibis second = pool.create(Types.ALL);
            Ibis sender = pool.create(Types.ALL);
            ReceivePort a = first.createReceivePort(Types.ONE_TO_MANY, null);
            ReceivePort b = second.createReceivePort(Types.ONE_TO_MANY, null);
            a.enableConnections();
            b.enableConnections();
            SendPort out = sender.createSendPort(Types.ONE_TO_MANY);
            out.connect(new ReceivePortIdentifier[] {a.identifier(), b.identifier()}, Waits.EVENTUALLY_MILLIS, true);
            assertEquals(out.connectedTo().length, 2);
            WriteMessage w = out.newMessage();
            w.writeInt(11);
            w.finish();
            for (ReceivePort r : new ReceivePort[] {a, b}) {
                ReadMessage m = r.receive(Waits.EVENTUALLY_MILLIS);
                assertEquals(m.readInt(), 11, "what " + r.name() + " got");
                m.finish();
            }

            // By name (a map of names) an anonymous port stays out of reach.
            SendPort byName = sender.createSendPort(Types.ONE_TO_MANY);
            ConnectionsFailedException refused = expectThrows(ConnectionsFailedException.class,
                    () -> byName.connect(java.util.Map.of(first.identifier(), a.name()), Waits.EVENTUALLY_MILLIS,
                            true));
            assertEquals(refused.getFailures().length, 1);
            assertTrue(refused.getFailures()[0].getMessage().contains("ReceivePortIdentifier"),
                    refused.getFailures()[0].getMessage());
        }
    }

    /** Test code that may throw. */
    private interface Action {
        void run() throws Exception;
    }

    /** Runs {@code body} on a new thread with the JVM's default stack size; rethrows what it threw. */
    private static void onDefaultStack(Action body) throws Exception {
        Throwable[] failure = new Throwable[1];
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure[0] = e;
            }
        }, "default-stack");
        t.start();
        t.join();
        if (failure[0] instanceof Exception e) {
            throw e;
        }
        if (failure[0] instanceof Error e) {
            throw e;
        }
    }

    /**
     * Sends {@code objects} (arrays of objects with writeArray, the rest with writeObject) in one
     * message to an echo peer of {@code mode}, checks the shape it read and the shape of what it
     * sent back, all written and read at the default stack size on both sides.
     */
    private static void echo(String mode, PortType type, List<Object> objects) throws Exception {
        String expected = Link.shape(objects);
        try (PoolFixture pool = ImplementationUnderTest.pool();
                ChildJvm peer = ImplementationUnderTest.startPeer(mode, pool)) {
            Ibis me = pool.create(ContractPeer.CAPABILITIES, null, Types.ALL);
            ReceivePort back = me.createReceivePort(type, "echo-back");
            back.enableConnections();
            peer.await("READY");
            IbisIdentifier echo = me.registry().getElectionResult("echo", Waits.EVENTUALLY_MILLIS);
            assertNotNull(echo, "the echo peer never won its election");
            SendPort out = me.createSendPort(type);
            out.connect(echo, "echo-in", Waits.EVENTUALLY_MILLIS, true);
            onDefaultStack(() -> {
                WriteMessage w = out.newMessage();
                w.writeInt(objects.size());
                for (Object o : objects) {
                    if (o instanceof Object[] array) {
                        w.writeArray(array);
                    } else {
                        w.writeObject(o);
                    }
                }
                w.finish();
            });
            assertEquals(peer.await("SHAPE"), expected, "what the other process read");
            List<Object> echoed = new ArrayList<>();
            onDefaultStack(() -> {
                ReadMessage m = back.receive(Waits.EVENTUALLY_MILLIS);
                int n = m.readInt();
                for (int i = 0; i < n; i++) {
                    echoed.add(m.readObject());
                }
                m.finish();
            });
            assertEquals(Link.shape(echoed), expected, "what came back");
            peer.await("ECHOED");
        }
    }

    @Test(timeOut = 120_000)
    public void aHundredThousandLinkListTravelsOverSunSerializationAtTheDefaultStackSize() throws Exception {
        echo("echo-sun", Types.SUN_ONE_TO_ONE, List.of(Link.chain(100_000)));
    }

    @DataProvider
    public static Object[][] objectSerializations() {
        return new Object[][] {{"echo-ibis", Types.OBJECT_ONE_TO_ONE}, {"echo-sun", Types.SUN_ONE_TO_ONE}};
    }

    @Test(dataProvider = "objectSerializations", timeOut = 120_000)
    public void writeArrayOfObjectsReadWithReadObjectKeepsTheIdentitiesOfLaterReferences(String mode, PortType type)
            throws Exception {
        Link a = Link.chain(1);
        Link b = Link.chain(2);
        Link[] typed = {b, null, a};
        Object[] array = {a, b, a, typed};
        // writeArray, then references written after it to the same objects and the same arrays.
        echo(mode, type, List.of(array, a, b, typed, array, b.next));
    }

    /**
     * IPL 2.x's default implementation offered {@code connection.direct}, {@code connection.light}
     * and {@code connection.ultralight}, and programs of that time put them in ordinary port types
     * (a many-to-one "light" port for work stealing, a "direct" one-to-one port). Each is served with
     * the implementation's ordinary connections, which give what the capability asks for and more:
     * every connection is direct, and reliable with no message size limit.
     */
    @Test(timeOut = 120_000)
    public void portTypesAskingForDirectLightOrUltralightConnectionsAreServed() throws Exception {
        PortType direct = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.CONNECTION_DIRECT,
                PortType.COMMUNICATION_RELIABLE, PortType.COMMUNICATION_FIFO, PortType.SERIALIZATION_DATA,
                PortType.RECEIVE_EXPLICIT, PortType.RECEIVE_TIMEOUT);
        PortType light = new PortType(PortType.CONNECTION_MANY_TO_ONE, PortType.CONNECTION_LIGHT,
                PortType.COMMUNICATION_RELIABLE, PortType.COMMUNICATION_FIFO, PortType.SERIALIZATION_OBJECT,
                PortType.RECEIVE_EXPLICIT, PortType.RECEIVE_TIMEOUT);
        PortType ultralight = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.CONNECTION_ULTRALIGHT,
                PortType.SERIALIZATION_BYTE, PortType.RECEIVE_EXPLICIT);
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(direct, light, ultralight);
            Ibis b = pool.create(direct, light, ultralight);
            int value = 1;
            for (PortType type : List.of(direct, light, ultralight)) {
                ReceivePort rp = b.createReceivePort(type, "in-" + value);
                rp.enableConnections();
                SendPort sp = a.createSendPort(type);
                sp.connect(b.identifier(), "in-" + value);
                byte[] payload = new byte[100_000];
                payload[payload.length - 1] = (byte) value;
                WriteMessage w = sp.newMessage();
                w.writeArray(payload);
                w.finish();
                ReadMessage r = rp.receive();
                byte[] got = new byte[payload.length];
                r.readArray(got);
                r.finish();
                assertEquals(got[got.length - 1], (byte) value, type.toString());
                sp.close();
                rp.close();
                value++;
            }
        }
    }
}
