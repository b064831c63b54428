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
 * Leaves out the conformance suite's tests that cannot run over {@code mpi} in the way the suite is
 * run, each with its reason (logged when the suite starts). They all have a peer
 * ({@code ImplementationUnderTest.startPeer}):
 * <ul>
 * <li>run by Surefire in a JVM of its own (an MPI singleton, {@link Run#SINGLETON}), the peer is a
 * child JVM, an MPI singleton of its own, not a rank of this process' job, and MPI connects the
 * ranks of one job only ({@link MpiTransport} refuses a member of another job,
 * {@code MpiContactDataTest}): the tests whose peer talks to the suite are left out; the
 * member-death test without connections runs;</li>
 * <li>in rank 0 of an {@code mpirun -np 2} job ({@link Run#PEERS_IN_RANK_1},
 * {@link TckUnderMpirunMain}), the peers run in rank 1 and talk to the suite across ranks, but they
 * end when stopped rather than die, so the tests that kill a member are left out;</li>
 * <li>in a job of one rank ({@link Run#ONE_RANK}) both kinds are left out: a child JVM would
 * inherit mpirun's environment and start as the same rank once more, which makes the job
 * abort.</li>
 * </ul>
 * The killed-sender and killed-receiver tests test what fail-stop MPI cannot give anyway: a rank
 * that dies ends the job, so a survivor never sees a killed peer.
 */
public final class MpiTckExclusions implements IMethodInterceptor {

    /** How the suite runs. */
    public enum Run {
        /** Surefire's JVM, an MPI singleton; peers are child JVMs. */
        SINGLETON,
        /** Rank 0 of a 2-rank job; peers run in rank 1's peer host. */
        PEERS_IN_RANK_1,
        /** The only rank of a job; no peers. */
        ONE_RANK
    }

    private static final Logger LOG = LoggerFactory.getLogger(MpiTckExclusions.class);

    private static final String OTHER_JOB = "its peer is a child JVM, an MPI singleton outside this job";
    private static final String FAIL_STOP = "MPI is fail-stop: a killed rank ends the job, so a survivor never"
            + " sees a killed peer (and a child JVM as peer is outside this job)";
    private static final String HOSTED = "its peer runs in rank 1, where it can be stopped but not killed"
            + " (killing the rank would end the job: MPI is fail-stop)";
    private static final String ONE_RANK = "its peer would be a child JVM, which inherits mpirun's environment and"
            + " would start as the same rank again; run the job with 2 ranks to host peers";

    /** Test class simple name + "." + method name, and why it is left out, in every kind of run. */
    static final Map<String, String> EXCLUDED = Map.of(
            "FailureContractTest.aKilledSenderGivesConnectionClosedToTheReaderOfItsMessageAndALostConnection",
            FAIL_STOP,
            "FailureContractTest.multicastKeepsDeliveringToTheOthersWhenAReceiverIsKilledAndReportsItAtFinish",
            FAIL_STOP,
            "FailureContractTest.anExplicitOneToOnePortReportsAKilledSenderWithoutAReceiveCall", FAIL_STOP);

    /** The tests whose peer talks to the suite across MPI: left out where the peer is a child JVM. */
    static final List<String> TALKING_PEER = List.of(
            "Ipl2CompatibilityTest.anonymousReplyPortsAreReachedByTheirIdentifierFromAnotherProcessButNotByName",
            "Ipl2CompatibilityTest.aHundredThousandLinkListTravelsOverSunSerializationAtTheDefaultStackSize",
            "Ipl2CompatibilityTest.writeArrayOfObjectsReadWithReadObjectKeepsTheIdentitiesOfLaterReferences");

    /** The test whose peer is killed without talking to the suite: runs only with a child JVM as peer. */
    static final String KILLED_MEMBER = "FailureContractTest.aKilledMemberIsReportedDiedToEveryOtherMember";

    private final Run run;

    /** The exclusions for a suite run by Surefire in a JVM of its own (an MPI singleton). */
    public MpiTckExclusions() {
        this(Run.SINGLETON);
    }

    /** The exclusions of a run of the given kind. */
    public MpiTckExclusions(Run run) {
        this.run = run;
    }

    /** Why {@code name} (class simple name + "." + method) is left out in this run, or null. */
    String reason(String name) {
        String reason = EXCLUDED.get(name);
        if (reason == null && TALKING_PEER.contains(name) && run != Run.PEERS_IN_RANK_1) {
            reason = run == Run.SINGLETON ? OTHER_JOB : ONE_RANK;
        }
        if (reason == null && KILLED_MEMBER.equals(name) && run != Run.SINGLETON) {
            reason = run == Run.PEERS_IN_RANK_1 ? HOSTED : ONE_RANK;
        }
        return reason;
    }

    @Override
    public List<IMethodInstance> intercept(List<IMethodInstance> methods, ITestContext context) {
        List<IMethodInstance> kept = new ArrayList<>();
        for (IMethodInstance m : methods) {
            String name = m.getMethod().getRealClass().getSimpleName() + "." + m.getMethod().getMethodName();
            String reason = reason(name);
            if (reason == null) {
                kept.add(m);
            } else {
                LOG.info("left out for mpi: {}: {}", name, reason);
            }
        }
        return kept;
    }
}
