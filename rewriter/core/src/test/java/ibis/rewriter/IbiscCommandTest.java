package ibis.rewriter;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/** The {@code ibisc} command line: options, the -v listing, and the exit status (0 ok, 1 failure, 2 usage). */
public class IbiscCommandTest {

    private Path dir;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeMethod
    public void compile() throws Exception {
        dir = Samples.compile(Samples.tempDir("ibisc"), Map.of(
                "c/Plain.java", "package c; public class Plain implements java.io.Serializable { int i; }",
                "c/Hooked.java", """
                        package c;
                        public class Hooked implements java.io.Serializable {
                            private void writeObject(java.io.ObjectOutputStream out) { }
                        }
                        """,
                "c/NotSer.java", "package c; public class NotSer { }",
                "c/UsesDep.java", "package c; public class UsesDep implements java.io.Serializable { d.Dep dep; }",
                "d/Dep.java", "package d; public final class Dep implements java.io.Serializable { }"));
        out.reset();
        err.reset();
    }

    @AfterMethod(alwaysRun = true)
    public void cleanUp() {
        Samples.delete(dir);
    }

    private int ibisc(String... args) {
        return Ibisc.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    public void verboseListsEveryClassWithWhatWasDoneAndWhy() {
        assertEquals(ibisc("-v", dir.toString()), Ibisc.OK, err());
        String o = out();
        assertTrue(o.contains("rewritten c.Plain"), o);
        assertTrue(o.contains("skipped   c.Hooked: declares writeObject(ObjectOutputStream)"), o);
        assertTrue(o.contains("skipped   c.NotSer: not Serializable"), o);
        assertTrue(o.contains("ibisc: 3 rewritten"), o); // Plain, UsesDep, Dep
        assertTrue(Files.exists(dir.resolve("c/Plain_ibis_io_Generator.class")));
        out.reset();
        assertEquals(ibisc("-v", dir.toString()), Ibisc.OK, err());
        assertTrue(out().contains("unchanged c.Plain: already rewritten"), out());
        assertTrue(out().contains("ibisc: 0 rewritten, 3 already rewritten"), out());
    }

    @Test
    public void quietByDefault() {
        assertEquals(ibisc(dir.toString()), Ibisc.OK, err());
        assertEquals(out(), "");
        assertEquals(err(), "");
        assertTrue(Files.exists(dir.resolve("c/Plain_ibis_io_Generator.class")));
    }

    @Test
    public void classPathOptionIsUsedForLookups() throws Exception {
        Path dep = dir.resolve("d");
        Path depRoot = Samples.tempDir("ibisc-dep");
        try {
            Files.createDirectories(depRoot.resolve("d"));
            Files.move(dep.resolve("Dep.class"), depRoot.resolve("d/Dep.class"));
            assertEquals(ibisc("-v", dir.toString()), Ibisc.OK, err());
            assertTrue(out().contains("skipped   c.UsesDep: the type of field dep (d.Dep)"), out());
            out.reset();
            assertEquals(ibisc("-v", "-cp", "/nonexistent" + File.pathSeparator + depRoot, dir.toString()), Ibisc.OK,
                    err());
            assertTrue(out().contains("rewritten c.UsesDep"), out());
        } finally {
            Samples.delete(depRoot);
        }
    }

    /** A build written for IPL 2.x's ibisc (or gmic, which passed -gmi) runs unchanged. */
    @Test
    public void theOptionsOfIpl2sIbiscAreAccepted() {
        assertEquals(ibisc("-verbose", "-rmi", "-gmi", "-iogen-force", "-keep", "-no-verify", "-no-compress",
                "-no-debug", dir.toString()), Ibisc.OK, err());
        assertTrue(out().contains("rewritten c.Plain"), "-verbose lists: " + out());
        assertTrue(Files.exists(dir.resolve("c/Plain_ibis_io_Generator.class")));
        out.reset();
        assertEquals(ibisc("-help"), Ibisc.OK, err());
        assertTrue(out().contains("usage: ibisc"), out());
    }

    @Test
    public void usageErrorsExitWithTwo() {
        assertEquals(ibisc(), Ibisc.USAGE);
        assertTrue(err().contains("no input"), err());
        assertTrue(err().contains("usage: ibisc"), err());
        err.reset();
        assertEquals(ibisc("--frobnicate", dir.toString()), Ibisc.USAGE);
        assertTrue(err().contains("unknown option --frobnicate"), err());
        err.reset();
        assertEquals(ibisc("-cp"), Ibisc.USAGE);
        assertTrue(err().contains("-cp needs a class path"), err());
        err.reset();
        assertEquals(ibisc(dir.resolve("missing").toString()), Ibisc.USAGE);
        assertTrue(err().contains("no such file or directory"), err());
        err.reset();
        assertEquals(ibisc(dir.resolve("c/Plain.class").toString()), Ibisc.USAGE);
        assertTrue(err().contains("not a directory or a .jar file"), err());
        assertTrue(Files.notExists(dir.resolve("c/Plain_ibis_io_Generator.class")), "nothing was rewritten");
    }

    @Test
    public void helpExitsWithZero() {
        assertEquals(ibisc("--help"), Ibisc.OK);
        assertTrue(out().contains("usage: ibisc [-v] [-cp PATH]"), out());
    }

    @Test
    public void brokenClassFileExitsWithOneNamingIt() throws Exception {
        Files.write(dir.resolve("c/Broken.class"), new byte[] {1, 2, 3});
        assertEquals(ibisc(dir.toString()), Ibisc.FAILURE);
        assertTrue(err().contains("c" + File.separator + "Broken.class"), err());
        assertTrue(Files.notExists(dir.resolve("c/Plain_ibis_io_Generator.class")), "nothing written after a failure");
    }

    @Test
    public void javaRmiOptionWithoutJavaRmiReferencesOnlyAddsSerializers() {
        assertEquals(ibisc("-v", "--java-rmi", dir.toString()), Ibisc.OK);
        assertTrue(out().contains("rewritten c.Plain"), out());
        assertTrue(out().contains(", 0 renamed from java.rmi to ibis.rmi"), out());
        assertFalse(err().contains("warning"), err());
    }

    @Test(timeOut = 60_000)
    public void mainExitsWithTheStatusInAChildJvm() throws Exception {
        List<String> base = List.of(Samples.javaBin(), "-cp", System.getProperty("java.class.path"),
                Ibisc.class.getName());
        Samples.ProcessResult ok = Samples.run(concat(base, "-v", dir.toString()), 60);
        assertEquals(ok.exitCode, 0, ok.output);
        assertTrue(ok.output.contains("rewritten c.Plain"), ok.output);
        Samples.ProcessResult usage = Samples.run(concat(base, "-x"), 60);
        assertEquals(usage.exitCode, 2, usage.output);
        Files.write(dir.resolve("c/Broken.class"), new byte[] {(byte) 0xca, (byte) 0xfe});
        Samples.ProcessResult failure = Samples.run(concat(base, dir.toString()), 60);
        assertEquals(failure.exitCode, 1, failure.output);
        assertTrue(failure.output.contains("Broken.class"), failure.output);
    }

    private static List<String> concat(List<String> a, String... b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(List.of(b));
        return all;
    }
}
