package ibis.impl.mpi;

import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/** {@link MpiProcess} through our glue between two ranks under MPICH's {@code mpirun}. */
public class MpiProcessUnderMpichTest {

    @Test(timeOut = 120_000)
    public void glueUnderMpich() throws Exception {
        String description = MpiJob.runPingPong(MpiJob.mpich(), MpiProcessExchangeMain.class,
                "-Dibis.mpi.backend=auto");
        assertTrue(description.equals("process glue/mpich thread=3"), description);
    }
}
