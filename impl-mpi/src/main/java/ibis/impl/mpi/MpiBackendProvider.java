package ibis.impl.mpi;

import java.io.IOException;

/**
 * Makes an {@link MpiBackend} other than the glue, found through {@link java.util.ServiceLoader}
 * ({@code META-INF/services/ibis.impl.mpi.MpiBackendProvider}). The Open MPI Java bindings' backend
 * is one; it is compiled only when the bindings' classes were fetched, so impl-mpi builds and runs
 * with the glue alone.
 */
public interface MpiBackendProvider {

    /** The name that {@code ibis.mpi.backend} uses for it, e.g. {@code bindings}. */
    String name();

    /**
     * Initializes MPI through this backend.
     *
     * @param threadLevel the thread level asked for ({@link MpiNative#THREAD_MULTIPLE} and below)
     * @throws IOException when its library cannot be loaded or MPI fails; the message says which
     */
    MpiBackend open(int threadLevel) throws IOException;
}
