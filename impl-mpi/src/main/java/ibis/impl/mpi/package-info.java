/**
 * The MPI implementation of the IPL (nickname {@code mpi}): {@link ibis.impl.mpi.MpiIbisStarter} and
 * {@link ibis.impl.mpi.MpiTransport} over {@link ibis.impl.mpi.MpiProcess}, MPI initialized once per
 * process through one of two {@link ibis.impl.mpi.MpiBackend}s: our JNI glue over the MPI C API
 * ({@code MpiNative}, C in {@code src/main/c}, built for Open MPI and for MPICH, loaded by
 * {@link ibis.impl.mpi.NativeLibrary}) or Open MPI's Java bindings. See the module's README.md.
 */
package ibis.impl.mpi;
