package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisProperties;
import ibis.ipl.PortType;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.Test;

/**
 * A JVM with the TCP implementation but without ibis-registry on its class path: creating an Ibis
 * fails with a message that names the missing artifact and where it may go.
 */
public class MissingRegistryTest {

    /** The child: creates a TCP Ibis and prints the failure's message on one line. */
    public static final class CreateIbisMain {
        private CreateIbisMain() {
        }

        /**
         * Runs the child.
         *
         * @param args unused
         * @throws Exception when something other than the creation fails
         */
        public static void main(String[] args) throws Exception {
            Properties p = new Properties();
            p.setProperty(IbisProperties.IMPLEMENTATION, "tcp");
            p.setProperty(IbisProperties.POOL_NAME, "missing-registry");
            p.setProperty(IbisProperties.SERVER_ADDRESS, "127.0.0.1:1");
            try {
                IbisFactory.createIbis(new IbisCapabilities(), p, false, null,
                        new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_BYTE)).end();
                System.out.println("CREATED");
            } catch (IbisCreationFailedException e) {
                System.out.println("FAILED " + e.getMessage().replace('\n', ' '));
            }
        }
    }

    @Test(timeOut = 90_000)
    public void withoutIbisRegistryTheMessageNamesTheArtifactAndTheImplementationPath() throws Exception {
        List<String> kept = new ArrayList<>();
        boolean removed = false;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String normalized = entry.replace(File.separatorChar, '/');
            if (normalized.contains("/registry/target/") || normalized.contains("/ibis-registry")) {
                removed = true;
            } else {
                kept.add(entry);
            }
        }
        assertTrue(removed, "the test class path holds ibis-registry: " + System.getProperty("java.class.path"));
        List<String> command = List.of(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                "-Xmx128m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp",
                String.join(File.pathSeparator, kept), CreateIbisMain.class.getName());
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child ended");
            String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(child.exitValue(), 0, out);
            assertFalse(out.contains("CREATED"), out);
            String line = out.lines().filter(l -> l.startsWith("FAILED ")).findFirst().orElse(out);
            assertTrue(line.contains("no registry implementation 'central' (" + IbisProperties.REGISTRY_IMPLEMENTATION
                    + ")"), line);
            assertTrue(line.contains("add the artifact ibis:ibis-registry"), "names the artifact: " + line);
            assertTrue(line.contains(IbisProperties.IMPLEMENTATION_PATH), "names the property: " + line);
        } finally {
            child.destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
