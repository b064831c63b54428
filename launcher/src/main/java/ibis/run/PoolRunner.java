package ibis.run;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Starts the member JVMs of a {@link LaunchPlan} (for an MPI job: the one {@code mpirun} that starts
 * them), passes their output on, and waits for them. The first member that exits with a non-zero
 * status decides the launcher's status; the other members are then stopped (SIGTERM, and SIGKILL
 * after a grace period) and the failure is reported on the launcher's standard error.
 */
final class PoolRunner {

    private final LaunchPlan plan;
    private final String javaCommand;
    private final String launcherClassPath;
    private final long stopGraceMillis;
    private final String mpirun;
    private final boolean root;
    private final PrintStream out;
    private final PrintStream err;
    private final List<Process> processes = new ArrayList<>();
    private final List<Thread> pumps = new ArrayList<>();

    /** The exit of one member: its position in {@code processes} and its status. */
    private record Exit(int localIndex, int status) {
    }

    PoolRunner(LaunchPlan plan, String javaCommand, String launcherClassPath, long stopGraceMillis,
            PrintStream out, PrintStream err) {
        this(plan, javaCommand, launcherClassPath, stopGraceMillis, null, false, out, err);
    }

    /**
     * @param mpirun the mpirun executable of an MPI job (unused otherwise)
     * @param root whether the launcher runs as root (Open MPI then needs its consent variables)
     */
    PoolRunner(LaunchPlan plan, String javaCommand, String launcherClassPath, long stopGraceMillis,
            String mpirun, boolean root, PrintStream out, PrintStream err) {
        this.plan = plan;
        this.javaCommand = javaCommand;
        this.launcherClassPath = launcherClassPath;
        this.stopGraceMillis = stopGraceMillis;
        this.mpirun = mpirun;
        this.root = root;
        this.out = out;
        this.err = err;
    }

    /**
     * Starts every member with the given registry address and waits for all of them.
     *
     * @return 0 when every member exited with 0, otherwise the status of the first one that did not
     */
    int run(String server) throws IOException, InterruptedException {
        BlockingQueue<Exit> exits = new LinkedBlockingQueue<>();
        Thread stopOnShutdown = new Thread(this::stopAll, "ibis-run-shutdown");
        Runtime.getRuntime().addShutdownHook(stopOnShutdown);
        try {
            for (int i = 0; i < plan.memberCount(); i++) {
                Process p = start(i, server);
                synchronized (this) {
                    processes.add(p);
                }
                int local = i;
                p.onExit().thenAccept(done -> exits.add(new Exit(local, done.exitValue())));
            }
            int status = 0;
            for (int remaining = processes.size(); remaining > 0; remaining--) {
                Exit exit = exits.take();
                if (exit.status() != 0) {
                    status = exit.status();
                    int others = (int) processes.stream().filter(Process::isAlive).count();
                    err.println("ibis-run: " + describe(exit.localIndex()) + " exited with status "
                            + exit.status() + (others > 0 ? "; stopping the other " + others
                            + (others == 1 ? " member" : " members") : ""));
                    err.flush();
                    stopAll();
                    break;
                }
            }
            drainOutput();
            return status;
        } finally {
            stopAll();
            try {
                Runtime.getRuntime().removeShutdownHook(stopOnShutdown);
            } catch (IllegalStateException e) {
                // Already shutting down: the hook runs anyway.
            }
        }
    }

    /** The process ids of the members started so far, in member order (for tests and messages). */
    synchronized List<Long> memberPids() {
        return processes.stream().map(Process::pid).toList();
    }

    private Process start(int localIndex, String server) throws IOException {
        if (plan.mode() == LaunchPlan.Mode.MPI_JOB) {
            return startMpirun(server);
        }
        ProcessBuilder builder = new ProcessBuilder(
                plan.memberCommand(localIndex, javaCommand, launcherClassPath, server));
        builder.environment().putAll(plan.memberEnvironment());
        if (plan.mode() == LaunchPlan.Mode.CLUSTER_MEMBER) {
            // Passed on line by line, each line in one write: a member JVM writes a printf to its
            // standard output in pieces, which the cluster launcher would interleave with other ranks'.
            Process p = builder.redirectInput(ProcessBuilder.Redirect.INHERIT).start();
            pumps.add(startPump(new PrefixingPump(p.getInputStream(), out, out, ""), localIndex, "out"));
            pumps.add(startPump(new PrefixingPump(p.getErrorStream(), err, err, ""), localIndex, "err"));
            return p;
        }
        if (!plan.prefixOutput()) {
            return builder.inheritIO().start();
        }
        if (plan.memberCount() == 1) {
            builder.redirectInput(ProcessBuilder.Redirect.INHERIT);
        }
        Process p = builder.start();
        if (plan.memberCount() > 1) {
            p.getOutputStream().close();
        }
        String prefix = "[" + plan.memberIndex(localIndex) + "] ";
        pumps.add(startPump(new PrefixingPump(p.getInputStream(), out, out, prefix), localIndex, "out"));
        pumps.add(startPump(new PrefixingPump(p.getErrorStream(), err, err, prefix), localIndex, "err"));
        return p;
    }

    /** Starts mpirun for an MPI job; its tagged output is put back together per rank. */
    private Process startMpirun(String server) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(
                plan.mpirunCommand(mpirun, javaCommand, launcherClassPath, server));
        builder.environment().putAll(plan.mpirunEnvironment(root));
        // mpirun forwards standard input to rank 0.
        Process p;
        try {
            p = builder.redirectInput(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            throw new IOException("cannot start " + mpirun + " for --impl mpi (" + e.getMessage() + "): install Open"
                    + " MPI (scripts/setup installs it), or name Open MPI's mpirun with -D" + LauncherProperties.MPIRUN
                    + "=PATH in JAVA_OPTS", e);
        }
        pumps.add(startPump(new TaggedOutputPump(p.getInputStream(), out, out), 0, "out"));
        pumps.add(startPump(new TaggedOutputPump(p.getErrorStream(), err, err), 0, "err"));
        return p;
    }

    private static Thread startPump(Runnable pump, int localIndex, String what) {
        Thread t = new Thread(pump, "ibis-run-" + what + "-" + localIndex);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private String describe(int localIndex) {
        if (plan.mode() == LaunchPlan.Mode.MPI_JOB) {
            return "mpirun (pid " + processes.get(localIndex).pid() + ")";
        }
        int index = plan.memberIndex(localIndex);
        long pid = processes.get(localIndex).pid();
        return (index >= 0 ? "member " + index : "the member") + " (pid " + pid + ")";
    }

    /** Stops every live member: SIGTERM first, SIGKILL for those still alive after the grace period. */
    private synchronized void stopAll() {
        List<Process> alive = new ArrayList<>();
        for (Process p : processes) {
            if (p.isAlive()) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
                alive.add(p);
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(stopGraceMillis);
        for (Process p : alive) {
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                    p.waitFor(stopGraceMillis, TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Waits (bounded) until every member's remaining output has been passed on. */
    private void drainOutput() throws InterruptedException {
        for (Thread pump : pumps) {
            pump.join(TimeUnit.SECONDS.toMillis(10));
        }
        out.flush();
        err.flush();
    }
}
