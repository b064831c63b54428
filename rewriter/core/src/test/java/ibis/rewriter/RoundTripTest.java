package ibis.rewriter;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * Rewritten classes through the ibis serialization (ibis.io), in this JVM: the stream uses the
 * generated members, every sample graph (cycles, shared references, inner/anonymous/local/generic
 * classes, final fields, Object fields, a 100,000-node list, classes the rewriter skipped) comes
 * back equal, and the rewritten and the run-time generated paths write the same bytes and read
 * each other's. Both paths follow one field plan (ibis.io.codegen.FieldPlan); the per-graph tests
 * below pin that they agree for each of its layouts, with the run-time serializers in both their
 * variants (fields reached directly by a nestmate class, or through method handles).
 */
public class RoundTripTest {

    private Path plain;
    private Path rewritten;
    private URLClassLoader plainLoader;
    private URLClassLoader rewrittenLoader;

    @BeforeClass
    public void compileAndRewrite() throws Exception {
        plain = Samples.compile(Samples.tempDir("rt-plain"), SampleSources.corpus());
        rewritten = Samples.tempDir("rt-rewritten");
        RewriterTest.copyTree(plain, rewritten);
        new Rewriter().rewrite(List.of(rewritten));
        plainLoader = Samples.loader(plain);
        rewrittenLoader = Samples.loader(rewritten);
    }

    @AfterClass(alwaysRun = true)
    public void cleanUp() throws Exception {
        plainLoader.close();
        rewrittenLoader.close();
        Samples.delete(plain);
        Samples.delete(rewritten);
    }

    /** The simple name of the class of the stream's codec for {@code type} (ibis.io internals, via reflection). */
    private static String codecKind(Class<?> type) throws Exception {
        Class<?> serialClass = Class.forName("ibis.io.SerialClass");
        Method of = serialClass.getDeclaredMethod("of", Class.class);
        of.setAccessible(true);
        Method codec = serialClass.getDeclaredMethod("codec");
        codec.setAccessible(true);
        return codec.invoke(of.invoke(null, type)).getClass().getSimpleName();
    }

    @Test(timeOut = 60_000)
    public void theStreamUsesTheGeneratedMembersOfRewrittenClasses() throws Exception {
        for (String name : List.of("sample.Foo", "sample.Base", "sample.Shapes", "sample.Outer$Inner", "sample.Outer$1",
                "sample.Box", "sample.FinalFields", "sample.Node", "sample.Circle")) {
            assertEquals(codecKind(Class.forName(name, true, rewrittenLoader)), "RewrittenCodec", name + " rewritten");
            assertFalse(codecKind(Class.forName(name, true, plainLoader)).equals("RewrittenCodec"),
                    name + " not rewritten");
        }
    }

    @Test(timeOut = 120_000)
    public void everySampleGraphRoundTripsThroughRewrittenCode() throws Exception {
        Object[] graphs = InteropPeer.graphs(rewrittenLoader);
        Object[] copies = InteropPeer.read(rewrittenLoader, InteropPeer.write(rewrittenLoader, graphs), graphs.length);
        assertNull(InteropPeer.compare(graphs, copies));
        assertEquals(copies[0].getClass().getClassLoader(), rewrittenLoader);
    }

    @Test(timeOut = 120_000)
    public void rewrittenAndRunTimePathsWriteTheSameBytes() throws Exception {
        byte[] viaRewritten = InteropPeer.write(rewrittenLoader, InteropPeer.graphs(rewrittenLoader));
        byte[] viaRunTime = InteropPeer.write(plainLoader, InteropPeer.graphs(plainLoader));
        assertEquals(viaRewritten.length, viaRunTime.length);
        assertTrue(java.util.Arrays.equals(viaRewritten, viaRunTime), "same wire bytes");
    }

    @Test(timeOut = 120_000)
    public void rewrittenAndRunTimePathsReadEachOther() throws Exception {
        Object[] rewrittenGraphs = InteropPeer.graphs(rewrittenLoader);
        Object[] plainGraphs = InteropPeer.graphs(plainLoader);
        // Rewritten writer, run-time reader.
        Object[] read = InteropPeer.read(plainLoader, InteropPeer.write(rewrittenLoader, rewrittenGraphs),
                plainGraphs.length);
        assertNull(InteropPeer.compare(plainGraphs, read));
        assertEquals(read[0].getClass().getClassLoader(), plainLoader);
        // Run-time writer, rewritten reader.
        read = InteropPeer.read(rewrittenLoader, InteropPeer.write(plainLoader, plainGraphs), rewrittenGraphs.length);
        assertNull(InteropPeer.compare(rewrittenGraphs, read));
        assertEquals(read[0].getClass().getClassLoader(), rewrittenLoader);
    }

