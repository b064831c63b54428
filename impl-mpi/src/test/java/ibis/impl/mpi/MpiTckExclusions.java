package ibis.impl.mpi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testng.IMethodInstance;
import org.testng.IMethodInterceptor;
import org.testng.ITestContext;

/**
 * Leaves out the conformance suite's tests that cannot run over {@code mpi} in one JVM, each with its
 * reason (logged when the suite starts). Every one of them has a child JVM as peer
 * ({@code ImplementationUnderTest.startPeer}): a child JVM is an MPI singleton of its own, not a rank
 * of this process' job, and MPI connects the ranks of one job only ({@link MpiTransport} refuses a
 * member of another job, {@code MpiContactDataTest}). The rest of the suite, including the
 * member-death test without connections, runs.
 */
public final class MpiTckExclusions implements IMethodInterceptor {

    private static final Logger LOG = LoggerFactory.getLogger(MpiTckExclusions.class);

    private static final String OTHER_JOB = "its peer is a child JVM, an MPI singleton outside this job";
    private static final String FAIL_STOP = OTHER_JOB + "; besides, MPI is fail-stop: a killed rank ends the job,"
            + " so a survivor never sees a killed peer";

    /** Test class simple name + "." + method name, and why it is left out. */
    static final Map<String, String> EXCLUDED = Map.of(
            "FailureContractTest.aKilledSenderGivesConnectionClosedToTheReaderOfItsMessageAndALostConnection",
            FAIL_STOP,
            "FailureContractTest.multicastKeepsDeliveringToTheOthersWhenAReceiverIsKilledAndReportsItAtFinish",
            FAIL_STOP,
            "FailureContractTest.anExplicitOneToOnePortReportsAKilledSenderWithoutAReceiveCall", FAIL_STOP,
            "Ipl2CompatibilityTest.anonymousReplyPortsAreReachedByTheirIdentifierFromAnotherProcessButNotByName",
            OTHER_JOB,
            "Ipl2CompatibilityTest.aHundredThousandLinkListTravelsOverSunSerializationAtTheDefaultStackSize",
            OTHER_JOB,
            "Ipl2CompatibilityTest.writeArrayOfObjectsReadWithReadObjectKeepsTheIdentitiesOfLaterReferences",
            OTHER_JOB);

    /**
     * Left out too when the suite runs inside a rank started by {@code mpirun}
     * ({@link TckUnderMpirunMain}): its child JVM inherits the launcher's environment and would start
     * as that rank once more, which makes the MPI job abort.
     */
    static final Map<String, String> EXCLUDED_UNDER_MPIRUN = Map.of(
            "FailureContractTest.aKilledMemberIsReportedDiedToEveryOtherMember",
            "its child JVM inherits mpirun's environment and would join the MPI job as the same rank again");

    private final boolean underMpirun;

    /** The exclusions for a suite run by Surefire in a JVM of its own (an MPI singleton). */
    public MpiTckExclusions() {
        this(false);
    }

    /** The exclusions, with those of a run inside an {@code mpirun} rank when {@code underMpirun}. */
    public MpiTckExclusions(boolean underMpirun) {
        this.underMpirun = underMpirun;
    }

    @Override
    public List<IMethodInstance> intercept(List<IMethodInstance> methods, ITestContext context) {
        List<IMethodInstance> kept = new ArrayList<>();
        for (IMethodInstance m : methods) {
            String name = m.getMethod().getRealClass().getSimpleName() + "." + m.getMethod().getMethodName();
            String reason = EXCLUDED.get(name);
            if (reason == null && underMpirun) {
                reason = EXCLUDED_UNDER_MPIRUN.get(name);
            }
            if (reason == null) {
                kept.add(m);
            } else {
                LOG.info("left out for mpi: {}: {}", name, reason);
            }
        }
        return kept;
    }
}
