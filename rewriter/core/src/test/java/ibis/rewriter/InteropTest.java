package ibis.rewriter;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import java.io.File;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * Rewritten and non-rewritten peers in two JVMs: this JVM holds the rewritten sample classes, a
 * child JVM has the non-rewritten ones on its class path. A rewritten writer's messages are read
 * by the non-rewritten reader, and the reverse, each graph checked by deep equality and identity
 * structure. The child's run-time serializers are the nestmate variant (classes on the class
 * path): they write exactly the bytes of the rewritten code.
 */
public class InteropTest {

    private Path plain;
    private Path rewritten;
    private Path exchange;
    private URLClassLoader rewrittenLoader;

    @BeforeClass
    public void compileAndRewrite() throws Exception {
        plain = Samples.compile(Samples.tempDir("interop-plain"), SampleSources.corpus());
        rewritten = Samples.tempDir("interop-rewritten");
        RewriterTest.copyTree(plain, rewritten);
        new Rewriter().rewrite(List.of(rewritten));
        rewrittenLoader = Samples.loader(rewritten);
        exchange = Samples.tempDir("interop-files");
    }

    @AfterClass(alwaysRun = true)
    public void cleanUp() throws Exception {
        rewrittenLoader.close();
        Samples.delete(plain);
        Samples.delete(rewritten);
        Samples.delete(exchange);
    }

    private Samples.ProcessResult child(String mode, Path file) throws Exception {
        String classPath = System.getProperty("java.class.path") + File.pathSeparator + plain;
        return Samples.run(List.of(Samples.javaBin(), "-Xss512k", "-cp", classPath, InteropPeer.class.getName(), mode,
                file.toString()), 120);
    }

    @Test(timeOut = 180_000)
    public void rewrittenWriterNonRewrittenReaderInAnotherJvm() throws Exception {
        Path file = exchange.resolve("from-rewritten.bin");
        Files.write(file, InteropPeer.write(rewrittenLoader, InteropPeer.graphs(rewrittenLoader)));
        Samples.ProcessResult r = child("read", file);
        assertEquals(r.exitCode, 0, r.output);
        assertTrue(r.output.contains("rewritten=false"), "the child has the non-rewritten classes: " + r.output);
        assertTrue(r.output.contains("OK "), r.output);
    }

    @Test(timeOut = 180_000)
    public void nonRewrittenWriterInAnotherJvmRewrittenReader() throws Exception {
        Path file = exchange.resolve("from-plain.bin");
        Samples.ProcessResult r = child("write", file);
        assertEquals(r.exitCode, 0, r.output);
        assertTrue(r.output.contains("rewritten=false"), r.output);
        assertTrue(r.output.contains("codec=ibis.io.FieldCodec$Nestmate$Level3"), "nestmate field code: " + r.output);
        Object[] expected = InteropPeer.graphs(rewrittenLoader);
        byte[] byRewritten = InteropPeer.write(rewrittenLoader, expected);
        assertTrue(java.util.Arrays.equals(Files.readAllBytes(file), byRewritten),
                "the same bytes as the rewritten code");
        Object[] read = InteropPeer.read(rewrittenLoader, Files.readAllBytes(file), expected.length);
        assertNull(InteropPeer.compare(expected, read));
        assertTrue(read[0] instanceof ibis.io.Serializable, "read into rewritten classes");
    }
}
