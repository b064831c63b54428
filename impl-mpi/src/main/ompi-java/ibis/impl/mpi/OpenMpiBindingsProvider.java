package ibis.impl.mpi;

import java.io.IOException;

/**
 * Makes the {@link OpenMpiBindingsBackend}, named {@code bindings}. Compiled (and listed in
 * {@code META-INF/services}) only when the Open MPI Java classes were fetched.
 */
public final class OpenMpiBindingsProvider implements MpiBackendProvider {

    /** Creates the provider (used by {@link java.util.ServiceLoader}). */
    public OpenMpiBindingsProvider() {
    }

    @Override
    public String name() {
        return "bindings";
    }

    @Override
    public MpiBackend open(int threadLevel) throws IOException {
        return OpenMpiBindingsBackend.open(threadLevel);
    }
}
