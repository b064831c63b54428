package ibis.ipl.tck;

import static org.testng.Assert.assertEquals;

import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.ReceivePortIdentifier;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortIdentifier;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PoolFixture;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.Test;

/**
 * Whole programs written the way IPL 2.x programs are: every "process" is a thread with an Ibis
 * of its own that runs the same main-like code, finds its role by an election, and talks through
 * ports connected by (identifier, name).
 */
public class ClassicProgramTest {

    /** Runs {@code n} members of a program concurrently and returns their results. */
    private static <T> List<T> runMembers(int n, java.util.function.IntFunction<Callable<T>> member) throws Exception {
        ExecutorService exec = Executors.newFixedThreadPool(n);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(exec.submit(member.apply(i)));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                results.add(f.get(90, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            exec.shutdownNow();
        }
    }

    // ---------------------------------------------------------------- Hello

    private static final PortType HELLO_TYPE = new PortType(PortType.COMMUNICATION_RELIABLE,
            PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT, PortType.CONNECTION_ONE_TO_ONE);
    private static final IbisCapabilities HELLO_CAPS = new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT);

    /** The classic Hello main: returns what the server received, or "client". */
    private static String hello(Properties props) throws Exception {
        Ibis ibis = IbisFactory.createIbis(HELLO_CAPS, props, true, null, HELLO_TYPE);
        try {
            IbisIdentifier server = ibis.registry().elect("Server");
            if (server.equals(ibis.identifier())) {
                ReceivePort receiver = ibis.createReceivePort(HELLO_TYPE, "server");
                receiver.enableConnections();
                ReadMessage r = receiver.receive();
                String s = r.readString();
                r.finish();
                receiver.close();
                return s;
            }
            SendPort sender = ibis.createSendPort(HELLO_TYPE);
            sender.connect(server, "server");
            WriteMessage w = sender.newMessage();
            w.writeString("Hi there");
            w.finish();
            sender.close();
            return "client";
        } finally {
            ibis.end();
        }
    }

