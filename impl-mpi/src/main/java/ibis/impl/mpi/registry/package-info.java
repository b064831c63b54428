/**
 * The registry over MPI ({@code ibis.registry.implementation=mpi}, the default of the {@code mpi}
 * implementation without a server address): the pool is the MPI job, one member per rank, joined
 * in rank order; rank 0 coordinates elections, signals, sequence numbers, tokens, termination and
 * leaving through messages on the registry's own MPI tag. No registry server is needed. See the
 * module's README.md ("Registry over MPI") for the semantics and the wire format.
 */
package ibis.impl.mpi.registry;
