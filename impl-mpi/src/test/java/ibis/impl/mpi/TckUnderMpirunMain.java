package ibis.impl.mpi;

import ibis.ipl.tck.ClassicProgramTest;
import ibis.ipl.tck.ConnectionContractTest;
import ibis.ipl.tck.FailureContractTest;
import ibis.ipl.tck.ImplementationUnderTest;
import ibis.ipl.tck.Ipl2CompatibilityTest;
import ibis.ipl.tck.MessageContractTest;
import ibis.ipl.tck.PortTypeContractTest;
import ibis.ipl.tck.RegistryContractTest;
import ibis.ipl.tck.SerializationContractTest;
import ibis.ipl.tck.TransportRulesTest;
import ibis.testsupport.HostedPeers;
import ibis.testsupport.PeerHost;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;

import org.testng.TestListenerAdapter;
import org.testng.TestNG;

/**
 * Runs the IPL conformance suite over {@code mpi} in a job started by {@code mpirun} (the backend
 * chosen by {@code -Dibis.mpi.backend}), with {@link MpiTckExclusions}. With one rank the suite's
 * multi-process tests are left out. With two, rank 0 runs the suite and rank 1 a {@link PeerHost}
 * that runs those tests' peers ({@link ImplementationUnderTest#hostPeersIn}), so that their traffic
 * crosses ranks; the ranks talk through the named pipes {@value #COMMANDS} and {@value #EVENTS} in
 * the folder {@code -Dibis.tck.peer.fifos} (made by the test with {@code mkfifo}; opening a pipe
 * waits for the other side, so neither rank polls for the other). Rank 0 prints
 * {@code tck passed=N failed=M skipped=K} and exits with 0 only when nothing failed or was skipped.
 */
public final class TckUnderMpirunMain {

    /** The named pipe of the commands to the peer host, in the folder {@link #FIFOS_PROPERTY}. */
    static final String COMMANDS = "commands";
    /** The named pipe of the peer host's events. */
    static final String EVENTS = "events";
    /** System property: the folder of the named pipes (needed with two ranks). */
    static final String FIFOS_PROPERTY = "ibis.tck.peer.fifos";

    private TckUnderMpirunMain() {
    }

    /** Runs the suite (rank 0) or the peer host (rank 1) and exits. */
    public static void main(String[] args) throws Exception {
        System.setProperty("ibis.implementation", "mpi");
        // Both ranks initialize MPI at once (MPI_Init waits for every rank of the job).
        MpiProcess mpi = MpiProcess.get(null);
        if (mpi.size() > 2) {
            throw new IllegalStateException("run with 1 or 2 ranks, not " + mpi.size());
        }
        HostedPeers peers = null;
        if (mpi.size() == 2) {
            Path fifos = Path.of(System.getProperty(FIFOS_PROPERTY, "."));
            if (mpi.rank() == 1) {
                try (InputStream commands = new FileInputStream(fifos.resolve(COMMANDS).toFile());
                        OutputStream events = new FileOutputStream(fifos.resolve(EVENTS).toFile())) {
                    PeerHost.serve(commands, events);
                }
                System.out.println("peer host done");
                System.out.flush();
                System.exit(0);
            }
            OutputStream commands = new FileOutputStream(fifos.resolve(COMMANDS).toFile());
            InputStream events = new FileInputStream(fifos.resolve(EVENTS).toFile());
            peers = new HostedPeers(events, commands);
            ImplementationUnderTest.hostPeersIn(peers);
        }
        int status = runSuite(peers != null);
        if (peers != null) {
            peers.close();
        }
        System.exit(status);
    }

    private static int runSuite(boolean hostedPeers) {
        TestNG testng = new TestNG();
        testng.setUseDefaultListeners(false);
        testng.setVerbose(0);
        testng.setTestClasses(new Class<?>[] {ClassicProgramTest.class, ConnectionContractTest.class,
            FailureContractTest.class, Ipl2CompatibilityTest.class, MessageContractTest.class,
            PortTypeContractTest.class, RegistryContractTest.class, SerializationContractTest.class,
            TransportRulesTest.class});
        TestListenerAdapter results = new TestListenerAdapter();
        testng.addListener(results);
        testng.addListener(new MpiTckExclusions(hostedPeers ? MpiTckExclusions.Run.PEERS_IN_RANK_1
                : MpiTckExclusions.Run.ONE_RANK));
        testng.run();
        results.getFailedTests().forEach(r -> {
            System.out.println("FAILED " + r.getTestClass().getRealClass().getSimpleName() + "." + r.getName()
                    + ": " + r.getThrowable());
        });
        int passed = results.getPassedTests().size();
        int failed = results.getFailedTests().size() + results.getConfigurationFailures().size();
        int skipped = results.getSkippedTests().size();
        System.out.println("tck passed=" + passed + " failed=" + failed + " skipped=" + skipped);
        System.out.flush();
        return failed == 0 && skipped == 0 && passed > 0 ? 0 : 1;
    }
}
