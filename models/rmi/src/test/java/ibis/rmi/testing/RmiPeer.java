package ibis.rmi.testing;

import ibis.rmi.Naming;
import ibis.rmi.server.UnicastRemoteObject;
import ibis.testsupport.PeerMain;

import java.rmi.Remote;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A child JVM of the multi-process tests (a {@link PeerMain} role, started by
 * {@link RmiTestPool#startChild}).
 * <ul>
 * <li>{@code server NAME}: exports an {@link EchoImpl}, binds it as NAME, prints {@code READY}, and
 * serves until its standard input closes.</li>
 * <li>{@code registry PORT NAME}: serves RMI registry PORT, binds an {@link EchoImpl} there as NAME.</li>
 * <li>{@code tally-server NAME}: binds a tally (package-private remote interface) starting at 10 as NAME
 * and a ledger (public interface, package-private parameter class) as NAME-ledger.</li>
 * <li>{@code hold NAME}: calls {@code hold(5)} on NAME (the test kills it during the call).</li>
 * <li>{@code client NAME ID THREADS CALLS}: looks NAME up, and THREADS threads each make CALLS calls
 * of {@code work}, checking every reply; prints {@code OK total} or {@code FAILED reason}.</li>
 * </ul>
 */
public final class RmiPeer implements PeerMain.Role {

    @Override
    public void run(String[] args) throws Exception {
        if (args[0].equals("server")) {
            Remote stub = UnicastRemoteObject.exportObject(new EchoImpl());
            Naming.rebind("//localhost/" + args[1], stub);
            PeerMain.say("READY " + ProcessHandle.current().pid());
            PeerMain.stayUntilParentGoes();
        } else if (args[0].equals("registry")) {
            ibis.rmi.registry.Registry registry = ibis.rmi.registry.LocateRegistry.createRegistry(
                    Integer.parseInt(args[1]));
            registry.bind(args[2], UnicastRemoteObject.exportObject(new EchoImpl()));
            PeerMain.say("READY " + ProcessHandle.current().pid());
            PeerMain.stayUntilParentGoes();
        } else if (args[0].equals("tally-server")) {
            TallyUse.serve("//localhost/" + args[1], 10);
            TallyUse.serveLedger("//localhost/" + args[1] + "-ledger");
            PeerMain.say("READY " + ProcessHandle.current().pid());
            PeerMain.stayUntilParentGoes();
        } else if (args[0].equals("hold")) {
            Echo echo = (Echo) Naming.lookup(args[1]);
            PeerMain.say("CALLING");
            PeerMain.say("RESULT " + echo.hold(5));
        } else {
            client(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
        }
    }

    private static void client(String name, int id, int threads, int calls) throws Exception {
        Echo echo = (Echo) Naming.lookup("//localhost/" + name);
        PeerMain.say("OK " + checkedCalls(echo, id, threads, calls));
    }

    /**
     * {@code threads} threads each make {@code calls} calls of {@code work} on {@code echo} (as clients
     * {@code id * 100 + t}), checking every reply.
     *
     * @return the number of checked calls
     * @throws AssertionError when a reply was wrong or a call failed (the first failure as cause)
     */
    public static long checkedCalls(Echo echo, int id, int threads, int calls) throws InterruptedException {
        AtomicLong checked = new AtomicLong();
        List<Throwable> failures = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int client = id * 100 + t;
            Thread w = new Thread(() -> {
                try {
                    for (int i = 0; i < calls; i++) {
                        byte[] data = new byte[i % 64];
                        for (int k = 0; k < data.length; k++) {
                            data[k] = (byte) (client + k);
                        }
                        long got = echo.work(client, i, data);
                        long want = EchoImpl.expectedWork(client, i, data);
                        if (got != want) {
                            throw new AssertionError(
                                    "client " + client + " call " + i + ": got " + got + ", want " + want);
                        }
                        checked.incrementAndGet();
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            w.start();
            workers.add(w);
        }
        for (Thread w : workers) {
            w.join();
        }
        if (!failures.isEmpty()) {
            throw new AssertionError(failures.size() + " threads failed, first: " + failures.get(0), failures.get(0));
        }
        return checked.get();
    }
}
