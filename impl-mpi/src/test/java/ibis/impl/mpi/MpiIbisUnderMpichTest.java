package ibis.impl.mpi;

import static org.testng.Assert.assertEquals;

import org.testng.annotations.Test;

/** Ibis over {@code mpi} through our glue between two ranks under MPICH ({@link MpiIbisJobMain}). */
public class MpiIbisUnderMpichTest {

    @Test(timeOut = 150_000)
    public void glueUnderMpich() throws Exception {
        assertEquals(MpiIbisUnderMpiTest.run(MpiJob.mpich(), "auto"), "ibis glue/mpich");
    }
}
