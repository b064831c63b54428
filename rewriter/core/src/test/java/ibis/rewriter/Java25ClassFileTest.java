package ibis.rewriter;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.util.CheckClassAdapter;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * Class files of Java 25 (major version 69), compiled by the JDK 25 javac that every machine of
 * this project has (the test fails when it is missing): rewritten with their version kept, and
 * run on JDK 25 in a child JVM, where the JVM's verifier checks the new code and the samples
 * round-trip through the generated members.
 */
public class Java25ClassFileTest {

    private static final int JAVA_25 = 69;

    private Path classes;

    @BeforeClass
    public void compileWithJdk25() throws Exception {
        classes = Samples.compileJava25(Samples.tempDir("java25"), SampleSources.corpus());
    }

    @AfterClass(alwaysRun = true)
    public void cleanUp() {
        Samples.delete(classes);
    }

    private int major(String className) throws Exception {
        byte[] b = Files.readAllBytes(classes.resolve(className.replace('.', '/') + ".class"));
        return ((b[6] & 0xff) << 8) | (b[7] & 0xff);
    }

    @Test(timeOut = 180_000)
    public void java25ClassFilesAreRewrittenKeepingTheirVersionAndRunOnJdk25() throws Exception {
        assertEquals(major("sample.Foo"), JAVA_25, "compiled for Java 25");
        RewriteResult r = new Rewriter().rewrite(List.of(classes));
        assertEquals(r.outcome("sample.Foo").status(), ClassOutcome.Status.REWRITTEN);
        assertEquals(r.outcome("sample.Outer$Inner").status(), ClassOutcome.Status.REWRITTEN);
        assertEquals(r.outcome("sample.Point").status(), ClassOutcome.Status.SKIPPED);
        assertEquals(major("sample.Foo"), JAVA_25, "the class file version is kept");
        assertEquals(major("sample.Foo_ibis_io_Generator"), JAVA_25, "the generator has the same version");
        for (Map.Entry<String, byte[]> e : Samples.snapshot(classes).entrySet()) {
            new ClassReader(e.getValue()).accept(new CheckClassAdapter(new ClassWriter(0), true), 0);
        }
        assertEquals(new Rewriter().rewrite(List.of(classes)).count(ClassOutcome.Status.REWRITTEN), 0, "idempotent");

        String java = Samples.JDK25.resolve("bin/java").toString();
        String classPath = System.getProperty("java.class.path") + File.pathSeparator + classes;
        Samples.ProcessResult child = Samples.run(
                List.of(java, "-Xss512k", "-cp", classPath, InteropPeer.class.getName(), "roundtrip"), 150);
        assertEquals(child.exitCode, 0, child.output);
        assertTrue(child.output.contains("rewritten=true"), child.output);
        assertTrue(child.output.contains("OK "), child.output);
    }
}
