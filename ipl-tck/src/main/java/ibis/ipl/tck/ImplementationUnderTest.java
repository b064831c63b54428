package ibis.ipl.tck;

import ibis.ipl.IbisProperties;
import ibis.ipl.IbisStarter;
import ibis.testsupport.ChildJvm;
import ibis.testsupport.HostedPeers;
import ibis.testsupport.PoolFixture;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The network implementation the conformance suite tests: the one named by the system property
 * {@code ibis.implementation} (a nickname, as a user would give it), or else the only
 * {@link IbisStarter} on the class path. Every Ibis the suite creates, in this JVM and in the child
 * JVMs of the multi-process tests, runs it.
 */
public final class ImplementationUnderTest {

    private static String nickname;
    private static IbisStarter starter;
    private static HostedPeers hostedPeers;

    private ImplementationUnderTest() {
    }

    /** The nickname of the implementation under test. */
    public static synchronized String nickname() {
        if (nickname == null) {
            choose();
        }
        return nickname;
    }

    /** The starter of the implementation under test. */
    public static synchronized IbisStarter starter() {
        if (starter == null) {
            choose();
        }
        return starter;
    }

    private static void choose() {
        List<IbisStarter> found = new ArrayList<>();
        ServiceLoader.load(IbisStarter.class, Thread.currentThread().getContextClassLoader()).forEach(found::add);
        List<String> names = new ArrayList<>();
        for (IbisStarter s : found) {
            names.add(s.getNickName() + " (" + s.getClass().getName() + ")");
        }
        String named = System.getProperty(IbisProperties.IMPLEMENTATION, "").trim();
        if (named.isEmpty()) {
            if (found.size() != 1) {
                throw new IllegalStateException("the IPL conformance suite needs the implementation to test: set the"
                        + " system property " + IbisProperties.IMPLEMENTATION + " to its nickname (found on the"
                        + " class path: " + names + ")");
            }
            starter = found.get(0);
        } else {
            for (IbisStarter s : found) {
                if (s.getNickName().equals(named) || s.getClass().getName().equals(named)) {
                    starter = s;
                }
            }
            if (starter == null) {
                throw new IllegalStateException(IbisProperties.IMPLEMENTATION + "=" + named
                        + " names no implementation on the class path (found: " + names + ")");
            }
        }
        nickname = starter.getNickName();
    }

    /** What {@link #withoutSystemProperty} runs. */
    @FunctionalInterface
    public interface Action<T> {

        /** Runs the action. */
        T run() throws Exception;
    }

    /**
     * Runs {@code action} with the system property {@code ibis.implementation} cleared (and sets it
     * back afterwards), for the tests of what happens when no implementation is named: the
     * properties of {@code createIbis} are merged with the system properties.
     */
    public static <T> T withoutSystemProperty(Action<T> action) throws Exception {
        synchronized (System.class) {
            String saved = System.clearProperty(IbisProperties.IMPLEMENTATION);
            try {
                return action.run();
            } finally {
                if (saved != null) {
                    System.setProperty(IbisProperties.IMPLEMENTATION, saved);
                }
            }
        }
    }

    /** A pool (embedded registry server on loopback) whose Ibis instances run the implementation under test. */
    public static PoolFixture pool() throws IOException {
        return new PoolFixture(nickname());
    }

    /**
     * Has the multi-process tests' peers run by a {@link ibis.testsupport.PeerHost} in another process
     * instead of in child JVMs, for an implementation whose members cannot be fresh JVMs (the ranks
     * of an MPI job: the suite runs in rank 0, the host in rank 1). Null: child JVMs again. A hosted
     * peer is stopped, not killed, by {@link ChildJvm#kill}, so the tests that kill a member must be
     * left out then.
     */
    public static synchronized void hostPeersIn(HostedPeers peers) {
        hostedPeers = peers;
    }

    /**
     * Starts a child JVM running {@link ContractPeer} in {@code mode}, as a member of {@code pool}: the
     * test class path (so the implementation's jars) and the implementation under test; or, after
     * {@link #hostPeersIn}, the same role in the peer host.
     */
    public static ChildJvm startPeer(String mode, PoolFixture pool) throws IOException {
        HostedPeers hosted;
        synchronized (ImplementationUnderTest.class) {
            hosted = hostedPeers;
        }
        if (hosted != null) {
            return ChildJvm.of(hosted.start(ContractPeer.class, List.of(mode, pool.serverAddress(), pool.poolName())));
        }
        return ChildJvm.startPeer(List.of("-Xmx256m", "-D" + IbisProperties.IMPLEMENTATION + "=" + nickname()),
                ContractPeer.class, mode, pool.serverAddress(), pool.poolName());
    }
}
