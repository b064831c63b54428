package ibis.impl.mpi;

import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/**
 * Our JNI glue built against MPICH ({@code libibis-mpi-mpich.so}) under MPICH's {@code mpirun}: the
 * same ping-pong; {@link NativeLibrary} picks the MPICH build from Hydra's environment.
 */
public class GluePingPongUnderMpichTest {

    @Test(timeOut = 120_000)
    public void messagesArriveIntactUnderMpich() throws Exception {
        String description = MpiJob.runPingPong(MpiJob.mpich(), GluePingPongMain.class);
        assertTrue(description.startsWith("glue mpi=mpich thread=MULTIPLE"), description);
    }
}
