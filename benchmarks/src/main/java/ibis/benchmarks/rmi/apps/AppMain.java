package ibis.benchmarks.rmi.apps;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.rmi.NotBoundException;
import java.rmi.Remote;
import java.rmi.RemoteException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RMISocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One process (rank) of a parallel RMI application run:
 * {@code AppMain <app>[,<app>...]|all <rank> <size> <registryPort> test|quick|full}.
 *
 * <p>Rank 0 creates the RMI registry on the port; every rank binds its remote objects there
 * ({@code ctl-<rank>}, and per round {@code <app>@<round>-<rank>}) and looks up the others'. Per
 * application round: a barrier, bind and look-ups, a barrier (RMI, served by rank 0), the timed
 * parallel part, a barrier, then rank 0 verifies and prints
 * {@code RESULT <app> procs=<n> verified=<true|false> millis=<ms>} (the parallel part at rank 0,
 * from the barrier until the whole result is there). Sizes {@code quick} and {@code full} are
 * preceded by an untimed warm-up round of the same application at size {@code quick}, so that the
 * JIT has compiled the kernels and the RMI paths. At the end rank 0 tells the others to quit;
 * every process exits with status 0 when all results were verified, else 1.
 *
 * <p>Only {@code java.rmi} is used, and only what Ibis RMI also has, so the same classes run on
 * the JDK's RMI and, rewritten by {@code ibisc --java-rmi}, on Ibis RMI. On the JDK's RMI all
 * sockets are on loopback (a socket factory binds the listening sockets to 127.0.0.1).
 */
public final class AppMain {

    /** The applications, in the order {@code all} runs them. */
    public static final List<String> APPS = List.of("hamming", "paraffins", "sor", "asp", "radix", "fft", "water");

    /** Longest wait for any one message or barrier (property {@code ibis.benchmarks.rmi.apps.timeout}, ms). */
    static final long TIMEOUT_MILLIS = Long.getLong("ibis.benchmarks.rmi.apps.timeout", 120_000L);

    /** Longest time to find the registry and the peers' objects. */
    private static final long LOOKUP_MILLIS = 30_000L;

    private final int rank;
    private final int size;
    private final int port;
    private final Problem problem;

    private AppMain(int rank, int size, int port, Problem problem) {
        this.rank = rank;
        this.size = size;
        this.port = port;
        this.problem = problem;
    }

    /**
     * Runs one rank; exits the JVM (RMI threads would keep it alive).
     *
     * @param args app list, rank, size, registry port, problem size
     */
    public static void main(String[] args) {
        List<String> apps;
        AppMain main;
        try {
            if (args.length != 5) {
                throw new IllegalArgumentException("expected 5 arguments");
            }
            apps = args[0].equals("all") ? APPS : List.of(args[0].split(","));
            for (String a : apps) {
                if (!APPS.contains(a)) {
                    throw new IllegalArgumentException("unknown application " + a);
                }
            }
            int rank = Integer.parseInt(args[1]);
            int size = Integer.parseInt(args[2]);
            if (size < 1 || rank < 0 || rank >= size) {
                throw new IllegalArgumentException("rank " + rank + " of " + size);
            }
            main = new AppMain(rank, size, Integer.parseInt(args[3]), Problem.parse(args[4]));
        } catch (IllegalArgumentException e) {
            System.err.println("AppMain: " + e.getMessage());
            System.err.println(
                    "usage: AppMain <app>[,<app>...]|all <rank> <size> <registryPort> test|quick|full; apps: "
                    + String.join(" ", APPS));
            System.exit(2);
            return;
        }
        int status;
        try {
            status = main.runAll(apps) ? 0 : 1;
        } catch (Throwable t) {
            System.err.println("AppMain rank " + main.rank + " failed: " + t);
            t.printStackTrace();
            status = 1;
        }
        System.out.flush();
        System.err.flush();
        System.exit(status);
    }

    /** Creates one rank's node of an application (generates its input and exports it). */
    static AppNode create(String app, int rank, int size, Problem problem) throws RemoteException {
        switch (app) {
            case "hamming":
                return new Hamming(rank, size, problem);
            case "paraffins":
                return new Paraffins(rank, size, problem);
            case "sor":
                return new Sor(rank, size, problem);
            case "asp":
                return new Asp(rank, size, problem);
            case "radix":
                return new Radix(rank, size, problem);
            case "fft":
                return new Fft(rank, size, problem);
            case "water":
                return new Water(rank, size, problem);
            default:
                throw new IllegalArgumentException("unknown application " + app);
        }
    }

    private boolean runAll(List<String> apps) throws Exception {
        if (System.getProperty("java.rmi.server.hostname") == null) {
            System.setProperty("java.rmi.server.hostname", "127.0.0.1");
        }
        if (RMISocketFactory.getSocketFactory() == null) {
            RMISocketFactory.setSocketFactory(new LoopbackSockets());
        }
        Registry registry = rank == 0 ? LocateRegistry.createRegistry(port)
                : retry("the RMI registry on port " + port, () -> LocateRegistry.getRegistry("127.0.0.1", port));
        ControlNode control = new ControlNode(size);
        bind(registry, "ctl-" + rank, control);
        Remote[] controls = lookupAll(registry, "ctl-", control);
        Control coordinator = (Control) controls[0];
        boolean allVerified = true;
        int epoch = 0;
        for (String app : apps) {
            if (problem != Problem.TEST) {
                // Untimed warm-up round (JIT of the kernels, the RMI and serialization paths).
                epoch = round(registry, coordinator, app + "-warm", create(app, rank, size, Problem.QUICK), epoch);
            }
            AppNode node = create(app, rank, size, problem);
            epoch = round(registry, coordinator, app, node, epoch);
            long millis = (node.finished - node.started) / 1_000_000L;
            if (rank == 0) {
                boolean verified = node.verify();
                allVerified &= verified;
                System.out.println("RESULT " + app + " procs=" + size + " verified=" + verified + " millis=" + millis);
                System.out.flush();
            }
        }
        // Every rank has unbound its last round's name: rank 0's registry may go away after this.
        coordinator.barrier(epoch);
        if (rank != 0) {
            return control.awaitQuit();
        }
        for (int r = 1; r < size; r++) {
            try {
                ((Control) controls[r]).quit(allVerified);
            } catch (RemoteException e) {
                // The worker may exit before its reply is out; it has had the message.
            }
        }
        return allVerified;
    }

