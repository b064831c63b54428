package ibis.testsupport;

import java.io.IOException;
import java.util.Arrays;

/**
 * The main class of every child JVM of the multi-process tests ({@link ChildJvm#startPeer}): runs
 * one {@link Role}, named by its class as the first argument, with the remaining arguments. The
 * child never outlives the test: it halts as soon as its standard input ends (the test JVM closed it
 * or went away). A role that returns ends the JVM with status 0; one that throws prints
 * {@code FAILED <exception>} and its stack trace on standard output and ends it with status 1.
 */
public final class PeerMain {

    /** The start of the line a failed role prints. */
    public static final String FAILED = "FAILED";

    private static final Object PARENT_GONE = new Object();

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

    /** Prints one line of progress on standard output, at once. */
    public static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** Blocks until the JVM halts because its parent went away (or it is killed). */
    public static void stayUntilParentGoes() throws InterruptedException {
        synchronized (PARENT_GONE) {
            while (true) {
                PARENT_GONE.wait();
            }
        }
    }
}
