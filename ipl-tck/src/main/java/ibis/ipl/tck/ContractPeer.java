package ibis.ipl.tck;

import ibis.ipl.ConnectionFailedException;
import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.ReceivePortIdentifier;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PeerMain;
import ibis.testsupport.Waits;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A pool member in a JVM of its own (a {@link PeerMain} role, started by
 * {@link ImplementationUnderTest#startPeer}), for the tests that kill a member or talk to another
 * process. It runs the implementation under test (the child JVM gets {@code ibis.implementation}),
 * reports progress as lines on stdout and ends when its parent goes away (or, run by a
 * {@link ibis.testsupport.PeerHost}, ends its Ibis when stopped).
 *
 * <p>Arguments: {@code MODE SERVER_ADDRESS POOL_NAME}, where MODE is
 * <ul>
 * <li>{@code member}: joins and prints {@code JOINED <name>};
 * <li>{@code writer}: connects a one-to-one send port to port "in" of the winner of election
 *     "parent", writes an int 1234 and 1000 bytes, flushes without finishing and prints
 *     {@code FLUSHED};
 * <li>{@code sender}: like {@code writer}, but sends one complete message (an int 99) and prints
 *     {@code SENT};
 * <li>{@code reader}: creates the one-to-many receive port "in", elects itself "child", prints
 *     {@code READY <name>}, then receives messages forever, printing {@code GOT <int>} for each;
 * <li>{@code replier}: the server of an IPL 2.x request/reply program: creates the many-to-one
 *     receive port "requests" ({@link Types#OBJECT_MANY_TO_ONE}), elects itself "replier", prints
 *     {@code READY <name>}, then for each request (a {@code ReceivePortIdentifier} written with
 *     writeObject, then an int x) first tries to connect to the reply port by its name (which must
 *     fail for an anonymous port), then connects to it by its identifier and replies x * 2 and whether
 *     the connect by name failed; prints {@code REPLIED <x>};
 * <li>{@code echo-sun}, {@code echo-ibis}: creates the one-to-one receive port "echo-in" of
 *     {@link Types#SUN_ONE_TO_ONE} or {@link Types#OBJECT_ONE_TO_ONE}, elects itself "echo", prints
 *     {@code READY <name>}; then receives one message (an int n and n objects, each read with
 *     readObject), prints {@code SHAPE <Link.shape of them>} and sends the same back in one
 *     message to port "echo-back" of the sender's Ibis (arrays of objects with writeArray, the
 *     rest with writeObject). Runs at the JVM's default thread stack size.
 * </ul>
 */
public final class ContractPeer implements PeerMain.Role {

    /** Capabilities every member of the failure tests' pools uses. */
    static final IbisCapabilities CAPABILITIES = new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT,
            IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);

    @Override
    public void run(String[] args) throws Exception {
        String mode = args[0];
        Properties p = new Properties();
        p.setProperty("ibis.server.address", args[1]);
        p.setProperty("ibis.pool.name", args[2]);
        Ibis ibis = IbisFactory.createIbis(CAPABILITIES, p, true, null, Types.ALL);
        PeerMain.closeWhenParentGoes(ibis::end);
        switch (mode) {
            case "member":
                say("JOINED " + ibis.identifier().name());
                break;
            case "writer": {
                IbisIdentifier parent = ibis.registry().getElectionResult("parent");
                SendPort sp = ibis.createSendPort(Types.ONE_TO_ONE, "child-out");
                sp.connect(parent, "in");
                WriteMessage w = sp.newMessage();
                w.writeInt(1234);
                w.writeArray(new byte[1000]);
                w.flush();
                say("FLUSHED");
                break;
            }
            case "sender": {
                IbisIdentifier parent = ibis.registry().getElectionResult("parent");
                SendPort sp = ibis.createSendPort(Types.ONE_TO_ONE, "child-out");
                sp.connect(parent, "in");
                WriteMessage w = sp.newMessage();
                w.writeInt(99);
                w.finish();
                say("SENT");
                break;
            }
            case "reader": {
                ReceivePort rp = ibis.createReceivePort(Types.ONE_TO_MANY, "in");
                rp.enableConnections();
                ibis.registry().elect("child");
                say("READY " + ibis.identifier().name());
                while (true) {
                    ReadMessage m = rp.receive();
                    int v = m.readInt();
                    m.finish();
                    say("GOT " + v);
                }
            }
            case "replier":
                reply(ibis);
                break;
            case "echo-sun":
                echo(ibis, Types.SUN_ONE_TO_ONE);
                break;
            case "echo-ibis":
                echo(ibis, Types.OBJECT_ONE_TO_ONE);
                break;
            default:
                throw new IllegalArgumentException("unknown mode " + mode);
        }
        PeerMain.stayUntilParentGoes();
    }

    private static void reply(Ibis ibis) throws Exception {
        ReceivePort requests = ibis.createReceivePort(Types.OBJECT_MANY_TO_ONE, "requests");
        requests.enableConnections();
        ibis.registry().elect("replier");
        say("READY " + ibis.identifier().name());
        while (true) {
            ReadMessage m = requests.receive();
            ReceivePortIdentifier replyTo = (ReceivePortIdentifier) m.readObject();
            int x = m.readInt();
            m.finish();
            SendPort sp = ibis.createSendPort(Types.OBJECT_ONE_TO_ONE);
            boolean byNameRefused;
            try {
                sp.connect(replyTo.ibisIdentifier(), replyTo.name(), Waits.EVENTUALLY_MILLIS, false);
                byNameRefused = false;
                sp.disconnect(replyTo);
            } catch (ConnectionFailedException expected) {
                byNameRefused = true;
            }
            sp.connect(replyTo, Waits.EVENTUALLY_MILLIS, true);
            WriteMessage w = sp.newMessage();
            w.writeInt(2 * x);
            w.writeBoolean(byNameRefused);
            w.finish();
            sp.close();
            say("REPLIED " + x);
        }
    }

    private static void echo(Ibis ibis, PortType type) throws Exception {
        ReceivePort in = ibis.createReceivePort(type, "echo-in");
        in.enableConnections();
        ibis.registry().elect("echo");
        say("READY " + ibis.identifier().name());
        ReadMessage m = in.receive();
        int n = m.readInt();
        List<Object> objects = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            objects.add(m.readObject());
        }
        IbisIdentifier sender = m.origin().ibisIdentifier();
        m.finish();
        say("SHAPE " + Link.shape(objects));
        SendPort back = ibis.createSendPort(type);
        back.connect(sender, "echo-back", Waits.EVENTUALLY_MILLIS, true);
        WriteMessage w = back.newMessage();
        w.writeInt(n);
        for (Object o : objects) {
            if (o instanceof Object[] array) {
                w.writeArray(array);
            } else {
                w.writeObject(o);
            }
        }
        w.finish();
        back.close();
        say("ECHOED");
    }

    private static void say(String line) {
        PeerMain.say(line);
    }
}
