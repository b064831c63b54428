package ibis.ipl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotSame;
import static org.testng.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/**
 * Implementations in plug-in jars: the test compiles a small starter at run time, puts it in a jar
 * with its META-INF/services entry in a directory that is not on the class path, and names that
 * directory in ibis.implementation.path.
 */
public class PluginJarTest {

    private static final String STARTER_CLASS = "plugintest.JarPluginStarter";

    private static final String STARTER_SOURCE = "package plugintest;\n"
            + "import ibis.ipl.*;\n"
            + "import java.util.Properties;\n"
            + "public final class JarPluginStarter extends IbisStarter {\n"
            + "    public JarPluginStarter() { super(\"fake-plugin\", \"3.0\", \"1\"); }\n"
            + "    public int rank() { return 100; }\n"
            + "    public boolean matches(IbisCapabilities c, PortType[] t) {"
            + " return c.hasCapability(\"plugin.only\"); }\n"
            + "    public CapabilitySet unmatchedIbisCapabilities(IbisCapabilities c, PortType[] t) {\n"
            + "        return new CapabilitySet(\"plugin.only\").unmatchedCapabilities(c); }\n"
            + "    public PortType[] unmatchedPortTypes(IbisCapabilities c, PortType[] t) { return new PortType[0]; }\n"
            + "    public Ibis startIbis(IbisFactory f, RegistryEventHandler h, Properties p, IbisCapabilities c,\n"
            + "            Credentials cr, byte[] tag, PortType[] t, String sub) {\n"
            + "        return new ibis.ipl.FakeIbis(\"fake-plugin\", p, c, sub, tag); }\n"
            + "}\n";

    private Path root;

    @BeforeMethod
    public void createDirectory() throws IOException {
        root = Files.createTempDirectory("ibis-plugins");
    }

    @AfterMethod(alwaysRun = true)
    public void deleteDirectory() throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }

    /** Compiles the plug-in starter and packs it into {@code pluginDir/plugin.jar}. */
    private void buildPluginJar(Path pluginDir) throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new AssertionError("must be available on every supported JDK: no Java compiler in this runtime; "
                    + "cannot build the plug-in jar");
        }
        Path src = root.resolve("src/plugintest/JarPluginStarter.java");
        Path classes = root.resolve("classes");
        Files.createDirectories(src.getParent());
        Files.createDirectories(classes);
        Files.writeString(src, STARTER_SOURCE);
        int rc = compiler.run(null, null, null, "-proc:none", "-classpath", System.getProperty("java.class.path"),
                "-d", classes.toString(), src.toString());
        assertEquals(rc, 0, "compiling the plug-in starter failed");

        Files.createDirectories(pluginDir);
        try (OutputStream file = Files.newOutputStream(pluginDir.resolve("plugin.jar"));
                JarOutputStream jar = new JarOutputStream(file)) {
            jar.putNextEntry(new JarEntry("META-INF/services/ibis.ipl.IbisStarter"));
            jar.write((STARTER_CLASS + "\n").getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
            jar.putNextEntry(new JarEntry("plugintest/JarPluginStarter.class"));
            jar.write(Files.readAllBytes(classes.resolve("plugintest/JarPluginStarter.class")));
            jar.closeEntry();
        }
    }

    /** A jar whose services file names a class that does not exist. */
    private static void buildBrokenJar(Path pluginDir) throws IOException {
        try (OutputStream file = Files.newOutputStream(pluginDir.resolve("broken.jar"));
                JarOutputStream jar = new JarOutputStream(file)) {
            jar.putNextEntry(new JarEntry("META-INF/services/ibis.ipl.IbisStarter"));
            jar.write("plugintest.DoesNotExist\n".getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
        }
    }

    private static List<String> classNames(List<IbisStarter> starters) {
        List<String> result = new ArrayList<>();
        for (IbisStarter s : starters) {
            result.add(s.getClass().getName());
        }
        return result;
    }

    @Test(timeOut = 60_000)
    public void starterInPluginJarIsFoundThroughImplementationPath() throws Exception {
        Path plugins = root.resolve("plugins");
        buildPluginJar(plugins);
        buildBrokenJar(plugins);

        assertFalse(classNames(IbisFactory.findStarters(null)).contains(STARTER_CLASS),
                "the plug-in must not be on the class path");
        String path = root.resolve("does-not-exist") + File.pathSeparator + plugins;
        List<String> found = classNames(IbisFactory.findStarters(path));
        assertTrue(found.contains(STARTER_CLASS), found.toString());
        assertTrue(found.contains(FakeAlphaStarter.class.getName()), "class path starters are still found: " + found);

        Properties p = new Properties();
        p.setProperty(IbisProperties.IMPLEMENTATION_PATH, path);
        // Selected by rank (the plug-in ranks highest and is the only one offering plugin.only).
        Ibis ibis = IbisFactory.createIbis(new IbisCapabilities("plugin.only"), p, false, null);
        assertTrue(ibis instanceof FakeIbis, String.valueOf(ibis));
        assertEquals(((FakeIbis) ibis).starterNickName(), "fake-plugin");

        // Selected by nickname.
        p.setProperty(IbisProperties.IMPLEMENTATION, "fake-plugin:sub");
        FakeIbis named = (FakeIbis) IbisFactory.createIbis(new IbisCapabilities("plugin.only"), p, false, null);
        assertEquals(named.subImplementation(), "sub");

        // The plug-in class comes from its own loader, not the application's.
        for (IbisStarter s : IbisFactory.findStarters(path)) {
            if (s.getClass().getName().equals(STARTER_CLASS)) {
                assertNotSame(s.getClass().getClassLoader(), IbisFactory.class.getClassLoader());
            }
        }
    }

    @Test(timeOut = 60_000)
    public void singleJarFileMayBeNamedInImplementationPath() throws Exception {
        Path plugins = root.resolve("single");
        buildPluginJar(plugins);
        List<String> found = classNames(IbisFactory.findStarters(plugins.resolve("plugin.jar").toString()));
        assertTrue(found.contains(STARTER_CLASS), found.toString());
    }
}
