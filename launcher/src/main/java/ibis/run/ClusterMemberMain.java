package ibis.run;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.Optional;

/**
 * The main class each rank of an MPI job started by {@code ibis-run --np N --impl mpi} runs: sets
 * {@code ibis.pool.member} (and {@code ibis.pool.size}, unless given) from the rank and size the
 * cluster launcher put in the environment ({@link ClusterRank}), then runs the program's
 * {@code main} in this same JVM, so a rank costs one JVM, not a launcher JVM plus a member JVM.
 *
 * <p>Arguments: the program's main class, then its arguments.
 */
public final class ClusterMemberMain {

    private ClusterMemberMain() {
    }

    /**
     * Sets the pool properties and runs the program.
     *
     * @throws Throwable whatever the program's main throws, unchanged
     */
    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: " + ClusterMemberMain.class.getName()
                    + " MainClass [args...] (started by ibis-run --np N --impl mpi)");
        }
        Optional<ClusterRank> rank = ClusterRank.detect(System.getenv());
        if (rank.isPresent()) {
            System.setProperty(LaunchOptions.POOL_MEMBER, Integer.toString(rank.get().rank()));
            if (System.getProperty(LaunchOptions.POOL_SIZE) == null) {
                System.setProperty(LaunchOptions.POOL_SIZE, Integer.toString(rank.get().size()));
            }
        }
        Class<?> main = Class.forName(args[0], false, ClassLoader.getSystemClassLoader());
        MethodHandle entry;
        try {
            entry = MethodHandles.publicLookup().findStatic(main, "main",
                    MethodType.methodType(void.class, String[].class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalArgumentException(args[0] + " has no public static void main(String[])", e);
        }
        entry.invokeExact(Arrays.copyOfRange(args, 1, args.length));
    }
}
