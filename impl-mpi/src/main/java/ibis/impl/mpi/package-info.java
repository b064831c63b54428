/**
 * The MPI implementation of the IPL (nickname {@code mpi}), in progress: so far its native
 * foundation, the JNI glue {@code MpiNative} over the MPI C API (C in {@code src/main/c}, built for
 * Open MPI and for MPICH) and the {@link ibis.impl.mpi.NativeLibrary} that loads the build matching
 * the MPI the process runs under. See the module's README.md for what is built and the proposed
 * design of the transport.
 */
package ibis.impl.mpi;