    /** One stream of one message per graph: the bytes of each graph on its own (its type descriptors included). */
    private static byte[][] writeEach(ClassLoader loader, Object[] graphs) throws Exception {
        byte[][] bytes = new byte[graphs.length][];
        for (int i = 0; i < graphs.length; i++) {
            bytes[i] = InteropPeer.write(loader, new Object[] {graphs[i]});
        }
        return bytes;
    }

    /**
     * Reads each graph's bytes with {@code loader}'s classes and compares with {@code expected};
     * null when all are equal.
     */
    private static String readEach(ClassLoader loader, byte[][] bytes, Object[] expected) throws Exception {
        for (int i = 0; i < bytes.length; i++) {
            Object copy = InteropPeer.read(loader, bytes[i], 1)[0];
            String d = GraphComparison.difference(expected[i], copy);
            if (d != null) {
                return "graph " + i + " (" + expected[i].getClass().getName() + "): " + d;
            }
        }
        return null;
    }

    /**
     * Graph by graph (every primitive type, runs longer than a run may be, references, arrays,
     * fields of the class's own type after a run or not, final, transient and static fields, a chain
     * of three classes with fields at every level, classes with writeObject): the rewritten classes
     * and the run-time serializers of the same classes write exactly the same bytes, and each reads
     * the other's back equal. The plain classes come from a class loader of their own, so their
     * run-time serializers are the variant that reaches fields through method handles (InteropTest
     * checks the nestmate variant, which classes on the class path get).
     */
    @Test(timeOut = 120_000)
    public void eachGraphIsWrittenAlikeAndReadBackByRewrittenCodeAndRunTimeSerializers() throws Exception {
        Object[] rewrittenGraphs = InteropPeer.graphs(rewrittenLoader);
        Object[] plainGraphs = InteropPeer.graphs(plainLoader);
        byte[][] byRewritten = writeEach(rewrittenLoader, rewrittenGraphs);
        byte[][] byRunTime = writeEach(plainLoader, plainGraphs);
        for (String name : List.of("sample.Wide", "sample.Spill", "sample.Level1", "sample.Level2", "sample.Level3")) {
            assertEquals(codecKind(Class.forName(name, true, rewrittenLoader)), "RewrittenCodec", name);
            String runTime = InteropPeer.codecClass(plainLoader, name);
            assertTrue(runTime.startsWith("ibis.io.FieldCodec$") && !runTime.contains("Nestmate"),
                    name + ": " + runTime);
        }
        for (int i = 0; i < rewrittenGraphs.length; i++) {
            assertTrue(java.util.Arrays.equals(byRunTime[i], byRewritten[i]),
                    "graph " + i + " (" + rewrittenGraphs[i].getClass().getName() + "): the same bytes");
        }
        assertNull(readEach(rewrittenLoader, byRunTime, rewrittenGraphs), "rewritten code reads the run-time bytes");
        assertNull(readEach(plainLoader, byRewritten, plainGraphs), "run-time code reads the rewritten bytes");
    }

    @Test(timeOut = 60_000)
    public void readingRunsOnlyTheNoArgConstructorOfTheFirstNonSerializableSuperclass() throws Exception {
        Class<?> type = Class.forName("sample.OnTopOfPlain", true, rewrittenLoader);
        Object original = type.getConstructor().newInstance();
        Object copy = InteropPeer.read(rewrittenLoader,
                InteropPeer.write(rewrittenLoader, new Object[] {original}), 1)[0];
        assertEquals(field(copy, "sample.Plain", "p"), 7, "Plain() ran, as in the JDK");
        assertEquals(field(original, "sample.Plain", "p"), 99);
        assertEquals(field(copy, "sample.OnTopOfPlain", "q"), 100, "own fields are read");
        // Field initialisers of a rewritten class do not run either (same as the JDK).
        Object anon = Class.forName("sample.Outer", true, rewrittenLoader).getMethod("anonymous")
                .invoke(Class.forName("sample.Outer", true, rewrittenLoader).getConstructor().newInstance());
        Object anonCopy = InteropPeer.read(rewrittenLoader,
                InteropPeer.write(rewrittenLoader, new Object[] {anon}), 1)[0];
        assertEquals(field(anonCopy, "sample.Outer$1", "y"), 5);
        assertEquals(field(anonCopy, "sample.Base", "x"), 4);
    }

    private Object field(Object o, String declaringClass, String name) throws Exception {
        java.lang.reflect.Field f = Class.forName(declaringClass, false, o.getClass().getClassLoader())
                .getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }
}
