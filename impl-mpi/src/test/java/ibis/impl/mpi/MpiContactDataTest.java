package ibis.impl.mpi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertThrows;

import java.io.IOException;

import org.testng.annotations.Test;

/**
 * The contact data of an MPI member: it round-trips, hostile bytes are an IOException, and two
 * singleton processes (separate jobs) get different job hashes, so {@link MpiTransport#connect}
 * refuses a member of another job instead of sending it messages.
 */
public class MpiContactDataTest {

    @Test
    public void roundTrips() throws IOException {
        MpiContactData c = MpiContactData.parse(new MpiContactData(3, 7, 4, 0x1234_5678_9abcL).toBytes());
        assertEquals(c.rank, 3);
        assertEquals(c.instance, 7);
        assertEquals(c.worldSize, 4);
        assertEquals(c.job, 0x1234_5678_9abcL);
    }

    @Test
    public void hostileBytesAreRefused() {
        assertThrows(IOException.class, () -> MpiContactData.parse(null));
        assertThrows(IOException.class, () -> MpiContactData.parse(new byte[3]));
        assertThrows(IOException.class, () -> MpiContactData.parse(new byte[100]));
        byte[] wrongVersion = new MpiContactData(0, 0, 1, 1).toBytes();
        wrongVersion[0] = 9;
        assertThrows(IOException.class, () -> MpiContactData.parse(wrongVersion));
        assertThrows(IOException.class, () -> MpiContactData.parse(new MpiContactData(4, 0, 4, 1).toBytes()));
        assertThrows(IOException.class, () -> MpiContactData.parse(new MpiContactData(-1, 0, 4, 1).toBytes()));
    }

    @Test
    public void theJobHashTellsSingletonsApartAndNamesTheMpi() {
        long here = MpiContactData.jobHash("glue/openmpi", 1);
        assertEquals(MpiContactData.jobHash("glue/openmpi", 1), here);
        assertNotEquals(MpiContactData.jobHash("glue/mpich", 1), here);
    }
}
