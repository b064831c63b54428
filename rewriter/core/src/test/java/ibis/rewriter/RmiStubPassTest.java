package ibis.rewriter;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import ibis.registry.server.CentralRegistryServer;
import ibis.rmi.impl.RemoteInterfaces;
import ibis.rmi.impl.RemoteMethodTable;
import ibis.rmi.impl.StubGenerator;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

import org.objectweb.asm.ClassReader;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * The RMI stubs pass: names and contents of the build-time stubs and skeletons (byte for byte
 * what the run time generates for the same interfaces), idempotence, the off switch, jars, and a
 * {@code java.rmi} program rewritten with {@code --java-rmi} running in child JVMs where one side
 * uses build-time classes and the other run-time ones, giving identical results.
 */
public class RmiStubPassTest {

    /**
     * A java.rmi program: remote methods with every primitive kind, arrays, object graphs with
     * shared references and a cycle, remote objects as arguments and results, remote exceptions;
     * the remote class gets its interfaces through an abstract superclass and an interface chain.
     */
    static final Map<String, String> PROGRAM = Map.of(
            "calc/Base.java", String.join("\n",
                    "package calc;",
                    "public interface Base extends java.rmi.Remote {",
                    "    String name() throws java.rmi.RemoteException;",
                    "    long over(int x) throws java.rmi.RemoteException;",
                    "    long over(long x) throws java.io.IOException;",
                    "}"),
            "calc/Calc.java", String.join("\n",
                    "package calc;",
                    "import java.rmi.RemoteException;",
                    "public interface Calc extends Base {",
                    "    boolean not(boolean b) throws RemoteException;",
                    "    byte negB(byte b) throws RemoteException;",
                    "    char nextC(char c) throws RemoteException;",
                    "    short negS(short s) throws RemoteException;",
                    "    int add(int a, int b) throws RemoteException;",
                    "    long mulL(long a, long b) throws RemoteException;",
                    "    float half(float f) throws RemoteException;",
                    "    double sq(double d) throws RemoteException;",
                    "    double mix(boolean z, byte b, char c, short s, int i, long l, float f, double d, String t)"
                            + " throws RemoteException;",
                    "    int[] rev(int[] a) throws RemoteException;",
                    "    String[] upper(String[] s) throws RemoteException;",
                    "    double[][] transpose(double[][] m) throws RemoteException;",
                    "    Object[] graph(Object[] g) throws RemoteException;",
                    "    Calc self() throws RemoteException;",
                    "    int viaCallback(Callback cb, int x) throws RemoteException;",
                    "    Callback echoCallback(Callback cb) throws RemoteException;",
                    "    void fail(String m) throws RemoteException, CalcException;",
                    "    int failRuntime(String m) throws RemoteException;",
                    "}"),
            "calc/Callback.java", String.join("\n",
                    "package calc;",
                    "public interface Callback extends java.rmi.Remote {",
                    "    int call(int x) throws java.rmi.RemoteException;",
                    "}"),
            "calc/CalcException.java", String.join("\n",
                    "package calc;",
                    "public class CalcException extends Exception {",
                    "    private static final long serialVersionUID = 1L;",
                    "    public CalcException(String m) { super(m); }",
                    "}"),
            "calc/AbstractCalc.java", String.join("\n",
                    "package calc;",
                    "public abstract class AbstractCalc extends java.rmi.server.UnicastRemoteObject implements Calc {",
                    "    private static final long serialVersionUID = 1L;",
                    "    protected AbstractCalc() throws java.rmi.RemoteException { super(0); }",
                    "    public String name() { return \"calc\"; }",
                    "}"),
            "calc/CalcImpl.java", String.join("\n",
                    "package calc;",
                    "public class CalcImpl extends AbstractCalc {",
                    "    private static final long serialVersionUID = 1L;",
                    "    public CalcImpl() throws java.rmi.RemoteException { }",
                    "    public long over(int x) { return x + 1000L; }",
                    "    public long over(long x) { return x + 2000L; }",
                    "    public boolean not(boolean b) { return !b; }",
                    "    public byte negB(byte b) { return (byte) -b; }",
                    "    public char nextC(char c) { return (char) (c + 1); }",
                    "    public short negS(short s) { return (short) -s; }",
                    "    public int add(int a, int b) { return a + b; }",
                    "    public long mulL(long a, long b) { return a * b; }",
                    "    public float half(float f) { return f / 2; }",
                    "    public double sq(double d) { return d * d; }",
                    "    public double mix(boolean z, byte b, char c, short s, int i, long l, float f, double d,"
                            + " String t) {",
                    "        return (z ? 1 : 0) + b + c + s + i + l + f + d + t.length();",
                    "    }",
                    "    public int[] rev(int[] a) {",
                    "        int[] r = new int[a.length];",
                    "        for (int i = 0; i < a.length; i++) r[i] = a[a.length - 1 - i];",
                    "        return r;",
                    "    }",
                    "    public String[] upper(String[] s) {",
                    "        String[] r = new String[s.length];",
                    "        for (int i = 0; i < s.length; i++) r[i] = s[i] == null ? null : s[i].toUpperCase();",
                    "        return r;",
                    "    }",
                    "    public double[][] transpose(double[][] m) {",
                    "        double[][] r = new double[m[0].length][m.length];",
                    "        for (int i = 0; i < m.length; i++) for (int j = 0; j < m[0].length; j++)"
                            + " r[j][i] = m[i][j];",
                    "        return r;",
                    "    }",
                    "    public Object[] graph(Object[] g) {",
                    "        return new Object[] { g[0], g, g[0] == g[1], g[3] == g };",
                    "    }",
                    "    public Calc self() { return this; }",
                    "    public int viaCallback(Callback cb, int x) throws java.rmi.RemoteException {"
                            + " return cb.call(x) + 1; }",
                    "    public Callback echoCallback(Callback cb) { return cb; }",
                    "    public void fail(String m) throws CalcException {"
                            + " throw new CalcException(\"failed: \" + m); }",
                    "    public int failRuntime(String m) { throw new IllegalStateException(\"state: \" + m); }",
                    "}"),
            "calc/CallbackImpl.java", String.join("\n",
                    "package calc;",
                    "public class CallbackImpl implements Callback {",
                    "    public int call(int x) { return x * 10; }",
                    "}"),
            "calc/Main.java", String.join("\n",
                    "package calc;",
                    "import java.rmi.registry.LocateRegistry;",
                    "import java.rmi.registry.Registry;",
                    "import java.rmi.server.UnicastRemoteObject;",
                    "import java.util.Arrays;",
                    "public final class Main {",
                    "    static void r(String s) { System.out.println(\"R \" + s); }",
                    "    static Object runtimeGenerated() throws Exception {",
                    "        return Class.forName(\"ibis.rmi.impl.GeneratedCode\")"
                            + ".getMethod(\"runtimeGenerated\").invoke(null);",
                    "    }",
                    "    public static void main(String[] args) throws Exception {",
                    "        int port = Integer.parseInt(args[1]);",
                    "        if (args[0].equals(\"server\")) {",
                    "            LocateRegistry.createRegistry(port);",
                    "            Registry registry = LocateRegistry.getRegistry(\"127.0.0.1\", port);",
                    "            CalcImpl impl = new CalcImpl();",
                    "            registry.rebind(\"calc\", impl);",
                    "            System.out.println(\"READY\");",
                    "            System.out.flush();",
                    "            while (System.in.read() >= 0) { }", // the test closes our stdin to end us
                    "            System.out.println(\"RUNTIME \" + runtimeGenerated());",
                    "            System.exit(0);",
                    "        }",
                    "        Registry registry = LocateRegistry.getRegistry(\"127.0.0.1\", port);",
                    "        Calc c = (Calc) registry.lookup(\"calc\");",
                    "        System.out.println(\"STUB \" + c.getClass().getName() + \" \""
                            + " + (c.getClass().getClassLoader() == Main.class.getClassLoader()));",
                    "        r(\"name \" + c.name() + \" \" + c.over(1) + \" \" + c.over(1L));",
                    "        r(\"not \" + c.not(true) + \" \" + c.not(false));",
                    "        r(\"negB \" + c.negB(Byte.MIN_VALUE) + \" \" + c.negB((byte) 7));",
                    "        r(\"nextC \" + (int) c.nextC('a') + \" \" + (int) c.nextC('\\uFFFE'));",
                    "        r(\"negS \" + c.negS(Short.MAX_VALUE));",
                    "        r(\"add \" + c.add(Integer.MAX_VALUE, 1) + \" \" + c.add(20, 22));",
                    "        r(\"mulL \" + c.mulL(1L << 40, 3));",
                    "        r(\"half \" + c.half(3f) + \" \" + c.half(Float.NaN));",
                    "        r(\"sq \" + c.sq(1.5) + \" \" + c.sq(-0.0));",
                    "        r(\"mix \" + c.mix(true, (byte) 2, 'c', (short) 4, 5, 6L, 7.5f, 8.25, \"nine\"));",
                    "        r(\"rev \" + Arrays.toString(c.rev(new int[] {1, 2, 3}))"
                            + " + \" \" + Arrays.toString(c.rev(new int[0])));",
                    "        r(\"upper \" + Arrays.toString(c.upper("
                            + "new String[] {\"a\", null, \"\\u00e9t\\u00e9\"})));",
                    "        r(\"transpose \" + Arrays.deepToString(c.transpose("
                            + "new double[][] {{1, 2, 3}, {4, 5, 6}})));",
                    "        java.util.List<String> shared ="
                            + " new java.util.ArrayList<>(java.util.List.of(\"x\", \"y\"));",
                    "        Object[] g = {shared, shared, new int[] {7}, null};",
                    "        g[3] = g;",
                    "        Object[] back = c.graph(g);",
                    "        Object[] gBack = (Object[]) back[1];",
                    "        r(\"graph \" + back[0] + \" serverShared=\" + back[2] + \" serverCycle=\" + back[3]"
                            + " + \" sharedBack=\" + (back[0] == gBack[0] && gBack[0] == gBack[1])"
                            + " + \" cycleBack=\" + (gBack[3] == gBack) + \" \" + Arrays.toString((int[]) gBack[2]));",
                    "        Calc self = c.self();",
                    "        r(\"self \" + self.add(1, 2) + \" equal=\" + self.equals(c)"
                            + " + \" stub=\" + (self instanceof java.rmi.Remote));",
                    "        CallbackImpl cb = new CallbackImpl();",
                    "        Callback exported = (Callback) UnicastRemoteObject.exportObject(cb, 0);",
                    "        r(\"viaCallback \" + c.viaCallback(cb, 5) + \" \" + c.viaCallback(exported, 6));",
                    "        Callback back2 = c.echoCallback(cb);",
                    "        r(\"echoCallback \" + back2.call(7) + \" equal=\" + back2.equals(exported));",
                    "        System.out.println(\"CBSTUB \" + back2.getClass().getName());",
                    "        try {",
                    "            c.fail(\"boom\");",
                    "            r(\"fail none\");",
                    "        } catch (CalcException e) {",
                    "            r(\"fail \" + e.getClass().getName() + \" \" + e.getMessage());",
                    "        }",
                    "        try {",
                    "            r(\"failRuntime none \" + c.failRuntime(\"bang\"));",
                    "        } catch (RuntimeException e) {",
                    "            r(\"failRuntime \" + e.getClass().getName() + \" \" + e.getMessage());",
                    "        }",
                    "        System.out.println(\"RUNTIME \" + runtimeGenerated());",
                    "        UnicastRemoteObject.unexportObject(cb, true);",
                    "        System.exit(0);",
                    "    }",
                    "}"));

