package ibis.impl.ucx;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/** The loader's checks that need no native code. */
public class NativeLibraryTest {

    @Test
    public void platformNamesOsAndArchitectureAsTheBuildScriptDoes() {
        String os = System.getProperty("os.name");
        String arch = System.getProperty("os.arch");
        try {
            System.setProperty("os.name", "Linux");
            System.setProperty("os.arch", "amd64");
            assertEquals(NativeLibrary.platform(), "linux-x86_64");
            System.setProperty("os.arch", "aarch64");
            assertEquals(NativeLibrary.platform(), "linux-aarch64");
        } finally {
            System.setProperty("os.name", os);
            System.setProperty("os.arch", arch);
        }
    }

    @Test
    public void emptyErrorSignalsOrNoErrorHandlingLetsTheLibraryLoad() {
        assertNull(NativeLibrary.signalCheck("", null));
        assertNull(NativeLibrary.signalCheck(" ", "bt"));
        assertNull(NativeLibrary.signalCheck(null, "none"));
    }

    @Test
    public void errorSignalsLeftToUcxStopTheLoadAndNameTheFix() {
        String unset = NativeLibrary.signalCheck(null, null);
        assertTrue(unset.contains("UCX_ERROR_SIGNALS is not set") && unset.contains("UCX_ERROR_SIGNALS="), unset);
        String segv = NativeLibrary.signalCheck("SEGV", null);
        assertTrue(segv.contains("\"SEGV\"") && segv.contains("crash"), segv);
    }

    @Test
    public void theTestJvmHasUcxSignalsOff() {
        assertNull(NativeLibrary.signalCheck(System.getenv("UCX_ERROR_SIGNALS"), System.getenv("UCX_HANDLE_ERRORS")),
                "surefire's environmentVariables");
    }
}
