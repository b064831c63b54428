package ibis.impl.mpi;

import org.testng.annotations.Test;

/**
 * The IPL conformance suite over {@code mpi} through Open MPI's Java bindings, in a process started by
 * {@code mpirun}, its peers in another rank ({@link TckUnderMpirunTest}); compiled only when the
 * bindings' classes were fetched.
 */
public class TckOverOpenMpiJavaBindingsTest {

    @Test(timeOut = 150_000)
    public void theSuitePassesThroughTheBindings() throws Exception {
        TckUnderMpirunTest.runSuite("bindings", "self,vader");
    }

    @Test(timeOut = 150_000)
    public void theSuitePassesThroughTheBindingsOverTheTcpBtl() throws Exception {
        TckUnderMpirunTest.runSuite("bindings", "self,tcp", "--mca", "btl_tcp_if_include", "lo");
    }
}
