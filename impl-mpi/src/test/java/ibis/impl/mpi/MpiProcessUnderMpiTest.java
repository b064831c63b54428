package ibis.impl.mpi;

import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/**
 * {@link MpiProcess} between two ranks under {@code mpirun}: {@link MpiProcessExchangeMain} (both
 * directions at once from two threads each, 0 B to 4 MiB, registry messages kept until their
 * receiver registers, an over-long message refused), over our glue and over Open MPI's bindings,
 * over shared memory and TCP on lo, and the glue under MPICH.
 */
public class MpiProcessUnderMpiTest {

    private static final String THREAD_MULTIPLE = " thread=3";

    @Test(timeOut = 120_000)
    public void glueOverSharedMemory() throws Exception {
        String description = MpiJob.runPingPong(MpiJob.openMpi("self,vader"), MpiProcessExchangeMain.class,
                "-Dibis.mpi.backend=glue");
        assertTrue(description.equals("process glue/openmpi" + THREAD_MULTIPLE), description);
    }

    @Test(timeOut = 120_000)
    public void glueOverTcpOnLoopback() throws Exception {
        String description = MpiJob.runPingPong(MpiJob.openMpi("self,tcp", "--mca", "btl_tcp_if_include", "lo"),
                MpiProcessExchangeMain.class, "-Dibis.mpi.backend=glue");
        assertTrue(description.equals("process glue/openmpi" + THREAD_MULTIPLE), description);
    }
}
