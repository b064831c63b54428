package ibis.ipl.tck;

import ibis.ipl.IbisFactory;
import ibis.ipl.IbisProperties;
import ibis.ipl.IbisStarter;
import ibis.testsupport.ChildJvm;
import ibis.testsupport.HostedPeers;
import ibis.testsupport.PoolFixture;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The network implementation the conformance suite tests: the one named by the system property
 * {@code ibis.implementation} (a nickname, as a user would give it), or else the only
 * {@link IbisStarter} found; starters are looked for as {@link IbisFactory} looks for them, on the
 * class path and in the plug-in jars of {@code ibis.implementation.path}. Every Ibis the suite
 * creates, in this JVM and in the child JVMs of the multi-process tests, runs it.
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
        starter = choose(System.getProperty(IbisProperties.IMPLEMENTATION, ""),
                System.getProperty(IbisProperties.IMPLEMENTATION_PATH), Thread.currentThread().getContextClassLoader());
        nickname = starter.getNickName();
    }

    /**
     * Finds the implementation to test as {@code IbisFactory} finds implementations: the starters on
     * the class path ({@code classPath}) and those in the plug-in jars of {@code implementationPath}
     * (the value of {@code ibis.implementation.path}, may be null), so that a plug-in jar that was
     * dropped in a directory, not put on the class path, can be tested too.
     *
     * @param named the nickname or starter class name to test; empty or null: the only starter found
     * @throws IllegalStateException when nothing, or more than one starter without a name, is found
     */
    static IbisStarter choose(String named, String implementationPath, ClassLoader classPath) {
        Map<String, IbisStarter> byClass = new LinkedHashMap<>();
        ServiceLoader.load(IbisStarter.class, classPath).forEach(s -> byClass.putIfAbsent(s.getClass().getName(), s));
        ClassLoader plugins = IbisFactory.implementationPathLoader(implementationPath);
        if (plugins != null) {
            ServiceLoader.load(IbisStarter.class, plugins)
                    .forEach(s -> byClass.putIfAbsent(s.getClass().getName(), s));
        }
        List<IbisStarter> found = new ArrayList<>(byClass.values());
        List<String> names = new ArrayList<>();
        for (IbisStarter s : found) {
            names.add(s.getNickName() + " (" + s.getClass().getName() + ")");
        }
        String where = implementationPath == null || implementationPath.isBlank() ? "on the class path"
                : "on the class path and in " + IbisProperties.IMPLEMENTATION_PATH + "=" + implementationPath;
        named = named == null ? "" : named.trim();
        if (named.isEmpty()) {
            if (found.size() != 1) {
                throw new IllegalStateException("the IPL conformance suite needs the implementation to test: set the"
                        + " system property " + IbisProperties.IMPLEMENTATION + " to its nickname (found " + where
                        + ": " + names + ")");
            }
            return found.get(0);
        }
        for (IbisStarter s : found) {
            if (s.getNickName().equals(named) || s.getClass().getName().equals(named)) {
                return s;
            }
        }
        throw new IllegalStateException(IbisProperties.IMPLEMENTATION + "=" + named + " names no implementation "
                + where + " (found: " + names + ")");
    }

    /**
     * The JVM options of a child JVM that runs a peer: the implementation under test, and the
     * plug-in directories it may have come from ({@code ibis.implementation.path} of this JVM), since
     * the child gets only the test class path.
     */
    static List<String> peerJvmOptions(String nickname, String implementationPath) {
        List<String> options = new ArrayList<>();
        options.add("-Xmx256m");
        options.add("-D" + IbisProperties.IMPLEMENTATION + "=" + nickname);
        if (implementationPath != null && !implementationPath.isBlank()) {
            options.add("-D" + IbisProperties.IMPLEMENTATION_PATH + "=" + implementationPath);
        }
        return options;
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
        return ChildJvm.startPeer(peerJvmOptions(nickname(), System.getProperty(IbisProperties.IMPLEMENTATION_PATH)),
                ContractPeer.class, mode, pool.serverAddress(), pool.poolName());
    }
}
