package ibis.impl.mpi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.Test;

/**
 * The {@code mpi} starter says why it cannot run, in a fresh JVM (this one has MPI initialized): a
 * glue library that cannot be loaded with no usable bindings (the factory then skips {@code mpi}),
 * the bindings without {@code libmpi_java} in {@code java.library.path}; and it is available when
 * the glue loads.
 */
public class StarterAvailabilityTest {

    private static String reason(String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED"));
        command.addAll(List.of(options));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), StarterAvailabilityMain.class.getName()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectInput(new File("/dev/null"))
                .start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the JVM ended");
        assertEquals(p.exitValue(), 0);
        String text = new String(out, StandardCharsets.UTF_8);
        int at = text.indexOf("reason=");
        assertTrue(at >= 0, text);
        return text.substring(at + "reason=".length()).strip();
    }

    @Test(timeOut = 60_000)
    public void anUnloadableGlueWithoutBindingsIsUnavailableWithTheReason() throws Exception {
        String reason = reason("-Dibis.mpi.library=/nonexistent/libibis-mpi.so", "-Djava.library.path=/nonexistent");
        assertTrue(reason.contains("ibis.mpi.library=/nonexistent/libibis-mpi.so: no such file"), reason);
    }

    @Test(timeOut = 60_000)
    public void theBindingsWithoutTheirLibraryAreUnavailableWithTheFix() throws Exception {
        String reason = reason("-Dibis.mpi.backend=bindings", "-Djava.library.path=/nonexistent");
        assertTrue(reason.contains("java.library.path") || reason.contains("not on the class path"), reason);
    }

    @Test(timeOut = 60_000)
    public void theGlueMakesMpiAvailable() throws Exception {
        assertEquals(reason("-Dibis.mpi.backend=glue"), "null");
    }
}
