package ibis.impl.mpi;

import static org.testng.Assert.assertEquals;

import org.testng.annotations.Test;

/**
 * Ibis over {@code mpi} through Open MPI's Java bindings between two ranks ({@link MpiIbisJobMain});
 * compiled only when the bindings' classes were fetched.
 */
public class MpiIbisOpenMpiJavaBindingsTest {

    @Test(timeOut = 150_000)
    public void bindingsOverSharedMemory() throws Exception {
        assertEquals(MpiIbisUnderMpiTest.run(MpiJob.openMpi("self,vader"), "bindings"), "ibis bindings/openmpi");
    }

    @Test(timeOut = 150_000)
    public void bindingsOverTcpOnLoopback() throws Exception {
        assertEquals(MpiIbisUnderMpiTest.run(MpiJob.openMpi("self,tcp", "--mca", "btl_tcp_if_include", "lo"),
                "bindings"), "ibis bindings/openmpi");
    }
}
