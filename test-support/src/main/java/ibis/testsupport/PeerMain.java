package ibis.testsupport;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * The main class of every child JVM of the multi-process tests ({@link ChildJvm#startPeer}): runs
 * one {@link Role}, named by its class as the first argument, with the remaining arguments. The
 * child never outlives the test: it halts as soon as its standard input ends (the test JVM closed it
 * or went away). A role that returns ends the JVM with status 0; one that throws prints
 * {@code FAILED <exception>} and its stack trace on standard output and ends it with status 1.
 *
 * <p>A role may also run in a process it shares with others ({@link PeerHost}: for implementations
 * whose members cannot be fresh JVMs, such as the ranks of an MPI job). Roles that use only
 * {@link #say}, {@link #stayUntilParentGoes} and {@link #closeWhenParentGoes} run unchanged there.
 */
public final class PeerMain {

    /** The start of the line a failed role prints. */
    public static final String FAILED = "FAILED";

    private static final Object PARENT_GONE = new Object();

    /** The session of a role a {@link PeerHost} runs, for the role's thread and the threads it starts. */
    private static final InheritableThreadLocal<Hosted> HOSTED = new InheritableThreadLocal<>();

    /** What a hosted role's lines go to, what ends with it, and whether its parent went away. */
    static final class Hosted {
        private final Consumer<String> out;
        private final List<AutoCloseable> closers = new ArrayList<>();
        private final CountDownLatch gone = new CountDownLatch(1);

        Hosted(Consumer<String> out) {
            this.out = out;
        }

        void say(String line) {
            out.accept(line);
        }

        synchronized void add(AutoCloseable closer) {
            closers.add(closer);
        }

        /** Marks the parent gone (wakes {@link PeerMain#stayUntilParentGoes}). */
        void parentGone() {
            gone.countDown();
        }

        /** Closes what the role asked to, last first; returns what failed, or null. */
        Exception closeAll() {
            List<AutoCloseable> all;
            synchronized (this) {
                all = new ArrayList<>(closers);
                closers.clear();
            }
            Exception failed = null;
            for (int i = all.size() - 1; i >= 0; i--) {
                try {
                    all.get(i).close();
                } catch (Exception e) {
                    if (failed == null) {
                        failed = e;
                    } else {
                        failed.addSuppressed(e);
                    }
                }
            }
            return failed;
        }
    }

    /** Runs {@code body} as a hosted role's thread: its {@link #say} lines go to {@code session}. */
    static void runHosted(Hosted session, Runnable body) {
        HOSTED.set(session);
        try {
            body.run();
        } finally {
            HOSTED.remove();
        }
    }

    /** What a child JVM does; a public class with a public no-argument constructor. */
    public interface Role {

        /** Does the work of the child; reports progress as lines with {@link PeerMain#say}. */
        void run(String[] args) throws Exception;
    }

    private PeerMain() {
    }

    /** Runs {@code args[0]} (a {@link Role} class) with {@code args[1..]}. */
    public static void main(String[] args) {
        Thread watchdog = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // keep reading until the parent goes away
                }
            } catch (IOException e) {
                // parent gone
            }
            Runtime.getRuntime().halt(0);
        }, "stdin-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        try {
            Role role = Class.forName(args[0]).asSubclass(Role.class).getDeclaredConstructor().newInstance();
            role.run(Arrays.copyOfRange(args, 1, args.length));
        } catch (Throwable t) {
            say(FAILED + " " + t);
            t.printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
        }
        System.exit(0);
    }

    /** Prints one line of progress on standard output, at once (a hosted role's: to its parent). */
    public static void say(String line) {
        Hosted hosted = HOSTED.get();
        if (hosted != null) {
            hosted.say(line);
            return;
        }
        System.out.println(line);
        System.out.flush();
    }

    /**
     * Has {@code resource} (typically the role's Ibis, {@code ibis::end}) closed when the role ends
     * or its parent goes away, for a role run by a {@link PeerHost}; in a JVM of its own the JVM's
     * end takes it, so nothing is done.
     */
    public static void closeWhenParentGoes(AutoCloseable resource) {
        Hosted hosted = HOSTED.get();
        if (hosted != null) {
            hosted.add(resource);
        }
    }

    /**
     * Blocks until the JVM halts because its parent went away (or it is killed); in a role run by a
     * {@link PeerHost}, returns when the parent stopped the role.
     */
    public static void stayUntilParentGoes() throws InterruptedException {
        Hosted hosted = HOSTED.get();
        if (hosted != null) {
            hosted.gone.await();
            return;
        }
        synchronized (PARENT_GONE) {
            while (true) {
                PARENT_GONE.wait();
            }
        }
    }
}
