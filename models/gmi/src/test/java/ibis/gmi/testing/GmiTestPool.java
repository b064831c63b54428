package ibis.gmi.testing;

import ibis.testsupport.ChildJvm;
import ibis.testsupport.PoolFixture;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A GMI pool of child JVMs ({@link GmiPeer}) around an embedded registry server in the test JVM;
 * the test JVM itself is no member. Closing it kills the children and stops the server. The
 * implementation is tcp unless the system property {@value #IMPLEMENTATION} names another (the build
 * runs the multi-process tests over ucx too: models/gmi/pom.xml).
 */
public final class GmiTestPool implements AutoCloseable {

    /** The system property naming the implementation of the pool (default tcp). */
    public static final String IMPLEMENTATION = "ibis.implementation";

    private final PoolFixture pool;
    private final List<ChildJvm> children = new ArrayList<>();

    /** Starts {@code size} processes, each running {@link GmiPeer} with {@code args}. */
    public GmiTestPool(int size, String... args) throws IOException {
        pool = new PoolFixture(implementation());
        for (int i = 0; i < size; i++) {
            children.add(ChildJvm.startPeer(List.of("-Xmx128m", "-XX:TieredStopAtLevel=1",
                    "-Dibis.server.address=" + pool.serverAddress(), "-Dibis.pool.name=" + pool.poolName(),
                                        "-Dibis.pool.size=" + size, "-Dibis.implementation=" + pool.implementation(),
                    "-Dibis.gmi.connect.timeout=30000",
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"), GmiPeer.class, args));
        }
    }

    /** The implementation the pools of this test JVM use: {@value #IMPLEMENTATION}, default tcp. */
    public static String implementation() {
        return System.getProperty(IMPLEMENTATION, "tcp");
    }

    /** The children, in start order (not rank order). */
    public List<ChildJvm> children() {
        return children;
    }

    @Override
    public void close() {
        for (ChildJvm c : children) {
            c.close();
        }
        pool.close();
    }
}
