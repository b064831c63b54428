package ibis.benchmarks.rmi;

/**
 * A stand-in for the applications' {@code AppMain} with the same command line
 * ({@code <app> <rank> <size> <registryPort> <problem>}) for the suite's test: rank 0 prints the
 * {@code RESULT} line. App {@code ok} reports verified when the launcher gave the JVM its side's
 * settings (Ibis: the pool of {@code size} members; JDK: the loopback RMI host name); app
 * {@code unverified} always reports a failed verification.
 */
public final class FakeAppMain {

    private FakeAppMain() {
    }

    /** Prints rank 0's result line. */
    public static void main(String[] args) {
        String app = args[0];
        int rank = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        Integer.parseInt(args[3]);
        boolean ibis = System.getProperty("ibis.server.address") != null;
        boolean configured = ibis
                ? Integer.toString(size).equals(System.getProperty("ibis.pool.size"))
                        && System.getProperty("ibis.pool.name") != null
                : "127.0.0.1".equals(System.getProperty("java.rmi.server.hostname"));
        boolean verified = app.equals("ok") && configured && args[4].equals("small");
        if (rank == 0) {
            System.out.println("RESULT " + app + " procs=" + size + " verified=" + verified + " millis=12");
        }
    }
}
