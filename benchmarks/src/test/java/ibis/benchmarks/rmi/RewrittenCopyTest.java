package ibis.benchmarks.rmi;

import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import org.testng.annotations.Test;

/**
 * The build-time rewriting the suites rely on: the ibisrmi copy of the rmi programs uses Ibis RMI
 * (ibis.rmi names in its class files, none of the four java.rmi names the java-rmi pass renames),
 * while target/classes keeps the plain java.rmi programs; and the ipl suite's tree class is
 * rewritten for the Ibis serialization.
 */
public class RewrittenCopyTest {

    private static final List<String> RENAMED = List.of("java/rmi/Naming", "java/rmi/registry/",
            "java/rmi/server/UnicastRemoteObject");

    @Test(timeOut = 30_000)
    public void theIbisRmiCopyReferencesIbisRmiAndNotTheJavaRmiRegistryOrExport() throws IOException {
        for (String name : List.of("RmiBenchServer", "RmiBenchClient", "CallbackImpl")) {
            String rewritten = rewrittenClass("ibis/benchmarks/rmi/" + name + ".class");
            assertTrue(rewritten.contains("ibis/rmi/"), name + " of the ibisrmi copy names no ibis.rmi class");
            for (String javaRmi : RENAMED) {
                assertFalse(rewritten.contains(javaRmi), name + " of the ibisrmi copy still names " + javaRmi);
            }
            String compiled = compiledClass(name);
            assertFalse(compiled.contains("ibis/rmi/"), name + " as compiled must be plain java.rmi");
            assertTrue(RENAMED.stream().anyMatch(compiled::contains), name + " as compiled names no java.rmi class");
        }
        // Exceptions and java.rmi.Remote stay the JDK's.
        assertTrue(rewrittenClass("ibis/benchmarks/rmi/RmiBenchClient.class").contains("java/rmi/RemoteException"));
    }

    @Test(timeOut = 30_000)
    public void serializableClassesOfTheCopyCarryIbisSerializers() throws IOException {
        for (String name : List.of("Tree", "Ints4", "Ints32", "Ints4Null2")) {
            assertTrue(rewrittenClass("ibis/benchmarks/rmi/" + name + ".class").contains("ibis/io/Serializable"),
                    name + " of the ibisrmi copy is not rewritten for Ibis serialization");
            assertFalse(compiledClass(name).contains("ibis/io/Serializable"),
                    name + " as compiled must stay a plain Serializable (the java.rmi side)");
        }
    }

    @Test(timeOut = 30_000)
    public void theIplSuitesTreeIsRewritten() {
        assertTrue(ibis.io.Serializable.class.isAssignableFrom(ibis.benchmarks.ipl.TreeNode.class),
                "ibis.benchmarks.ipl.TreeNode should be rewritten by the build's serialization staging");
    }

    /** The class file's bytes as ISO-8859-1 text: the constant pool's names appear literally. */
    private static String rewrittenClass(String entry) throws IOException {
        for (String element : RmiProcesses.ibisRmiClassPath().split(File.pathSeparator)) {
            Path p = Path.of(element);
            if (Files.isDirectory(p)) {
                Path f = p.resolve(entry);
                if (Files.exists(f)) {
                    return new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                }
            } else {
                try (JarFile jar = new JarFile(p.toFile())) {
                    ZipEntry e = jar.getEntry(entry);
                    if (e != null) {
                        return new String(jar.getInputStream(e).readAllBytes(), StandardCharsets.ISO_8859_1);
                    }
                }
            }
        }
        throw new AssertionError(entry + " is not in the ibisrmi copy " + RmiProcesses.ibisRmiClassPath());
    }

    private static String compiledClass(String simpleName) throws IOException {
        try (var in = RewrittenCopyTest.class.getResourceAsStream("/ibis/benchmarks/rmi/" + simpleName + ".class")) {
            if (in == null) {
                throw new AssertionError(simpleName + ".class is not on the test class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
