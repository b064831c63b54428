package ibis.benchmarks.ipl;

import ibis.benchmarks.ChildProcesses;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * The ipl suite's 1-byte round trips (explicit receive, and upcalls on both sides) over the
 * implementation the suites measure ({@code ibis.implementation}, default tcp) for
 * another suite that reports beside them (the rmi suite's null-RMI / IPL round-trip ratio): the
 * same peer JVM ({@link IplBenchPeer}) and the same driver code ({@link IbisDriver}) as the ipl
 * suite, in a pool of its own on a registry server the caller runs.
 */
public final class IplRoundTrips implements AutoCloseable {

    private final Process peer;
    private final IbisDriver ibis;
    private final Workload explicit;
    private final Workload upcalls;

    /**
     * Starts the peer JVM and this JVM's Ibis.
     *
     * @param registryServer the address of a running registry server
     * @param pool a pool name used by nobody else
     * @throws Exception when the peer or the Ibis instance cannot start
     */
    public IplRoundTrips(String registryServer, String pool) throws Exception {
        String implementation = ChildProcesses.implementation();
        Process p = IplSuite.startPeer(registryServer, pool, implementation);
        try {
            IplSuite.awaitReady(p);
            ibis = new IbisDriver(registryServer, pool, implementation);
        } catch (Exception | Error e) {
            p.destroyForcibly();
            throw e;
        }
        peer = p;
        explicit = ibis.explicitPingPong();
        upcalls = ibis.upcallPingPong();
    }

    /** @return a description of the Ibis implementation, for reports */
    public String implementation() {
        return ibis.implementationDescription();
    }

    /**
     * Runs {@code n} round trips with explicit receive on both sides (each echo is checked).
     *
     * @param n round trips
     * @throws IOException when a round trip fails or echoes the wrong byte
     * @throws InterruptedException when interrupted
     */
    public void explicitRoundTrips(int n) throws IOException, InterruptedException {
        explicit.run(n);
    }

    /**
     * Runs {@code n} round trips driven by upcalls on both sides (each echo is checked).
     *
     * @param n round trips
     * @throws IOException when a round trip fails or echoes the wrong byte
     * @throws InterruptedException when interrupted
     */
    public void upcallRoundTrips(int n) throws IOException, InterruptedException {
        upcalls.run(n);
    }

    /** Ends the Ibis instance and the peer JVM. */
    @Override
    public void close() throws IOException {
        try {
            IplSuite.closeBounded(ibis);
            peer.getOutputStream().close();
            if (!peer.waitFor(15, TimeUnit.SECONDS)) {
                peer.destroyForcibly();
            }
        } catch (InterruptedException e) {
            peer.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
