package ibis.run;

import java.util.concurrent.CountDownLatch;

/**
 * A stand-in member program for the launcher's tests: prints its member index, pool size and pid
 * (and, on standard error, its {@code UCX_ERROR_SIGNALS});
 * the member whose index is the first argument exits with the status given as the second
 * argument, every other member exits with 0, or, when the third argument is "block", waits until
 * it is killed.
 */
public final class ScriptedMember {

    private ScriptedMember() {
    }

    /** Runs the scripted behaviour. */
    public static void main(String[] args) throws InterruptedException {
        int member = Integer.parseInt(System.getProperty("ibis.pool.member", "-1"));
        System.out.println("member " + member + " of " + System.getProperty("ibis.pool.size")
                + " pid=" + ProcessHandle.current().pid());
        System.err.println("stderr of " + member + " UCX_ERROR_SIGNALS=[" + System.getenv("UCX_ERROR_SIGNALS") + "]");
        System.out.flush();
        int failing = Integer.parseInt(args[0]);
        if (member == failing) {
            System.exit(Integer.parseInt(args[1]));
        }
        if (args.length > 2 && args[2].equals("block")) {
            new CountDownLatch(1).await();
        }
    }
}
