package ibis.rmi.testing;

import ibis.rmi.registry.LocateRegistry;
import ibis.rmi.registry.Registry;
import ibis.testsupport.ChildJvm;
import ibis.testsupport.PoolFixture;

import java.io.IOException;
import java.util.List;

/**
 * The Ibis RMI set-up of the tests: one pool for the whole test JVM, whose server address and pool
 * name are set as system properties before Ibis RMI starts here; the test JVM serves the default
 * RMI registry (so a killed child never takes it along). ChildJvm JVMs ({@link RmiPeer}) join the same
 * pool. The implementation is tcp unless the system property {@value #IMPLEMENTATION} names another
 * (the build runs the multi-process tests over ucx too: models/rmi/pom.xml).
 */
public final class RmiTestPool {

    /** The system property naming the implementation of the pool (default tcp). */
    public static final String IMPLEMENTATION = "ibis.implementation";

    private static PoolFixture pool;

    private RmiTestPool() {
    }

    /** Starts the pool (once per JVM) and this JVM's RMI, which serves the default registry. */
    public static synchronized void start() throws IOException {
        if (pool != null) {
            return;
        }
        pool = new PoolFixture(System.getProperty(IMPLEMENTATION, "tcp"));
        System.setProperty("ibis.server.address", pool.serverAddress());
        System.setProperty("ibis.pool.name", pool.poolName());
        System.setProperty("ibis.implementation", pool.implementation());
        System.setProperty("ibis.rmi.connect.timeout", "5000");
        System.setProperty("ibis.rmi.registry.timeout", "3000");
        LocateRegistry.createRegistry(Registry.REGISTRY_PORT);
    }

    /** A child JVM of the pool running {@link RmiPeer} with the given arguments. */
    public static ChildJvm startChild(String... args) throws IOException {
        return ChildJvm.startPeer(List.of("-Xmx256m", "-Dibis.server.address=" + pool.serverAddress(),
                "-Dibis.pool.name=" + pool.poolName(), "-Dibis.implementation=" + pool.implementation(),
                "-Dibis.rmi.connect.timeout=5000", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"),
                RmiPeer.class, args);
    }
}
