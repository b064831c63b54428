package ibis.impl.mpi;

import org.testng.annotations.Test;

/**
 * The IPL conformance suite over {@code mpi} through Open MPI's Java bindings, in a process started by
 * {@code mpirun} ({@link TckUnderMpirunTest}); compiled only when the bindings' classes were fetched.
 */
public class TckOverOpenMpiJavaBindingsTest {

    @Test(timeOut = 120_000)
    public void theSuitePassesThroughTheBindings() throws Exception {
        TckUnderMpirunTest.runSuite("bindings");
    }
}
