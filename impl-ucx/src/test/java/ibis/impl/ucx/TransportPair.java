package ibis.impl.ucx;

import ibis.ipl.impl.ConnectionEnds;
import ibis.ipl.impl.HierarchicalLocation;
import ibis.ipl.impl.MemberIdentifier;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Two UCX transports in this JVM (each its own UCP worker), without an Ibis: {@link #connect()}
 * opens a connection from the first to the second and returns both sides' ends. Closing closes
 * every end and both transports.
 */
final class TransportPair implements AutoCloseable {

    /** Both sides of one connection: the connecting side's ends and the accepting side's ends. */
    record Connection(ConnectionEnds connector, ConnectionEnds acceptor) {
    }

    final UcxTransport from;
    final UcxTransport to;
    private final BlockingQueue<ConnectionEnds> accepted = new LinkedBlockingQueue<>();
    private final List<ConnectionEnds> opened = new ArrayList<>();

    TransportPair() throws IOException {
        this(new Properties());
    }

    TransportPair(Properties properties) throws IOException {
        from = new UcxTransport(properties, (sink, source, peer) -> { });
        to = new UcxTransport(properties,
                (sink, source, peer) -> accepted.add(new ConnectionEnds(sink, source, peer)));
    }

    /** A member identifier that names {@code transport}'s contact data. */
    static MemberIdentifier member(String name, UcxTransport transport) {
        return new MemberIdentifier(name, "pool", new HierarchicalLocation(name), null, UcxIbisStarter.NICKNAME,
                transport.contactData());
    }

    Connection connect() throws IOException, InterruptedException {
        ConnectionEnds c = from.connect(member("to", to), 10_000);
        ConnectionEnds a = accepted.poll(10, TimeUnit.SECONDS);
        if (a == null) {
            c.closeQuietly();
            throw new AssertionError("the connection was not accepted");
        }
        synchronized (opened) {
            opened.add(c);
            opened.add(a);
        }
        return new Connection(c, a);
    }

    /**
     * A connection of the second transport to itself: both sides' ends are on one worker, and UCX
     * moves its messages through its {@code self} transport, which raises no event.
     */
    Connection connectToItself() throws IOException, InterruptedException {
        ConnectionEnds c = to.connect(member("to", to), 10_000);
        ConnectionEnds a = accepted.poll(10, TimeUnit.SECONDS);
        if (a == null) {
            c.closeQuietly();
            throw new AssertionError("the connection was not accepted");
        }
        synchronized (opened) {
            opened.add(c);
            opened.add(a);
        }
        return new Connection(c, a);
    }

    @Override
    public void close() throws IOException {
        synchronized (opened) {
            for (ConnectionEnds e : opened) {
                e.closeQuietly();
            }
        }
        from.close();
        to.close();
    }
}
