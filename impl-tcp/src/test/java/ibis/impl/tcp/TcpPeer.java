package ibis.impl.tcp;

import ibis.ipl.ConnectionClosedException;
import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.IbisProperties;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.ReceivePortConnectUpcall;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortIdentifier;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PeerMain;

import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A pool member in its own JVM for {@link MultiProcessTest} (a {@link PeerMain} role). Arguments:
 * {@code receiver|sender}, the registry server address, the pool name, and for the sender the
 * number of messages (-1: send until killed). Reports on standard output, one line per event.
 */
public final class TcpPeer implements PeerMain.Role {

    static final PortType TYPE = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA,
            PortType.RECEIVE_EXPLICIT, PortType.COMMUNICATION_FIFO, PortType.CONNECTION_UPCALLS,
            PortType.COMMUNICATION_RELIABLE);

    @Override
    public void run(String[] args) throws Exception {
        Properties p = new Properties();
        p.setProperty(IbisProperties.SERVER_ADDRESS, args[1]);
        p.setProperty(IbisProperties.POOL_NAME, args[2]);
        p.setProperty(IbisProperties.IMPLEMENTATION, "tcp");
        Ibis ibis = IbisFactory.createIbis(new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT), p, true, null,
                TYPE);
        if (args[0].equals("receiver")) {
            receive(ibis);
        } else {
            send(ibis, Integer.parseInt(args[3]));
        }
    }

    private static void receive(Ibis ibis) throws Exception {
        CountDownLatch lost = new CountDownLatch(1);
        Throwable[] cause = new Throwable[1];
        ReceivePort rp = ibis.createReceivePort(TYPE, "in", new ReceivePortConnectUpcall() {
            @Override
            public boolean gotConnection(ReceivePort receiver, SendPortIdentifier applicant) {
                return true;
            }

            @Override
            public void lostConnection(ReceivePort receiver, SendPortIdentifier origin, Throwable why) {
                cause[0] = why;
                lost.countDown();
            }
        });
        rp.enableConnections();
        ibis.registry().elect("receiver");
        System.out.println("READY");
        int count = 0;
        try {
            while (true) {
                ReadMessage r = rp.receive();
                int value = r.readInt();
                r.finish();
                if (value < 0) {
                    System.out.println("DONE " + count);
                    ibis.end();
                    return;
                }
                if (value != count) {
                    System.out.println("OUT OF ORDER " + value + " expected " + count);
                    return;
                }
                count++;
                if (count == 10) {
                    System.out.println("RECEIVED 10");
                }
            }
        } catch (ConnectionClosedException e) {
            boolean upcall = lost.await(30, TimeUnit.SECONDS);
            System.out.println("LOST after " + count + " messages; upcall " + upcall + " with cause "
                    + (cause[0] != null));
            ibis.end();
        }
    }

    private static void send(Ibis ibis, int messages) throws Exception {
        IbisIdentifier receiver = ibis.registry().getElectionResult("receiver", 60_000);
        if (receiver == null) {
            System.out.println("NO RECEIVER");
            return;
        }
        SendPort sp = ibis.createSendPort(TYPE);
        sp.connect(receiver, "in", 60_000, true);
        System.out.println("CONNECTED");
        for (int i = 0; messages < 0 || i < messages; i++) {
            WriteMessage w = sp.newMessage();
            w.writeInt(i);
            w.finish();
        }
        WriteMessage w = sp.newMessage();
        w.writeInt(-1);
        w.finish();
        sp.close();
        System.out.println("SENT " + messages);
        ibis.end();
    }
}
