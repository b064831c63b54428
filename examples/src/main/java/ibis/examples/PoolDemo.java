package ibis.examples;

import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.ReceivePortConnectUpcall;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortIdentifier;
import ibis.ipl.WriteMessage;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The README's demo: a pool of N members counts the primes below a limit.
 *
 * <ol>
 * <li>All members join a closed-world pool and elect a master.</li>
 * <li>The master opens a many-to-one receive port "results"; every worker opens a receive port
 * "work" and then connects to "results". The master learns who the workers are from these
 * connections (a connection upcall).</li>
 * <li>The master multicasts one message over a one-to-many port to all workers: the limit and the
 * workers' names, in the order that decides each worker's share of the range.</li>
 * <li>Every worker counts and sums the primes in its share by trial division and sends both back
 * over the many-to-one port.</li>
 * <li>The master adds up the partial results, checks them against a sieve computed locally, and
 * prints the pool's result; it exits with status 1 if anything is wrong.</li>
 * </ol>
 *
 * <p>Run: {@code bin/ibis-run --np 4 ibis.examples.PoolDemo [limit]} (default limit 2,000,000).
 */
public final class PoolDemo {

    /** The master's multicast of the work description. */
    static final PortType WORK = new PortType(PortType.CONNECTION_ONE_TO_MANY,
            PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT, PortType.COMMUNICATION_RELIABLE);

    /** The workers' partial results, all into the master's one receive port. */
    static final PortType RESULTS = new PortType(PortType.CONNECTION_MANY_TO_ONE,
            PortType.SERIALIZATION_DATA, PortType.RECEIVE_EXPLICIT, PortType.CONNECTION_UPCALLS,
            PortType.COMMUNICATION_RELIABLE);

    static final IbisCapabilities CAPABILITIES = new IbisCapabilities(
            IbisCapabilities.CLOSED_WORLD, IbisCapabilities.ELECTIONS_STRICT);

    static final long DEFAULT_LIMIT = 2_000_000;

    /** How long the master waits for all workers to connect. */
    private static final long CONNECT_WAIT_SECONDS = 120;

    private PoolDemo() {
    }

    /** Runs one member; the master's exit status says whether the pool's result was right. */
    public static void main(String[] args) {
        long limit = args.length > 0 ? Long.parseLong(args[0]) : DEFAULT_LIMIT;
        try {
            Ibis ibis = IbisFactory.createIbis(CAPABILITIES, null, WORK, RESULTS);
            boolean ok;
            try {
                ibis.registry().waitUntilPoolClosed();
                IbisIdentifier master = ibis.registry().elect("master");
                int workers = ibis.registry().getPoolSize() - 1;
                if (master.equals(ibis.identifier())) {
                    ok = runMaster(ibis, workers, limit);
                } else {
                    ok = runWorker(ibis, master);
                }
            } finally {
                ibis.end();
            }
            System.exit(ok ? 0 : 1);
        } catch (Exception e) {
            System.err.println("PoolDemo failed: " + e);
            e.printStackTrace(System.err);
            System.exit(1);
        }
    }

    private static boolean runMaster(Ibis ibis, int workerCount, long limit) throws Exception {
        if (workerCount == 0) {
            PrimeTally all = PrimeTally.ofRange(2, limit);
            return report(all, limit, "the master alone");
        }
        // Workers announce themselves by connecting to "results"; remember them in arrival order.
        List<IbisIdentifier> workers = new ArrayList<>();
        CountDownLatch allConnected = new CountDownLatch(workerCount);
        ReceivePortConnectUpcall whoConnects = new ReceivePortConnectUpcall() {
            @Override
            public boolean gotConnection(ReceivePort receiver, SendPortIdentifier applicant) {
                synchronized (workers) {
                    workers.add(applicant.ibisIdentifier());
                }
                allConnected.countDown();
                return true;
            }

            @Override
            public void lostConnection(ReceivePort receiver, SendPortIdentifier origin, Throwable cause) {
                // Workers disconnect after sending their result; nothing to do.
            }
        };
        ReceivePort results = ibis.createReceivePort(RESULTS, "results", whoConnects);
        results.enableConnections();
        if (!allConnected.await(CONNECT_WAIT_SECONDS, TimeUnit.SECONDS)) {
            System.err.println("only " + (workerCount - allConnected.getCount()) + " of " + workerCount
                    + " workers connected");
            return false;
        }
        List<IbisIdentifier> order;
        synchronized (workers) {
            order = List.copyOf(workers);
        }

        // One multicast tells every worker the range and its place in it.
        SendPort work = ibis.createSendPort(WORK);
        Map<IbisIdentifier, String> ports = new LinkedHashMap<>();
        for (IbisIdentifier w : order) {
            ports.put(w, "work");
        }
        work.connect(ports);
        WriteMessage m = work.newMessage();
        m.writeLong(limit);
        m.writeInt(order.size());
        for (IbisIdentifier w : order) {
            m.writeString(w.name());
        }
        m.finish();
        work.close();

        // Collect one partial result per worker.
        PrimeTally total = new PrimeTally(0, 0);
        boolean[] reported = new boolean[order.size()];
        for (int i = 0; i < order.size(); i++) {
            ReadMessage r = results.receive();
            int share = r.readInt();
            long count = r.readLong();
            long sum = r.readLong();
            r.finish();
            if (share < 0 || share >= reported.length || reported[share]) {
                System.err.println("unexpected result for share " + share);
                return false;
            }
            reported[share] = true;
            total = total.plus(new PrimeTally(count, sum));
        }
        results.close();
        return report(total, limit, order.size() + " workers");
    }

    private static boolean report(PrimeTally total, long limit, String who) {
        PrimeTally expected = PrimeTally.bySieve(limit);
        boolean ok = total.equals(expected);
        System.out.println("Pool result: " + total.count() + " primes below " + limit + " (sum "
                + total.sum() + "), computed by " + who + ": "
                + (ok ? "correct" : "WRONG, expected " + expected.count() + " (sum " + expected.sum() + ")"));
        return ok;
    }

    private static boolean runWorker(Ibis ibis, IbisIdentifier master) throws IOException {
        ReceivePort work = ibis.createReceivePort(WORK, "work");
        work.enableConnections();
        SendPort results = ibis.createSendPort(RESULTS);
        results.connect(master, "results");

        ReadMessage m = work.receive();
        long limit = m.readLong();
        int workers = m.readInt();
        int share = -1;
        String me = ibis.identifier().name();
        for (int i = 0; i < workers; i++) {
            if (m.readString().equals(me)) {
                share = i;
            }
        }
        m.finish();
        if (share < 0) {
            System.err.println("the master did not give this worker a share");
            return false;
        }
        long from = shareStart(limit, workers, share);
        long to = shareStart(limit, workers, share + 1);
        PrimeTally mine = PrimeTally.ofRange(from, to);
        System.out.println("worker " + share + ": " + mine.count() + " primes in [" + from + ", " + to + ")");

        WriteMessage w = results.newMessage();
        w.writeInt(share);
        w.writeLong(mine.count());
        w.writeLong(mine.sum());
        w.finish();
        results.close();
        work.close();
        return true;
    }

    /** First number of share {@code k} of {@code n} equal parts of [2, limit). */
    static long shareStart(long limit, int n, int k) {
        long span = Math.max(0, limit - 2);
        return 2 + span * k / n;
    }
}
