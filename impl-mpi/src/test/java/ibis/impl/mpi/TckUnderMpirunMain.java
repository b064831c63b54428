package ibis.impl.mpi;

import ibis.ipl.tck.ClassicProgramTest;
import ibis.ipl.tck.ConnectionContractTest;
import ibis.ipl.tck.FailureContractTest;
import ibis.ipl.tck.Ipl2CompatibilityTest;
import ibis.ipl.tck.MessageContractTest;
import ibis.ipl.tck.PortTypeContractTest;
import ibis.ipl.tck.RegistryContractTest;
import ibis.ipl.tck.SerializationContractTest;
import ibis.ipl.tck.TransportRulesTest;

import org.testng.TestListenerAdapter;
import org.testng.TestNG;

/**
 * Runs the IPL conformance suite over {@code mpi} inside a rank started by {@code mpirun} (the
 * backend chosen by {@code -Dibis.mpi.backend}), with {@link MpiTckExclusions}; prints
 * {@code tck passed=N failed=M skipped=K} and exits with 0 only when nothing failed or was skipped.
 */
public final class TckUnderMpirunMain {

    private TckUnderMpirunMain() {
    }

    /** Runs the suite and exits. */
    public static void main(String[] args) {
        System.setProperty("ibis.implementation", "mpi");
        TestNG testng = new TestNG();
        testng.setUseDefaultListeners(false);
        testng.setVerbose(0);
        testng.setTestClasses(new Class<?>[] {ClassicProgramTest.class, ConnectionContractTest.class,
            FailureContractTest.class, Ipl2CompatibilityTest.class, MessageContractTest.class,
            PortTypeContractTest.class, RegistryContractTest.class, SerializationContractTest.class,
            TransportRulesTest.class});
        TestListenerAdapter results = new TestListenerAdapter();
        testng.addListener(results);
        testng.addListener(new MpiTckExclusions(true));
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
        System.exit(failed == 0 && skipped == 0 && passed > 0 ? 0 : 1);
    }
}
