package ibis.ipl.tck;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.CapabilitySet;
import ibis.ipl.Credentials;
import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisStarter;
import ibis.ipl.PortType;
import ibis.ipl.RegistryEventHandler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.testng.annotations.Test;

/**
 * The suite tests a plug-in that was installed the way the architecture says plug-ins are
 * installed: its jar dropped in a directory named by {@code ibis.implementation.path}, not put on
 * the class path ({@code IbisFactory} finds it there; so must the suite, in its own JVM and in the
 * child JVMs of the multi-process tests).
 */
public class ImplementationUnderTestTest {

    /** The nickname of the starter that is registered only in a plug-in jar made by the test. */
    private static final String NICKNAME = "tck-path-only";

    /** A starter registered in a plug-in jar only (its class itself is on the test class path). */
    public static final class PathOnlyStarter extends IbisStarter {

        /** Used by {@link java.util.ServiceLoader}. */
        public PathOnlyStarter() {
            super(NICKNAME, "3.0", "test");
        }

        @Override
        public boolean matches(IbisCapabilities capabilities, PortType[] portTypes) {
            return false;
        }

        @Override
        public CapabilitySet unmatchedIbisCapabilities(IbisCapabilities capabilities, PortType[] portTypes) {
            return new CapabilitySet();
        }

        @Override
        public PortType[] unmatchedPortTypes(IbisCapabilities capabilities, PortType[] portTypes) {
            return new PortType[0];
        }

        @Override
        public Ibis startIbis(IbisFactory factory, RegistryEventHandler handler, Properties userProperties,
                IbisCapabilities capabilities, Credentials credentials, byte[] applicationTag, PortType[] portTypes,
                String specifiedSubImplementation) throws IbisCreationFailedException {
            throw new IbisCreationFailedException("not startable");
        }
    }

    /** A directory with one plug-in jar that registers {@link PathOnlyStarter}. */
    private static Path pluginDirectory() throws IOException {
        Path dir = Files.createTempDirectory("tck-plugins");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(dir.resolve("path-only.jar")))) {
            out.putNextEntry(new JarEntry("META-INF/services/" + IbisStarter.class.getName()));
            out.write((PathOnlyStarter.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return dir;
    }

    private static ClassLoader classPath() {
        return ImplementationUnderTestTest.class.getClassLoader();
    }

    @Test
    public void aPlugInNamedByNicknameIsFoundInTheImplementationPath() throws Exception {
        Path dir = pluginDirectory();
        IbisStarter s = ImplementationUnderTest.choose(NICKNAME, dir.toString(), classPath());
        assertEquals(s.getClass().getName(), PathOnlyStarter.class.getName());
        assertEquals(s.getNickName(), NICKNAME);
    }

    @Test
    public void aPlugInNamedByClassNameIsFoundInTheImplementationPath() throws Exception {
        Path dir = pluginDirectory();
        IbisStarter s = ImplementationUnderTest.choose(PathOnlyStarter.class.getName(), dir.toString(), classPath());
        assertEquals(s.getNickName(), NICKNAME);
    }

    @Test
    public void theOnlyStarterInTheImplementationPathIsTestedWhenNoneIsNamed() throws Exception {
        // This module's test class path registers no starter: the plug-in jar's is the only one.
        Path dir = pluginDirectory();
        assertEquals(ImplementationUnderTest.choose("", dir.toString(), classPath()).getNickName(), NICKNAME);
        assertEquals(ImplementationUnderTest.choose(null, dir.toString(), classPath()).getNickName(), NICKNAME);
    }

    @Test
    public void anUnknownNameSaysWhereTheSuiteLooked() throws Exception {
        Path dir = pluginDirectory();
        IllegalStateException e = expectThrows(IllegalStateException.class,
                () -> ImplementationUnderTest.choose("tck-nothing", dir.toString(), classPath()));
        assertTrue(e.getMessage().contains("tck-nothing"), e.getMessage());
        assertTrue(e.getMessage().contains("ibis.implementation.path=" + dir), e.getMessage());
        assertTrue(e.getMessage().contains(NICKNAME), "lists what it found: " + e.getMessage());
        IllegalStateException none = expectThrows(IllegalStateException.class,
                () -> ImplementationUnderTest.choose(NICKNAME, null, classPath()));
        assertTrue(none.getMessage().contains("on the class path"), none.getMessage());
    }

    @Test
    public void childJvmsOfTheMultiProcessTestsGetTheImplementationPath() throws Exception {
        Path dir = pluginDirectory();
        List<String> options = ImplementationUnderTest.peerJvmOptions(NICKNAME, dir.toString());
        assertTrue(options.contains("-Dibis.implementation=" + NICKNAME), options.toString());
        assertTrue(options.contains("-Dibis.implementation.path=" + dir), options.toString());
        assertEquals(ImplementationUnderTest.peerJvmOptions(NICKNAME, null),
                List.of("-Xmx256m", "-Dibis.implementation=" + NICKNAME));
    }
}
