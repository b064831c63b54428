package ibis.impl.mpi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.Map;

import org.testng.annotations.Test;

/** How {@link NativeLibrary} picks the build of the glue, and that the Open MPI build loads here. */
public class NativeLibraryTest {

    @Test
    public void thePropertyNamesTheMpiLibrary() throws Exception {
        assertSame(NativeLibrary.flavour("mpich", Map.of("OMPI_COMM_WORLD_RANK", "0")), NativeLibrary.MPICH);
        assertSame(NativeLibrary.flavour(" OpenMPI ", Map.of("PMI_RANK", "0")), NativeLibrary.OPEN_MPI);
    }

    @Test
    public void anUnknownPropertyValueIsRefusedWithTheKnownNames() {
        NativeLibrary.UnavailableException e = expectThrows(NativeLibrary.UnavailableException.class,
                () -> NativeLibrary.flavour("lam", Map.of()));
        assertTrue(e.getMessage().contains("openmpi") && e.getMessage().contains("mpich"), e.getMessage());
    }

    @Test
    public void theLauncherEnvironmentTellsOpenMpiFromMpich() throws Exception {
        assertSame(NativeLibrary.flavour(null, Map.of("OMPI_COMM_WORLD_RANK", "1")), NativeLibrary.OPEN_MPI);
        assertSame(NativeLibrary.flavour(null, Map.of("PMI_RANK", "1")), NativeLibrary.MPICH);
        assertSame(NativeLibrary.flavour("", Map.of("PMI_FD", "7")), NativeLibrary.MPICH);
    }

    @Test
    public void withoutLauncherOpenMpiIsAssumed() throws Exception {
        assertSame(NativeLibrary.flavour(null, Map.of()), NativeLibrary.OPEN_MPI);
    }

    @Test
    public void mpichNeedsUcxToLeaveTheSignalsAlone() {
        assertNull(NativeLibrary.signalCheck("", null));
        assertNull(NativeLibrary.signalCheck(null, "none"));
        assertNotNull(NativeLibrary.signalCheck(null, null));
        assertTrue(NativeLibrary.signalCheck("SIGSEGV", null).contains("UCX_ERROR_SIGNALS"));
    }

    @Test
    public void theOpenMpiBuildLoadsWithoutALauncher() throws Exception {
        assertNull(NativeLibrary.notBuiltReason(NativeLibrary.OPEN_MPI));
        NativeLibrary.load();
        assertEquals(MpiNative.flavour(), "openmpi");
        assertTrue(MpiNative.version().startsWith("Open MPI"), MpiNative.version());
        assertTrue(MpiNative.requestSize() == 4 || MpiNative.requestSize() == 8);
        assertEquals(MpiNative.rank(), -1, "rank before init");
    }
}