    /**
     * One round of an application: barrier, bind, look up the peers, open the connections, barrier,
     * the timed parallel part (times kept in the node), barrier, unexport and unbind. Returns the
     * next barrier epoch.
     */
    private int round(Registry registry, Control coordinator, String name, AppNode node, int epoch) throws Exception {
        // Rank 0 may still be verifying the previous application (seconds for the full sizes): wait
        // for it here rather than in the registry look-ups, whose time limit is short.
        coordinator.barrier(epoch);
        // Names unique per round: a name of an earlier round of the same application may still be
        // bound when a peer looks it up.
        String prefix = name + "@" + epoch + "-";
        bind(registry, prefix + rank, node);
        Remote[] found = lookupAll(registry, prefix, node);
        AppPeer[] peers = new AppPeer[size];
        for (int r = 0; r < size; r++) {
            peers[r] = (AppPeer) found[r];
            if (r != rank) {
                peers[r].ping();
            }
        }
        node.connect(peers);
        coordinator.barrier(epoch + 1);
        node.started = System.nanoTime();
        node.run();
        node.finished = System.nanoTime();
        // After this barrier no rank calls this round's nodes any more.
        coordinator.barrier(epoch + 2);
        UnicastRemoteObject.unexportObject(node, true);
        registry.unbind(prefix + rank);
        return epoch + 3;
    }

    /** Binds (rebinds, so a retried call is harmless) a name, retrying until the registry exists. */
    private static void bind(Registry registry, String name, Remote object) throws Exception {
        retry("binding " + name, () -> {
            registry.rebind(name, object);
            return name;
        });
    }

    /** Looks up {@code prefix<r>} for every rank r; at this rank the local object. */
    private Remote[] lookupAll(Registry registry, String prefix, Remote self) throws Exception {
        Remote[] found = new Remote[size];
        for (int r = 0; r < size; r++) {
            String name = prefix + r;
            found[r] = r == rank ? self : retry("looking up " + name, () -> registry.lookup(name));
        }
        return found;
    }

    /** One attempt of a registry operation. */
    private interface Attempt<T> {
        T run() throws RemoteException, NotBoundException;
    }

    /**
     * Retries a registry operation that fails because rank 0 or a peer has not got that far yet,
     * with a short growing pause between attempts, for at most {@link #LOOKUP_MILLIS}.
     */
    private static <T> T retry(String what, Attempt<T> attempt) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + LOOKUP_MILLIS * 1_000_000L;
        long pause = 10;
        while (true) {
            try {
                return attempt.run();
            } catch (RemoteException | NotBoundException e) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("gave up " + what + " after " + LOOKUP_MILLIS + " ms", e);
                }
                Thread.sleep(pause);
                pause = Math.min(200, pause * 2);
            }
        }
    }

    /** A process's {@link Control}: the barrier (used at rank 0) and the quit message (at the others). */
    static final class ControlNode extends UnicastRemoteObject implements Control {

        private static final long serialVersionUID = 1L;

        private final int size;
        private final transient Map<Integer, Integer> arrived = new HashMap<>();
        private int released = -1;
        private final transient CountDownLatch quit = new CountDownLatch(1);
        private volatile boolean verified;

        ControlNode(int size) throws RemoteException {
            super();
            this.size = size;
        }

        @Override
        public synchronized void barrier(int epoch) throws RemoteException {
            if (arrived.merge(epoch, 1, Integer::sum) == size) {
                arrived.remove(epoch);
                released = Math.max(released, epoch);
                notifyAll();
                return;
            }
            long deadline = System.nanoTime() + TIMEOUT_MILLIS * 1_000_000L;
            try {
                while (released < epoch) {
                    long left = (deadline - System.nanoTime()) / 1_000_000L;
                    if (left <= 0) {
                        throw new RemoteException("barrier " + epoch + ": only " + arrived.get(epoch) + " of " + size
                                + " ranks arrived in time");
                    }
                    wait(left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RemoteException("interrupted in barrier " + epoch, e);
            }
        }

        @Override
        public void quit(boolean allVerified) {
            verified = allVerified;
            quit.countDown();
        }

        /** Waits for rank 0's quit; returns whether it came and everything was verified. */
        boolean awaitQuit() throws InterruptedException {
            return quit.await(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS) && verified;
        }
    }

    /** The JDK RMI's sockets, listening on loopback only. */
    static final class LoopbackSockets extends RMISocketFactory {
        @Override
        public Socket createSocket(String host, int port) throws IOException {
            return new Socket(host, port);
        }

        @Override
        public ServerSocket createServerSocket(int port) throws IOException {
            return new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
        }
    }
}
