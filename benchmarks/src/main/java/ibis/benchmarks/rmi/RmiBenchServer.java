package ibis.benchmarks.rmi;

import java.io.IOException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.UnicastRemoteObject;

/**
 * The server JVM of the rmi suite, a plain {@code java.rmi} program: {@code RmiBenchServer PORT NAME}
 * creates the registry on {@code PORT}, binds a {@link BenchServiceImpl} as {@code NAME}, prints
 * {@code READY} and serves until its standard input closes. Rewritten by {@code ibisc --java-rmi},
 * the same program serves over Ibis RMI, where {@code PORT} names one of the pool's registries.
 */
public final class RmiBenchServer {

    private RmiBenchServer() {
    }

    /** Serves until standard input closes. */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: RmiBenchServer <registry port> <name>");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        BenchServiceImpl impl = new BenchServiceImpl();
        BenchService stub = (BenchService) UnicastRemoteObject.exportObject(impl, 0);
        Registry registry = LocateRegistry.createRegistry(port);
        registry.rebind(args[1], stub);
        System.out.println("READY " + stub.getClass().getName());
        System.out.flush();
        while (System.in.read() >= 0) {
            // the driver closes our input when it is done
        }
        UnicastRemoteObject.unexportObject(impl, true);
        System.exit(0);
    }
}
