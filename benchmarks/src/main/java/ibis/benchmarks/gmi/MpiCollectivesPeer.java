package ibis.benchmarks.gmi;

/**
 * The gmi suite's MPI peer inside a rank process: the same collectives through the Open MPI Java
 * bindings ({@code MPI.COMM_WORLD}). Its implementation ({@code MpiJavaCollectives.java}, a resource
 * of this package) is compiled by {@link GmiSuite} at run time against the bindings' classes, which
 * only builds that fetched them have; {@link GmiRank} loads it by name.
 */
public interface MpiCollectivesPeer {

    /**
     * Initializes MPI ({@code MPI_Init_thread}, thread multiple). Called before the process's Ibis
     * exists, so that impl-mpi, which initializes MPI only when it is not yet, shares it.
     */
    void init() throws Exception;

    /** @return this process's rank in {@code MPI_COMM_WORLD} */
    int rank() throws Exception;

    /** Allocates the peer's buffer of {@code count} doubles (a direct buffer) and fills it from {@code data}. */
    void load(double[] data) throws Exception;

    /** @return the peer's buffer as an array */
    double[] contents() throws Exception;

    /** {@code MPI.COMM_WORLD.allReduce} of the buffer with {@code MPI.SUM}, in place. */
    void allreduce() throws Exception;

    /** {@code MPI.COMM_WORLD.bcast} of the buffer from rank 0. */
    void broadcast() throws Exception;

    /** {@code MPI.COMM_WORLD.barrier()}. */
    void barrier() throws Exception;

    /** Finalizes MPI unless {@code ibisOwnsMpi} (impl-mpi finalizes it when the process exits). */
    void finish(boolean ibisOwnsMpi) throws Exception;
}
