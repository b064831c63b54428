package ibis.impl.mpi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/**
 * Volume over {@code mpi} between the two ranks of an {@code mpirun} job over shared memory, with the
 * registry over MPI ({@link MpiVolumeJobMain}): a million small messages, and a gibibyte in mebibyte
 * messages, each checked by sequence number at the receiver and by a CRC-32 over every payload in
 * order at both ranks and here.
 */
public class MpiVolumeUnderMpiTest {

    private static void volume(String kind, long messages) throws Exception {
        String expected = MpiVolumeJobMain.expected(kind.equals("large"), messages);
        String text = MpiJob.run(MpiJob.openMpi("self,vader"), MpiVolumeJobMain.class, new String[] {
            "-Dibis.implementation=mpi", "-Dibis.mpi.backend=glue", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"},
                kind, Long.toString(messages));
        for (int rank = 0; rank < 2; rank++) {
            String line = "pingpong rank=" + rank + " of 2 ibis glue/openmpi: " + expected + " OK";
            assertTrue(text.contains(line), "rank " + rank + " should print '" + line + "' in\n" + text);
        }
        assertEquals(text.contains("WARN"), false, "no warnings in\n" + text);
    }

    @Test(timeOut = 200_000)
    public void aMillionSmallMessagesArriveIntactAndInOrder() throws Exception {
        volume("small", 1_000_000);
    }

    @Test(timeOut = 200_000)
    public void aGibibyteInMebibyteMessagesArrivesIntact() throws Exception {
        volume("large", 1024);
    }
}
