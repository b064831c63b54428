package ibis.impl.mpi;

import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/**
 * Our JNI glue under Open MPI's {@code mpirun}: two ranks exchange checksummed messages of 0 bytes
 * to 4 MiB (isend/await, iprobe, irecv/test, cancel) with {@code MPI_THREAD_MULTIPLE}.
 */
public class GluePingPongUnderOpenMpiTest {

    @Test(timeOut = 120_000)
    public void messagesArriveIntactOverSharedMemory() throws Exception {
        String description = MpiJob.runPingPong(MpiJob.openMpi("self,vader"), GluePingPongMain.class);
        assertTrue(description.startsWith("glue mpi=openmpi thread=MULTIPLE"), description);
    }

    @Test(timeOut = 120_000)
    public void messagesArriveIntactOverTcpOnLoopback() throws Exception {
        String description = MpiJob.runPingPong(MpiJob.openMpi("self,tcp", "--mca", "btl_tcp_if_include", "lo"),
                GluePingPongMain.class);
        assertTrue(description.startsWith("glue mpi=openmpi thread=MULTIPLE"), description);
    }
}
