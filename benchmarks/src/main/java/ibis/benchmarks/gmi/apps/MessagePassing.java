package ibis.benchmarks.gmi.apps;

/**
 * The MPI operations the MPI-style applications use, on all ranks of {@code MPI.COMM_WORLD}. The
 * implementation over the Open MPI Java bindings ({@code MpiJavaApps.java}, a resource of this
 * package) is compiled at run time by {@link AppRuns}, since the bindings' classes exist only in
 * builds that fetched them; every method is one call of {@code MPI.COMM_WORLD} with a Java array.
 */
public interface MessagePassing {

    /** @return this process's rank */
    int rank() throws Exception;

    /** @return the number of ranks */
    int size() throws Exception;

    /** {@code bcast} of a whole {@code int[]} from {@code root}. */
    void broadcast(int[] buffer, int root) throws Exception;

    /** {@code bcast} of a whole {@code double[]} from {@code root}. */
    void broadcast(double[] buffer, int root) throws Exception;

    /** {@code allReduce} in place, {@code MPI.SUM} over doubles. */
    void allReduceSum(double[] buffer) throws Exception;

    /** {@code allReduce} in place, {@code MPI.SUM} over longs. */
    void allReduceSum(long[] buffer) throws Exception;

    /** {@code allGather}: every rank's {@code part} (all of one length) into {@code all}, in rank order. */
    void allGather(double[] part, double[] all) throws Exception;

    /** {@code allGatherv}: rank r's {@code part} (counts[r] elements) to {@code all[displacements[r]...]}. */
    void allGatherv(double[] part, double[] all, int[] counts, int[] displacements) throws Exception;

    /** {@code barrier}. */
    void barrier() throws Exception;
}
