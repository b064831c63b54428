package ibis.examples;

import java.util.concurrent.CountDownLatch;

/**
 * Shows what {@code ibis-run} does when one member fails: run
 * {@code bin/ibis-run --np 3 ibis.examples.ExitCodeDemo 1 3} and member 1 exits with status 3 at
 * once while the others wait forever; the launcher reports the failure, stops the others and exits
 * with status 3. (It needs no Ibis at all; the end-to-end tests use it.)
 *
 * <p>Arguments: the failing member's index ({@code ibis.pool.member}) and its exit status.
 */
public final class ExitCodeDemo {

    private ExitCodeDemo() {
    }

    /** Exits with the given status if this is the failing member, otherwise waits to be stopped. */
    public static void main(String[] args) throws InterruptedException {
        if (args.length != 2) {
            System.err.println("usage: ExitCodeDemo FAILING_MEMBER STATUS");
            System.exit(2);
        }
        int failing = Integer.parseInt(args[0]);
        int status = Integer.parseInt(args[1]);
        int member = Integer.parseInt(System.getProperty("ibis.pool.member", "-1"));
        if (member == failing) {
            System.out.println("member " + member + " fails with status " + status);
            System.exit(status);
        }
        System.out.println("member " + member + " waits until it is stopped (pid "
                + ProcessHandle.current().pid() + ")");
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
