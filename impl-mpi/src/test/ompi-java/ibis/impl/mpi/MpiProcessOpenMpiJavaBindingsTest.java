package ibis.impl.mpi;

import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/**
 * {@link MpiProcess} over Open MPI's Java bindings between two ranks ({@link MpiProcessExchangeMain});
 * compiled only when the bindings' classes were fetched.
 */
public class MpiProcessOpenMpiJavaBindingsTest {

    @Test(timeOut = 120_000)
    public void bindingsOverSharedMemory() throws Exception {
        String description = MpiJob.runPingPong(MpiJob.openMpi("self,vader"), MpiProcessExchangeMain.class,
                "-Dibis.mpi.backend=bindings");
        assertTrue(description.equals("process bindings/openmpi thread=3"), description);
    }

    @Test(timeOut = 120_000)
    public void bindingsOverTcpOnLoopback() throws Exception {
        String description = MpiJob.runPingPong(MpiJob.openMpi("self,tcp", "--mca", "btl_tcp_if_include", "lo"),
                MpiProcessExchangeMain.class, "-Dibis.mpi.backend=bindings");
        assertTrue(description.equals("process bindings/openmpi thread=3"), description);
    }
}
