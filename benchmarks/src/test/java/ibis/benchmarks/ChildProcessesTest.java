package ibis.benchmarks;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.util.HashMap;
import java.util.Map;

import org.testng.annotations.Test;

/** What the suites give every process they start: native access, UCX on loopback and off the JVM's signals. */
public class ChildProcessesTest {

    @Test
    public void anEnvironmentWithoutTheUcxVariablesGetsLoopbackAndNoUcxSignalHandlers() {
        Map<String, String> env = ChildProcesses.completeEnvironment(new HashMap<>(Map.of("PATH", "/usr/bin")));
        assertEquals(env, Map.of("PATH", "/usr/bin", "UCX_NET_DEVICES", "lo", "UCX_ERROR_SIGNALS", ""));
    }

    @Test
    public void theUsersOwnValuesStay() {
        Map<String, String> env = ChildProcesses.completeEnvironment(new HashMap<>(Map.of("UCX_NET_DEVICES",
                "eth1", "UCX_ERROR_SIGNALS", "SIGILL")));
        assertEquals(env, Map.of("UCX_NET_DEVICES", "eth1", "UCX_ERROR_SIGNALS", "SIGILL"));
    }

    @Test
    public void aProcessBuilderGetsThemInItsEnvironment() {
        ProcessBuilder pb = ChildProcesses.prepare(new ProcessBuilder("true"));
        for (String name : ChildProcesses.ENVIRONMENT_DEFAULTS.keySet()) {
            String own = System.getenv(name);
            assertEquals(pb.environment().get(name), own != null ? own : ChildProcesses.ENVIRONMENT_DEFAULTS.get(name));
        }
    }

    @Test
    public void everyChildJvmGetsNativeAccessFirst() {
        assertEquals(ChildProcesses.jvmOptions().get(0), "--enable-native-access=ALL-UNNAMED");
        assertTrue(ChildProcesses.jvmOptions().stream().filter(ChildProcesses.NATIVE_ACCESS::equals).count() == 1);
    }

    @Test
    public void theImplementationIsTheSystemPropertyOrTcp() {
        String old = System.getProperty(ChildProcesses.IMPLEMENTATION_PROPERTY);
        try {
            System.clearProperty(ChildProcesses.IMPLEMENTATION_PROPERTY);
            assertEquals(ChildProcesses.implementation(), "tcp");
            System.setProperty(ChildProcesses.IMPLEMENTATION_PROPERTY, "ucx");
            assertEquals(ChildProcesses.implementation(), "ucx");
        } finally {
            if (old == null) {
                System.clearProperty(ChildProcesses.IMPLEMENTATION_PROPERTY);
            } else {
                System.setProperty(ChildProcesses.IMPLEMENTATION_PROPERTY, old);
            }
        }
    }
}