    private static final List<String> REMOTE_CLASSES = List.of("calc.CalcImpl", "calc.CallbackImpl");

    private Path ibisRmi;
    private Path original;
    private Path buildTime;  // --java-rmi with the stubs pass
    private Path runTime;    // --java-rmi --no-rmi-stubs
    private RewriteResult buildResult;

    @BeforeClass
    public void compileAndRewrite() throws Exception {
        ibisRmi = Paths.get(ibis.rmi.Naming.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        original = Samples.compile(Samples.tempDir("rmistubs-orig"), PROGRAM);
        buildTime = copy(original, "rmistubs-build");
        runTime = copy(original, "rmistubs-run");
        buildResult = new Rewriter().classPath(List.of(ibisRmi)).javaRmi(true).rewrite(List.of(buildTime));
        assertTrue(buildResult.warnings().isEmpty(), buildResult.warnings().toString());
        RewriteResult r = new Rewriter().classPath(List.of(ibisRmi)).javaRmi(true).rmiStubs(false)
                .rewrite(List.of(runTime));
        assertEquals(r.rmiStubs(), 0);
    }

    @AfterClass(alwaysRun = true)
    public void cleanUp() {
        Samples.delete(original);
        Samples.delete(buildTime);
        Samples.delete(runTime);
    }

    @Test
    public void stubsAndSkeletonsHaveTheDocumentedNamesNextToTheRemoteClasses() throws Exception {
        assertEquals(buildResult.rmiStubs(), 2, buildResult.classes().toString());
        for (String c : REMOTE_CLASSES) {
            assertEquals(buildResult.outcome(c).rmiStub(), c + "_IbisStub");
            String path = c.replace('.', '/');
            ClassReader stub = new ClassReader(Files.readAllBytes(buildTime.resolve(path + "_IbisStub.class")));
            assertEquals(stub.getClassName(), path + "_IbisStub");
            assertEquals(stub.getSuperName(), "ibis/rmi/server/RemoteStub");
            ClassReader skeleton = new ClassReader(Files.readAllBytes(buildTime.resolve(path + "_IbisSkeleton.class")));
            assertEquals(skeleton.getSuperName(), "ibis/rmi/impl/Skeleton");
            assertFalse(Files.exists(runTime.resolve(path + "_IbisStub.class")), "--no-rmi-stubs wrote a stub");
            assertFalse(Files.exists(runTime.resolve(path + "_IbisSkeleton.class")));
        }
        // Interfaces, abstract classes and other classes get none.
        for (String c : List.of("calc.Calc", "calc.Base", "calc.AbstractCalc", "calc.Main", "calc.CalcException")) {
            assertNull(buildResult.outcome(c).rmiStub(), c);
            assertFalse(Files.exists(buildTime.resolve(c.replace('.', '/') + "_IbisStub.class")), c);
        }
        ClassReader stub = new ClassReader(Files.readAllBytes(buildTime.resolve("calc/CalcImpl_IbisStub.class")));
        assertEquals(stub.getInterfaces(), new String[] {"calc/Calc"});
    }

    /** The same generator fed from class files and from loaded classes: the same bytes. */
    @Test
    public void buildTimeBytesAreWhatTheRunTimeGeneratesFromLoadedClasses() throws Exception {
        try (URLClassLoader loader = Samples.loader(runTime)) {
            for (String c : REMOTE_CLASSES) {
                RemoteMethodTable table = RemoteInterfaces.of(Class.forName(c, false, loader)).table();
                String path = c.replace('.', '/');
                assertEquals(Files.readAllBytes(buildTime.resolve(path + "_IbisStub.class")),
                        StubGenerator.stubBytes(RemoteMethodTable.stubName(c), table), c);
                assertEquals(Files.readAllBytes(buildTime.resolve(path + "_IbisSkeleton.class")),
                        StubGenerator.skeletonBytes(RemoteMethodTable.skeletonName(c), table), c);
            }
            RemoteMethodTable calc = RemoteInterfaces.of(Class.forName("calc.CalcImpl", false, loader)).table();
            List<String> names = calc.methods().stream().map(m -> m.name() + m.descriptor())
                    .collect(Collectors.toList());
            assertTrue(names.containsAll(List.of("over(I)J", "over(J)J", "name()Ljava/lang/String;")),
                    names.toString());
            List<String> sorted = new ArrayList<>(names);
            sorted.sort(null);
            assertEquals(names, sorted, "numbered by name, then descriptor");
            // The stubs verify against the real classes.
            for (String c : REMOTE_CLASSES) {
                Samples.verify(Files.readAllBytes(buildTime.resolve(c.replace('.', '/') + "_IbisStub.class")), loader);
                Samples.verify(Files.readAllBytes(buildTime.resolve(c.replace('.', '/') + "_IbisSkeleton.class")),
                        loader);
            }
        }
    }

    @Test
    public void secondRunChangesNothing() throws Exception {
        Map<String, byte[]> before = Samples.snapshot(buildTime);
        RewriteResult again = new Rewriter().classPath(List.of(ibisRmi)).javaRmi(true).rewrite(List.of(buildTime));
        assertEquals(again.rmiStubs(), 2);
        // The stubs of the first run are input now: left out of the serialization pass, no stubs of their own.
        ClassOutcome stub = again.outcome("calc.CalcImpl_IbisStub");
        assertNotNull(stub);
        assertNull(stub.rmiStub());
        assertEquals(stub.status(), ClassOutcome.Status.SKIPPED, stub.toString());
        Samples.assertSameFiles(Samples.snapshot(buildTime), before);
    }

    @Test
    public void staleStubsAreReplacedAndAJarGetsItsStubsOnce() throws Exception {
        Path dir = Samples.tempDir("rmistubs-jar");
        try {
            Path jar = dir.resolve("calc.jar");
            try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(jar))) {
                for (Map.Entry<String, byte[]> e : Samples.snapshot(runTime).entrySet()) {
                    out.putNextEntry(new ZipEntry(e.getKey()));
                    out.write(e.getValue());
                    out.closeEntry();
                }
                // A stale stub from some other build: replaced.
                out.putNextEntry(new ZipEntry("calc/CallbackImpl_IbisStub.class"));
                out.write(Files.readAllBytes(buildTime.resolve("calc/CalcImpl_IbisStub.class")));
                out.closeEntry();
            }
            RewriteResult r = new Rewriter().classPath(List.of(ibisRmi)).rewrite(List.of(jar));
            assertEquals(r.rmiStubs(), 2);
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                for (String c : List.of("calc/CalcImpl", "calc/CallbackImpl")) {
                    for (String suffix : List.of("_IbisStub.class", "_IbisSkeleton.class")) {
                        ZipEntry e = zip.getEntry(c + suffix);
                        assertNotNull(e, c + suffix);
                        assertEquals(zip.getInputStream(e).readAllBytes(),
                                Files.readAllBytes(buildTime.resolve(c + suffix)));
                    }
                }
                assertEquals(zip.stream().filter(e -> e.getName().endsWith("_IbisStub.class")).count(), 2L);
            }
            byte[] once = Files.readAllBytes(jar);
            new Rewriter().classPath(List.of(ibisRmi)).rewrite(List.of(jar));
            assertEquals(Files.readAllBytes(jar), once, "a second run rewrote the jar");
        } finally {
            Samples.delete(dir);
        }
    }

    @Test
    public void ibiscWritesStubsByDefaultAndNotWithNoRmiStubs() throws Exception {
        Path on = copy(runTime, "rmistubs-ibisc-on");
        Path off = copy(runTime, "rmistubs-ibisc-off");
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
            assertEquals(Ibisc.run(new String[] {"-v", "-cp", ibisRmi.toString(), on.toString()}, ps, ps), Ibisc.OK);
            String o = out.toString(StandardCharsets.UTF_8);
            assertTrue(o.contains("(RMI stub calc.CalcImpl_IbisStub and skeleton)"), o);
            assertTrue(o.contains(", 2 remote classes with RMI stubs"), o);
            Samples.assertSameFiles(Samples.snapshot(on), Samples.snapshot(buildTime));
            out.reset();
            assertEquals(Ibisc.run(new String[] {"--no-rmi-stubs", off.toString()}, ps, ps), Ibisc.OK);
            Samples.assertSameFiles(Samples.snapshot(off), Samples.snapshot(runTime));
            out.reset();
            assertEquals(Ibisc.run(new String[] {"--help"}, ps, ps), Ibisc.OK);
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("--no-rmi-stubs"));
        } finally {
            Samples.delete(on);
            Samples.delete(off);
        }
    }

    @Test
    public void aRemoteClassIbisRmiCannotServeIsAWarningNotAFailure() throws Exception {
        Path dir = Samples.tempDir("rmistubs-bad");
        try {
            Samples.compile(dir, Map.of("bad/NoRemoteException.java", String.join("\n",
                    "package bad;",
                    "public class NoRemoteException implements R {",
                    "    public void x() { }",
                    "}"),
                    "bad/R.java", String.join("\n",
                    "package bad;",
                    "public interface R extends java.rmi.Remote { void x(); }")));
            RewriteResult r = new Rewriter().rewrite(List.of(dir));
            assertEquals(r.rmiStubs(), 0);
            assertTrue(r.warnings().stream().anyMatch(w -> w.contains("bad.NoRemoteException")
                    && w.contains("does not declare java.rmi.RemoteException")), r.warnings().toString());
        } finally {
            Samples.delete(dir);
        }
    }

    /**
     * A package-private remote interface (java.rmi allows it; the earlier Ibis RMI's programs use
     * it) gets build-time stubs when the remote class is in its package, and the rewritten program
     * exports and calls through them; a non-public interface, parameter or result class of another
     * package leaves the remote class to the run time (no build-time classes, no warning).
     */
    @Test(timeOut = 120_000)
    public void packagePrivateRemoteInterfacesGetBuildTimeStubsInTheirPackage() throws Exception {
        Path dir = Samples.tempDir("rmistubs-pp");
        try {
            Samples.compile(dir, Map.of(
                    "pp/Hidden.java", String.join("\n",
                            "package pp;",
                            "interface Hidden extends java.rmi.Remote {"
                                    + " int twice(int x) throws java.rmi.RemoteException; }"),
                    "pp/Open.java", String.join("\n",
                            "package pp;",
                            "public interface Open extends Hidden { }"),
                    "pp/Impl.java", String.join("\n",
                            "package pp;",
                            "public class Impl extends ibis.rmi.server.UnicastRemoteObject implements Hidden {",
                            "    private static final long serialVersionUID = 1L;",
                            "    public Impl() throws java.rmi.RemoteException { }",
                            "    public int twice(int x) { return 2 * x; }",
                            "    public static void main(String[] args) throws Exception {",
                            "        ibis.rmi.Naming.rebind(\"pp\", new Impl());",
                            "        Hidden h = (Hidden) ibis.rmi.Naming.lookup(\"pp\");",
                            "        System.out.println(\"TWICE \" + h.twice(21) + \" \" + h.getClass().getName()",
                            "                + \" \" + ibis.rmi.impl.GeneratedCode.runtimeGenerated().stream()",
                            "                .filter(n -> n.startsWith(\"pp.\")).count());",
                            "        System.exit(0);",
                            "    }",
                            "}"),
                    "other/Elsewhere.java", String.join("\n",
                            "package other;",
                            "public class Elsewhere implements pp.Open { public int twice(int x) { return x; } }"),
                    "pp/Api.java", String.join("\n",
                            "package pp;",
                            "class Item implements java.io.Serializable { }",
                            "public interface Api extends java.rmi.Remote {"
                                    + " Item echo(Item i) throws java.rmi.RemoteException; }"),
                    "pp/Base.java", String.join("\n",
                            "package pp;",
                            "public class Base implements Api { public Item echo(Item i) { return i; } }"),
                    "other/Sub.java", String.join("\n",
                            "package other;",
                            "public class Sub extends pp.Base { }")));
            RewriteResult r = new Rewriter().rewrite(List.of(dir));
            assertEquals(r.rmiStubs(), 2, r.warnings().toString());
            assertTrue(Files.exists(dir.resolve("pp/Impl_IbisStub.class")));
            assertTrue(Files.exists(dir.resolve("pp/Impl_IbisSkeleton.class")));
            assertFalse(Files.exists(dir.resolve("other/Elsewhere_IbisStub.class")));
            // A package-private parameter class: stubs where it can be named (pp), none elsewhere.
            assertTrue(Files.exists(dir.resolve("pp/Base_IbisStub.class")));
            assertFalse(Files.exists(dir.resolve("other/Sub_IbisStub.class")));
            assertTrue(r.warnings().isEmpty(), r.warnings().toString());
            Samples.ProcessResult run = Samples.runInOwnPool(dir, "rmistubs-pp", "pp.Impl");
            assertEquals(run.exitCode, 0, run.output);
            // the build-time stub; nothing generated at run time for pp
            assertTrue(run.output.contains("TWICE 42 pp.Impl_IbisStub 0"), run.output);
        } finally {
            Samples.delete(dir);
        }
    }

    /**
     * One server, two clients (build-time and run-time classes), then a run-time server with a
     * build-time client: every remote call gives the same result in all three.
     */
    @Test(timeOut = 180_000)
    public void buildTimeAndRunTimeStubsGiveIdenticalResultsAcrossJvms() throws Exception {
        Properties serverProperties = new Properties();
        serverProperties.setProperty("ibis.registry.server.bind", "127.0.0.1");
        try (CentralRegistryServer registry = new CentralRegistryServer(0, serverProperties)) {
            registry.start();
            List<String> jvm = List.of("-Dibis.server.address=" + registry.address(),
                    "-Dibis.pool.name=rmistubs-" + UUID.randomUUID(), "-Dibis.implementation=tcp",
                    "-Dibis.rmi.connect.timeout=10000", "-Dibis.rmi.registry.timeout=20000");
            String buildClient;
            String runClient;
            String buildServer;
            try (Server server = new Server(buildTime, jvm, 4343)) {
                buildClient = client(buildTime, jvm, 4343);
                runClient = client(runTime, jvm, 4343);
                buildServer = server.finish();
            }
            List<String> jvm2 = new ArrayList<>(jvm);
            jvm2.set(1, "-Dibis.pool.name=rmistubs-" + UUID.randomUUID());
            String buildClient2;
            String runServer;
            try (Server server = new Server(runTime, jvm2, 4344)) {
                buildClient2 = client(buildTime, jvm2, 4344);
                runServer = server.finish();
            }
            List<String> expected = results(buildClient);
            assertEquals(expected.size(), 19, buildClient);
            assertEquals(results(runClient), expected, "run-time client:\n" + runClient);
            assertEquals(results(buildClient2), expected, "build-time client of a run-time server:\n" + buildClient2);
            assertTrue(expected.contains("R graph [x, y] serverShared=true serverCycle=true sharedBack=true"
                    + " cycleBack=true [7]"), expected.toString());
            assertTrue(expected.contains("R fail calc.CalcException failed: boom"), expected.toString());
            assertTrue(expected.contains("R viaCallback 51 61"), expected.toString());

            // Build-time classes really used: by name, from the application's loader, nothing generated for them.
            assertTrue(buildClient.contains("STUB calc.CalcImpl_IbisStub true\n"), buildClient);
            assertTrue(buildClient.contains("CBSTUB calc.CallbackImpl_IbisStub\n"), buildClient);
            assertNoneGeneratedFor(line(buildClient, "RUNTIME "), buildClient);
            assertNoneGeneratedFor(line(buildServer, "RUNTIME "), buildServer);
            assertTrue(buildClient2.contains("STUB calc.CalcImpl_IbisStub true\n"), buildClient2);
            // And the run-time side generated its own.
            assertTrue(runClient.contains("STUB ibis.rmi.generated.Calc_Stub"), runClient);
            assertTrue(line(runClient, "RUNTIME ").contains("Calc_Stub"), runClient);
            assertTrue(line(runServer, "RUNTIME ").contains("Calc_Skeleton"), runServer);
            assertTrue(line(runServer, "RUNTIME ").contains("Callback_Stub"), runServer);
            // ibis.rmi.rewriter.warn: one line per class generated at run time, none for build-time ones.
            assertTrue(runClient.contains("ibis rmi: generated ibis.rmi.generated.Calc_Stub"), runClient);
            assertTrue(runClient.contains("(remote class calc.CalcImpl: no usable build-time class from ibisc)"),
                    runClient);
            assertTrue(runServer.contains("ibis rmi: generated ibis.rmi.generated.Calc_Skeleton"), runServer);
            assertFalse(buildClient.contains("ibis rmi: generated ibis.rmi.generated.Calc"), buildClient);
            assertFalse(buildServer.contains("ibis rmi: generated ibis.rmi.generated.Calc"), buildServer);
            assertTrue(buildClient.contains("ibis rmi: generated ibis.rmi.generated.Registry_Stub"),
                    "the registry stub is still generated at run time, and logged: " + buildClient);
        }
    }

    private static void assertNoneGeneratedFor(String runtimeLine, String output) {
        assertFalse(runtimeLine.contains("Calc_") || runtimeLine.contains("Callback_"),
                "generated at run time although build-time classes exist: " + runtimeLine + "\n" + output);
    }

    private static String line(String output, String prefix) {
        for (String l : output.split("\n")) {
            if (l.startsWith(prefix)) {
                return l;
            }
        }
        throw new AssertionError("no line " + prefix + " in:\n" + output);
    }

    private static List<String> results(String output) {
        return output.lines().filter(l -> l.startsWith("R ")).collect(Collectors.toList());
    }

    private static List<String> command(Path classes, List<String> jvmOptions, String mode, int port) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Samples.javaBin());
        cmd.add("-Xmx256m");
        cmd.add("-cp");
        cmd.add(classes + File.pathSeparator + System.getProperty("java.class.path"));
        cmd.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        // One log line per stub/skeleton generated at run time.
        cmd.add("-Dibis.rmi.rewriter.warn=true");
        cmd.add("-Dorg.slf4j.simpleLogger.log.ibis.rmi.impl.GeneratedCode=info");
        cmd.addAll(jvmOptions);
        cmd.add("calc.Main");
        cmd.add(mode);
        cmd.add(Integer.toString(port));
        return cmd;
    }

    private static String client(Path classes, List<String> jvmOptions, int port) throws Exception {
        Samples.ProcessResult r = Samples.run(command(classes, jvmOptions, "client", port), 60);
        assertEquals(r.exitCode, 0, r.output);
        return r.output;
    }

    /** The program's server in a child JVM; {@link #finish()} ends it and returns its output. */
    private static final class Server implements AutoCloseable {
        private final Process process;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final StringBuffer output = new StringBuffer();
        private final Thread reader;

        Server(Path classes, List<String> jvmOptions, int port) throws Exception {
            process = new ProcessBuilder(command(classes, jvmOptions, "server", port)).redirectErrorStream(true)
                    .start();
            reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null; ) {
                        output.append(l).append('\n');
                        lines.add(l);
                    }
                } catch (IOException e) {
                    output.append("(reading failed: ").append(e).append(")\n");
                }
            }, "rmistubs-server-output");
            reader.setDaemon(true);
            reader.start();
            String l;
            do {
                l = lines.poll(60, TimeUnit.SECONDS);
                assertNotNull(l, "server not ready within 60 s:\n" + output);
            } while (!l.equals("READY"));
        }

        String finish() throws Exception {
            process.getOutputStream().close(); // ends the server's wait
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), "server did not end:\n" + output);
            reader.join(10_000);
            assertEquals(process.exitValue(), 0, output.toString());
            return output.toString();
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }

    private static Path copy(Path from, String prefix) throws IOException {
        Path to = Samples.tempDir(prefix);
        for (Map.Entry<String, byte[]> e : Samples.snapshot(from).entrySet()) {
            Path target = to.resolve(e.getKey());
            Files.createDirectories(target.getParent());
            Files.write(target, e.getValue());
        }
        return to;
    }
}
