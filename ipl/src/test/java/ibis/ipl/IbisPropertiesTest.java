package ibis.ipl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;

import ibis.io.config.Property;
import ibis.io.config.PropertyTable;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.stream.Stream;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

public class IbisPropertiesTest {

    private Path root;

    @BeforeMethod
    public void createDirectories() throws IOException {
        root = Files.createTempDirectory("ibis-properties");
    }

    @AfterMethod(alwaysRun = true)
    public void deleteDirectories() throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }

    private static void write(Path file, String... lines) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, java.util.Arrays.asList(lines));
    }

    @Test
    public void hardcodedDefaults() {
        Properties p = IbisProperties.getHardcodedProperties();
        assertNull(p.getProperty(IbisProperties.IMPLEMENTATION));
        assertNull(p.getProperty(IbisProperties.POOL_NAME));
        assertNull(p.getProperty(IbisProperties.SERVER_ADDRESS));
        assertEquals(p.getProperty(IbisProperties.LOCATION), Location.DEFAULT_LOCATION);
        assertEquals(p.getProperty(IbisProperties.REGISTRY_IMPLEMENTATION), "central");
        p.setProperty(IbisProperties.POOL_NAME, "changed");
        assertNull(IbisProperties.getHardcodedProperties().getProperty(IbisProperties.POOL_NAME),
                "every call returns a fresh copy");
    }

    @Test
    public void everyPropertyConstantIsDescribed() {
        Map<String, String> d = IbisProperties.getDescriptions();
        for (String name : new String[] { IbisProperties.IMPLEMENTATION, IbisProperties.STARTER,
                IbisProperties.PROPERTIES_FILE, IbisProperties.IMPLEMENTATION_PATH, IbisProperties.VERBOSE,
                IbisProperties.POOL_NAME, IbisProperties.POOL_SIZE, IbisProperties.SERVER_ADDRESS,
                IbisProperties.SERVER_IS_HUB, IbisProperties.HUB_ADDRESSES, IbisProperties.REGISTRY_IMPLEMENTATION,
                IbisProperties.LOCATION, IbisProperties.LOCATION_COLOR }) {
            assertTrue(d.containsKey(name), name);
            assertFalse(d.get(name).isEmpty(), name);
        }
        assertTrue(d.get(IbisProperties.SERVER_ADDRESS).contains("8888"));
    }

    @Test
    public void iplPropertyTableIsRegisteredWithDefaults() {
        PropertyTable ipl = null;
        for (PropertyTable t : ServiceLoader.load(PropertyTable.class)) {
            if (t.subsystem().equals("ipl")) {
                ipl = t;
            }
        }
        assertTrue(ipl != null, "no PropertyTable for subsystem ipl registered");
        assertEquals(ipl.properties().size(), IbisProperties.getDescriptions().size());
        boolean sawLocation = false;
        for (Property<?> e : ipl.properties()) {
            assertEquals(e.meaning(), IbisProperties.getDescriptions().get(e.name()));
            if (e.name().equals(IbisProperties.LOCATION)) {
                assertEquals(e.defaultText(), Location.DEFAULT_LOCATION);
                sawLocation = true;
            }
            if (e.name().equals(IbisProperties.POOL_NAME)) {
                assertNull(e.defaultText());
            }
        }
        assertTrue(sawLocation);
    }

    /**
     * Every source sets the keys of its own level and all higher levels to its own name, so the
     * value of the key of each level shows which source won.
     */
    @Test
    public void sourcesOverrideEachOtherInIncreasingPriority() throws IOException {
        Path classPath = root.resolve("cp");
        Path workDir = root.resolve("work");
        Path named = root.resolve("named.properties");
        write(classPath.resolve(IbisProperties.PROPERTIES_FILENAME),
                "ibis.t.cp=cp", "ibis.t.wd=cp", "ibis.t.file=cp", "ibis.t.sys=cp", "ibis.t.given=cp",
                IbisProperties.LOCATION + "=here@cp");
        write(workDir.resolve(IbisProperties.PROPERTIES_FILENAME),
                "ibis.t.wd=wd", "ibis.t.file=wd", "ibis.t.sys=wd", "ibis.t.given=wd",
                IbisProperties.PROPERTIES_FILE + "=" + named.toString().replace("\\", "\\\\"));
        write(named, "ibis.t.file=file", "ibis.t.sys=file", "ibis.t.given=file");
        Properties system = new Properties();
        system.setProperty("ibis.t.sys", "sys");
        system.setProperty("ibis.t.given", "sys");
        system.setProperty("not.ibis.key", "sys");
        Properties given = new Properties();
        given.setProperty("ibis.t.given", "given");
        given.setProperty("other.given", "given");

        try (URLClassLoader loader = new URLClassLoader(new URL[] { classPath.toUri().toURL() }, null)) {
            Properties p = IbisFactory.resolveProperties(given, true, loader, workDir.toFile(), system);
            assertEquals(p.getProperty("ibis.t.cp"), "cp");
            assertEquals(p.getProperty("ibis.t.wd"), "wd");
            assertEquals(p.getProperty("ibis.t.file"), "file");
            assertEquals(p.getProperty("ibis.t.sys"), "sys");
            assertEquals(p.getProperty("ibis.t.given"), "given");
            assertEquals(p.getProperty("other.given"), "given", "given properties need no ibis. prefix");
            assertNull(p.getProperty("not.ibis.key"), "only ibis.* system properties are used");
            assertEquals(p.getProperty(IbisProperties.LOCATION), "here@cp", "files override the defaults");
            assertEquals(p.getProperty(IbisProperties.REGISTRY_IMPLEMENTATION), "central");

            Properties onlyGiven = IbisFactory.resolveProperties(given, false, loader, workDir.toFile(), system);
            assertEquals(onlyGiven.getProperty("ibis.t.given"), "given");
            assertNull(onlyGiven.getProperty("ibis.t.cp"));
            assertNull(onlyGiven.getProperty("ibis.t.wd"));
            assertNull(onlyGiven.getProperty("ibis.t.sys"));
            assertEquals(onlyGiven.getProperty(IbisProperties.LOCATION), Location.DEFAULT_LOCATION);
        }
    }

    @Test
    public void propertiesFileNamedByGivenPropertiesIsRead() throws IOException {
        Path named = root.resolve("mine.properties");
        write(named, "ibis.t.mine=yes", "ibis.t.given=file");
        Properties given = new Properties();
        given.setProperty(IbisProperties.PROPERTIES_FILE, named.toString());
        given.setProperty("ibis.t.given", "given");
        try (URLClassLoader loader = new URLClassLoader(new URL[0], null)) {
            Properties p = IbisFactory.resolveProperties(given, true, loader, root.toFile(), new Properties());
            assertEquals(p.getProperty("ibis.t.mine"), "yes");
            assertEquals(p.getProperty("ibis.t.given"), "given");
        }
    }

    @Test
    public void missingNamedPropertiesFileIsAnError() throws IOException {
        Properties system = new Properties();
        system.setProperty(IbisProperties.PROPERTIES_FILE, root.resolve("absent.properties").toString());
        try (URLClassLoader loader = new URLClassLoader(new URL[0], null)) {
            FileNotFoundException e = org.testng.Assert.expectThrows(FileNotFoundException.class,
                    () -> IbisFactory.resolveProperties(null, true, loader, root.toFile(), system));
            assertTrue(e.getMessage().contains("absent.properties"), e.getMessage());
        }
    }

    @Test
    public void systemPropertiesAreUsedOnlyWithDefaultConfig() throws IOException {
        String key = "ibis.t.system.only";
        System.setProperty(key, "present");
        try {
            assertEquals(IbisFactory.resolveProperties(null, true).getProperty(key), "present");
            assertEquals(IbisProperties.getDefaultProperties().getProperty(key), "present");
            assertNull(IbisFactory.resolveProperties(new Properties(), false).getProperty(key));
        } finally {
            System.clearProperty(key);
        }
    }

    @Test
    public void malformedPropertiesFileIsAnIOException() throws IOException {
        Path workDir = root.resolve("bad");
        Files.createDirectories(workDir);
        // A malformed unicode escape makes Properties.load fail.
        Files.writeString(workDir.resolve(IbisProperties.PROPERTIES_FILENAME), "ibis.x=\\uZZZZ\n");
        try (URLClassLoader loader = new URLClassLoader(new URL[0], null)) {
            assertThrows(IOException.class,
                    () -> IbisFactory.resolveProperties(null, true, loader, workDir.toFile(), new Properties()));
        }
    }
}
