package ibis.impl.mpi;

import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/**
 * Open MPI's Java bindings ({@code mpi.*} compiled from Debian's source package, over Debian's
 * {@code libmpi_java.so}) load and carry the same ping-pong under {@code mpirun}. The main is
 * compiled only when the bindings' classes were fetched; build.sh excludes this test otherwise.
 */
public class OpenMpiJavaBindingsPingPongTest {

    private static final String MAIN = "ibis.impl.mpi.OpenMpiJavaBindingsPingPongMain";

    @Test(timeOut = 120_000)
    public void messagesArriveIntactOverSharedMemory() throws Exception {
        String description = MpiJob.runPingPong(MpiJob.openMpi("self,vader"), Class.forName(MAIN));
        assertTrue(description.startsWith("bindings mpi=openmpi thread=MULTIPLE"), description);
    }

    @Test(timeOut = 120_000)
    public void messagesArriveIntactOverTcpOnLoopback() throws Exception {
        String description = MpiJob.runPingPong(MpiJob.openMpi("self,tcp", "--mca", "btl_tcp_if_include", "lo"),
                Class.forName(MAIN));
        assertTrue(description.startsWith("bindings mpi=openmpi thread=MULTIPLE"), description);
    }
}