    @Test(timeOut = 120_000)
    public void theClassicHelloProgramRuns() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            List<String> results = runMembers(2, i -> () -> hello(pool.properties()));
            List<String> sorted = new ArrayList<>(results);
            sorted.sort(null);
            assertEquals(sorted, List.of("Hi there", "client"));
        }
    }

    @Test(timeOut = 120_000)
    public void createIbisWithoutPropertiesReadsTheSystemProperties() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            String[] keys = {"ibis.server.address", "ibis.pool.name", "ibis.implementation"};
            Map<String, String> saved = new HashMap<>();
            for (String k : keys) {
                saved.put(k, System.getProperty(k));
            }
            try {
                System.setProperty("ibis.server.address", pool.serverAddress());
                System.setProperty("ibis.pool.name", pool.poolName());
                System.setProperty("ibis.implementation", ImplementationUnderTest.nickname());
                Ibis ibis = pool.track(IbisFactory.createIbis(HELLO_CAPS, null, HELLO_TYPE));
                assertEquals(ibis.identifier().poolName(), pool.poolName());
                assertEquals(ibis.registry().elect("Server"), ibis.identifier());
            } finally {
                for (String k : keys) {
                    if (saved.get(k) == null) {
                        System.clearProperty(k);
                    } else {
                        System.setProperty(k, saved.get(k));
                    }
                }
            }
        }
    }

    // ---------------------------------------------------------------- request/reply with upcalls

    private static final PortType REQUESTS = new PortType(PortType.COMMUNICATION_RELIABLE,
            PortType.SERIALIZATION_OBJECT, PortType.RECEIVE_AUTO_UPCALLS, PortType.CONNECTION_MANY_TO_ONE);
    private static final PortType REPLIES = new PortType(PortType.COMMUNICATION_RELIABLE,
            PortType.SERIALIZATION_OBJECT, PortType.RECEIVE_EXPLICIT, PortType.CONNECTION_ONE_TO_ONE);

    /** A server answering "square this" requests from an upcall, replying after finish(). */
    private static Object requestReplyMember(Properties props, int clients, int requests) throws Exception {
        Ibis ibis = IbisFactory.createIbis(HELLO_CAPS, props, true, null, REQUESTS, REPLIES);
        try {
            IbisIdentifier server = ibis.registry().elect("Server");
            if (server.equals(ibis.identifier())) {
                Map<ReceivePortIdentifier, SendPort> replyPorts = new HashMap<>();
                int[] served = new int[1];
                ReceivePort rp = ibis.createReceivePort(REQUESTS, "requests", m -> {
                    ReceivePortIdentifier replyTo = (ReceivePortIdentifier) m.readObject();
                    long x = m.readLong();
                    m.finish(); // from here on the upcall may block without holding the port
                    SendPort reply;
                    synchronized (replyPorts) {
                        reply = replyPorts.get(replyTo);
                        if (reply == null) {
                            reply = ibis.createSendPort(REPLIES);
                            reply.connect(replyTo);
                            replyPorts.put(replyTo, reply);
                        }
                    }
                    synchronized (reply) {
                        WriteMessage w = reply.newMessage();
                        w.writeLong(x * x);
                        w.finish();
                    }
                    synchronized (served) {
                        served[0]++;
                        served.notifyAll();
                    }
                });
                rp.enableConnections();
                rp.enableMessageUpcalls();
                synchronized (served) {
                    while (served[0] < clients * requests) {
                        served.wait();
                    }
                }
                synchronized (replyPorts) {
                    for (SendPort sp : replyPorts.values()) {
                        sp.close();
                    }
                }
                return "served " + served[0];
            }
            ReceivePort replies = ibis.createReceivePort(REPLIES, "replies");
            replies.enableConnections();
            SendPort sp = ibis.createSendPort(REQUESTS);
            sp.connect(server, "requests");
            long sum = 0;
            for (int i = 1; i <= requests; i++) {
                WriteMessage w = sp.newMessage();
                w.writeObject(replies.identifier());
                w.writeLong(i);
                w.finish();
                ReadMessage r = replies.receive();
                long sq = r.readLong();
                r.finish();
                if (sq != (long) i * i) {
                    throw new AssertionError("reply " + sq + " to " + i);
                }
                sum += sq;
            }
            sp.close();
            return sum;
        } finally {
            ibis.end();
        }
    }

    @Test(timeOut = 120_000)
    public void aRequestReplyServerAnsweringFromUpcallsServesSeveralClients() throws Exception {
        int clients = 3;
        int requests = 30;
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            List<Object> results = runMembers(clients + 1,
                    i -> () -> requestReplyMember(pool.properties(), clients, requests));
            long expectedSum = 0;
            for (int i = 1; i <= requests; i++) {
                expectedSum += (long) i * i;
            }
            int servers = 0;
            for (Object r : results) {
                if (r instanceof String) {
                    servers++;
                    assertEquals(r, "served " + clients * requests);
                } else {
                    assertEquals(r, expectedSum);
                }
            }
            assertEquals(servers, 1);
        }
    }

    // ---------------------------------------------------------------- master/worker, closed world

    private static final PortType TO_MASTER = new PortType(PortType.COMMUNICATION_RELIABLE,
            PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT, PortType.CONNECTION_MANY_TO_ONE,
            PortType.COMMUNICATION_FIFO);
    private static final PortType TO_WORKERS = new PortType(PortType.COMMUNICATION_RELIABLE,
            PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT, PortType.CONNECTION_ONE_TO_MANY,
            PortType.COMMUNICATION_FIFO);
    private static final IbisCapabilities POOL_CAPS = new IbisCapabilities(IbisCapabilities.CLOSED_WORLD,
            IbisCapabilities.ELECTIONS_STRICT, IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED,
            IbisCapabilities.TERMINATION);

    /**
     * Master multicasts the data and the list of workers; each worker sums its share (the indexes
     * equal to its place in the list, modulo the number of workers) and sends it back over the
     * many-to-one port; the master adds the parts. Returns the total at the master, -1 at workers.
     */
    private static long masterWorker(Properties props, int size) throws Exception {
        Ibis ibis = IbisFactory.createIbis(POOL_CAPS, props, true, null, TO_MASTER, TO_WORKERS);
        try {
            ibis.registry().waitUntilPoolClosed();
            IbisIdentifier master = ibis.registry().elect("master");
            int n = ibis.registry().getPoolSize();
            if (master.equals(ibis.identifier())) {
                ReceivePort results = ibis.createReceivePort(TO_MASTER, "results");
                results.enableConnections();
                List<IbisIdentifier> workers = new ArrayList<>();
                for (int i = 0; i < n - 1; i++) {
                    ReadMessage r = results.receive();
                    SendPortIdentifier origin = r.origin();
                    assertEquals(r.readString(), "ready");
                    r.finish();
                    workers.add(origin.ibisIdentifier());
                }
                SendPort multicast = ibis.createSendPort(TO_WORKERS);
                for (IbisIdentifier w : workers) {
                    multicast.connect(w, "tasks");
                }
                double[] data = new double[size];
                for (int i = 0; i < data.length; i++) {
                    data[i] = i;
                }
                WriteMessage w = multicast.newMessage();
                w.writeInt(workers.size());
                for (IbisIdentifier id : workers) {
                    w.writeString(id.name());
                }
                w.writeArray(data);
                w.finish();
                double total = 0;
                for (int i = 0; i < workers.size(); i++) {
                    ReadMessage r = results.receive();
                    total += r.readDouble();
                    r.finish();
                }
                multicast.close();
                ibis.registry().terminate();
                results.close();
                return (long) total;
            }
            ReceivePort tasks = ibis.createReceivePort(TO_WORKERS, "tasks");
            tasks.enableConnections();
            SendPort toMaster = ibis.createSendPort(TO_MASTER);
            toMaster.connect(master, "results");
            WriteMessage ready = toMaster.newMessage();
            ready.writeString("ready");
            ready.finish();
            ReadMessage r = tasks.receive();
            int workers = r.readInt();
            int rank = -1;
            for (int i = 0; i < workers; i++) {
                if (r.readString().equals(ibis.identifier().name())) {
                    rank = i;
                }
            }
            double[] data = new double[size];
            r.readArray(data);
            r.finish();
            if (rank < 0) {
                throw new AssertionError("worker not in the master's list");
            }
            double part = 0;
            for (int i = rank; i < data.length; i += workers) {
                part += data[i];
            }
            WriteMessage w = toMaster.newMessage();
            w.writeDouble(part);
            w.finish();
            toMaster.close();
            assertEquals(ibis.registry().waitUntilTerminated(), master);
            tasks.close();
            return -1;
        } finally {
            ibis.end();
        }
    }

    @Test(timeOut = 120_000)
    public void aClosedWorldMasterWorkerPoolOfFourUsesMulticastAndManyToOne() throws Exception {
        int n = 4;
        int size = 100_000;
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            List<Long> results = runMembers(n, i -> () -> masterWorker(pool.properties(n), size));
            long expected = (long) size * (size - 1) / 2;
            int masters = 0;
            for (long r : results) {
                if (r >= 0) {
                    masters++;
                    assertEquals(r, expected, "the master's total");
                }
            }
            assertEquals(masters, 1);
        }
    }
}
