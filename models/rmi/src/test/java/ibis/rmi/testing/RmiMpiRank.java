package ibis.rmi.testing;

import ibis.rmi.Naming;
import ibis.rmi.registry.LocateRegistry;
import ibis.rmi.registry.Registry;
import ibis.rmi.server.RemoteStub;
import ibis.rmi.server.UnicastRemoteObject;

import java.rmi.NoSuchObjectException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One rank of an {@code mpirun} job of Ibis RMI over {@code mpi} (the registry over MPI, no server;
 * started by {@code RmiUnderMpiTest}). Rank 0 serves the RMI registry, an {@link EchoImpl} bound as
 * {@value #NAME} and a {@link Collector}; rank 1 checks the RMI semantics across processes (values,
 * identity within a call, remote exceptions, remote objects as arguments and results in both
 * directions, unexporting); every further rank makes {@value #CALLS} calls from each of
 * {@value #THREADS} threads, checking every reply. Each client reports to rank 0, which prints
 * {@code RANK r: result} per client and then {@code RMI over mpi: N ranks OK} (or {@code FAILED}),
 * and every rank exits with 0 only when all of it held. Rank 0 ends only after every client's last
 * call ({@link Collector#done}), so that no report's reply is lost to its leaving.
 */
public final class RmiMpiRank {

    /** The name of the echo object in the registry. */
    public static final String NAME = "mpi-echo";
    /** Calling threads per load rank. */
    public static final int THREADS = 4;
    /** Calls per thread. */
    public static final int CALLS = 500;

    private RmiMpiRank() {
    }

    /** Runs one rank. */
    public static void main(String[] args) throws Exception {
        int rank = Integer.parseInt(System.getenv("OMPI_COMM_WORLD_RANK"));
        int size = Integer.parseInt(System.getenv("OMPI_COMM_WORLD_SIZE"));
        System.setProperty("ibis.pool.size", Integer.toString(size));
        try {
            if (rank == 0) {
                System.exit(serve(size) ? 0 : 1);
            }
            String result;
            try {
                result = rank == 1 ? semantics() : load(rank);
            } catch (Throwable e) {
                e.printStackTrace(System.out);
                result = "FAILED " + e;
            }
            Collector collector = (Collector) Naming.lookup("//localhost/" + NAME + "-collector");
            collector.report(rank, result);
            try {
                collector.done(rank);
            } catch (java.rmi.RemoteException e) {
                // Rank 0 may end before this call's reply: the report above was answered already.
            }
            System.out.flush();
            System.exit(result.startsWith("OK") ? 0 : 1);
        } catch (Throwable e) {
            System.out.println("RANK " + rank + " FAILED: " + e);
            e.printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
        }
    }

    private static boolean serve(int size) throws Exception {
        Registry registry = LocateRegistry.createRegistry(Registry.REGISTRY_PORT);
        registry.bind(NAME, UnicastRemoteObject.exportObject(new EchoImpl()));
        Map<Integer, String> results = new TreeMap<>();
        CountDownLatch all = new CountDownLatch(size - 1);
        CountDownLatch finished = new CountDownLatch(size - 1);
        Collector collector = new Collector() {
            @Override
            public void report(int rank, String result) {
                synchronized (results) {
                    results.put(rank, result);
                }
                all.countDown();
            }

            @Override
            public void done(int rank) {
                finished.countDown();
            }
        };
        registry.bind(NAME + "-collector", UnicastRemoteObject.exportObject(collector));
        boolean complete = all.await(150, TimeUnit.SECONDS) && finished.await(30, TimeUnit.SECONDS);
        boolean ok = complete;
        synchronized (results) {
            for (Map.Entry<Integer, String> e : results.entrySet()) {
                System.out.println("RANK " + e.getKey() + ": " + e.getValue());
                ok &= e.getValue().startsWith("OK");
            }
        }
        String verdict = ok ? "OK" : complete ? "FAILED" : "FAILED (missing reports)";
        System.out.println("RMI over mpi: " + size + " ranks " + verdict);
        System.out.flush();
        return ok;
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    private static String semantics() throws Exception {
        Echo echo = (Echo) Naming.lookup("//localhost/" + NAME);
        long serverPid = echo.pid();
        check(serverPid != ProcessHandle.current().pid(), "the call ran in another process");
        check(echo.echoLong(Long.MIN_VALUE) == Long.MIN_VALUE, "echoLong");
        double mixed = echo.mix(true, (byte) 1, 'a', (short) 2, 3, 4L, 0.5f, 0.25, "xy");
        check(mixed == 1 + 1 + 'a' + 2 + 3 + 4 + 0.5 + 0.25 + 2, "mix");
        Payload p = new Payload(1, "p", new long[] {1, 2});
        check(echo.same(p, p), "identity within a call");
        check(!echo.same(p, new Payload(1, "p", new long[] {1, 2})), "equal but distinct objects stay distinct");
        check(echo.mutate(p) == 101 && p.value == 1, "arguments are copies");
        Object[] t = echo.triple(p, "s");
        check(t[0] == t[2] && t[0].equals(p), "identity within a result");
        try {
            echo.fail("remote boom");
            check(false, "fail() threw nothing");
        } catch (TestFailure f) {
            check(f.getMessage().equals("remote boom"), "the remote exception's message");
            check(java.util.Arrays.stream(f.getStackTrace()).anyMatch(e -> e.getClassName().equals(
                    EchoImpl.class.getName()) && e.getMethodName().equals("fail")), "the remote stack trace");
        }
        try {
            echo.failRuntime("x");
            check(false, "failRuntime() threw nothing");
        } catch (IllegalStateException expected) {
            // the remote runtime exception, as thrown there
        }
        CallbackImpl mine = new CallbackImpl(100);
        check(echo.callBack(mine, 1) == 202, "a call back into this rank");
        Callback theirs = echo.newCallback(5);
        check(theirs instanceof RemoteStub && theirs.pid() == serverPid, "a remote object as result");
        check(theirs.call(1) == 6 && echo.callBack(theirs, 2) == 14, "calls on a returned remote object");
        Echo spawned = echo.spawn();
        check(spawned.retire(), "retire");
        try {
            spawned.ping();
            check(false, "a call on an unexported object succeeded");
        } catch (NoSuchObjectException expected) {
            // unexported at the server
        }
        check(echo.echoInt(8) == 8, "the other object still works");
        return "OK semantics";
    }

    private static String load(int rank) throws Exception {
        Echo echo = (Echo) Naming.lookup("//localhost/" + NAME);
        return "OK calls=" + RmiPeer.checkedCalls(echo, rank, THREADS, CALLS);
    }
}
