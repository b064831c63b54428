package ibis.impl.mpi;

import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/**
 * Both ranks of an {@code mpirun} job send large direct byte buffers to each other before either
 * receives ({@link MpiDirectExchangeJobMain}), over shared memory and over the tcp btl, with the
 * glue backend: the sink sends them from the application's memory, so this shows that such a send
 * never waits for the peer's reader (no deadlock) and returns only when the buffer may be reused
 * (every byte arrives as it was at {@code finish()}).
 */
public class MpiDirectExchangeUnderMpiTest {

    private static final int ROUNDS = 40;

    private static void exchange(String btl, String... more) throws Exception {
        String text = MpiJob.run(MpiJob.openMpi(btl, more), MpiDirectExchangeJobMain.class, new String[] {
            "-Dibis.implementation=mpi", "-Dibis.mpi.backend=glue", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"},
                Integer.toString(ROUNDS));
        for (int rank = 0; rank < 2; rank++) {
            String line = "pingpong rank=" + rank + " of 2 ibis glue/openmpi: "
                    + MpiDirectExchangeJobMain.expected(rank, ROUNDS) + " OK";
            assertTrue(text.contains(line), "rank " + rank + " should print '" + line + "' in\n" + text);
        }
    }

    @Test(timeOut = 200_000)
    public void directBuffersSentBeforeEitherReceivesArriveAsWrittenOverSharedMemory() throws Exception {
        exchange("self,vader");
    }

    @Test(timeOut = 200_000)
    public void directBuffersSentBeforeEitherReceivesArriveAsWrittenOverTcp() throws Exception {
        exchange("self,tcp", "--mca", "btl_tcp_if_include", "lo");
    }
}
