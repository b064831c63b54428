package ibis.rewriter;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import ibis.registry.server.CentralRegistryServer;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.Remapper;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * The {@code --java-rmi} pass on a small plain {@code java.rmi} program: which names it renames
 * and keeps, idempotence, clear failures, and the program running both unchanged on the JDK's RMI
 * and, rewritten, on Ibis RMI (child JVMs, an embedded Ibis registry server in this JVM).
 */
public class JavaRmiPassTest {

    private static final List<String> JAVA_RMI_RENAMED = List.of("java/rmi/Naming", "java/rmi/registry/LocateRegistry",
            "java/rmi/registry/Registry", "java/rmi/server/UnicastRemoteObject");

    /** A plain java.rmi program: server and client in one main, chosen by the first argument. */
    static final Map<String, String> PROGRAM = Map.of(
            "hello/Hello.java", String.join("\n",
                    "package hello;",
                    "public interface Hello extends java.rmi.Remote {",
                    "    String hello(String who) throws java.rmi.RemoteException;",
                    "}"),
            "hello/HelloImpl.java", String.join("\n",
                    "package hello;",
                    "public class HelloImpl extends java.rmi.server.UnicastRemoteObject implements Hello {",
                    "    private static final long serialVersionUID = 1L;",
                    "    public HelloImpl() throws java.rmi.RemoteException { super(); }",
                    "    public String hello(String who) { return \"hello \" + who; }",
                    "}"),
            "hello/HelloMain.java", String.join("\n",
                    "package hello;",
                    "import java.rmi.Naming;",
                    "import java.rmi.NotBoundException;",
                    "import java.rmi.registry.LocateRegistry;",
                    "import java.rmi.registry.Registry;",
                    "import java.rmi.server.UnicastRemoteObject;",
                    "public final class HelloMain {",
                    "    public static void main(String[] args) throws Exception {",
                    "        int port = Integer.parseInt(args[1]);",
                    "        if (args[0].equals(\"server\")) {",
                    "            LocateRegistry.createRegistry(port);",
                    "            Registry registry = LocateRegistry.getRegistry(\"127.0.0.1\", port);",
                    "            HelloImpl impl = new HelloImpl();",
                    "            registry.rebind(\"hello\", impl);",
                    "            System.out.println(\"READY\");",
                    "            System.out.flush();",
                    "            while (System.in.read() >= 0) { }", // the test closes our stdin to end us
                    "            UnicastRemoteObject.unexportObject(impl, true);",
                    "            System.exit(0);",
                    "        } else {",
                    "            Registry registry = LocateRegistry.getRegistry(\"127.0.0.1\", port);",
                    "            Hello h = (Hello) registry.lookup(\"hello\");",
                    "            System.out.println(\"REPLY \" + h.hello(\"registry\"));",
                    "            System.out.println(\"STUB \" + h.getClass().getName());",
                    "            Hello h2 = (Hello) Naming.lookup(\"//127.0.0.1:\" + port + \"/hello\");",
                    "            System.out.println(\"REPLY \" + h2.hello(\"naming\"));",
                    "            try {",
                    "                registry.lookup(\"nobody\");",
                    "                System.out.println(\"BOUND nobody\");",
                    "            } catch (NotBoundException e) {",
                    "                System.out.println(\"NOTBOUND nobody\");",
                    "            }",
                    "            System.exit(0);",
                    "        }",
                    "    }",
                    "}"));

    private Path original;
    private Path rewritten;
    private Path ibisRmi;

    @BeforeClass
    public void compileAndRewrite() throws Exception {
        ibisRmi = Paths.get(ibis.rmi.Naming.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        original = Samples.compile(Samples.tempDir("jrmi-orig"), PROGRAM);
        rewritten = Samples.tempDir("jrmi-rewritten");
        copyTree(original, rewritten);
        RewriteResult r = new Rewriter().classPath(List.of(ibisRmi)).javaRmi(true).rewrite(List.of(rewritten));
        assertTrue(r.warnings().isEmpty(), r.warnings().toString());
        assertEquals(r.javaRmiRenamed(), 2, r.classes().toString()); // HelloImpl and HelloMain
        assertTrue(r.outcome("hello.HelloImpl").javaRmiRenamed());
        assertTrue(r.outcome("hello.HelloMain").javaRmiRenamed());
        assertFalse(r.outcome("hello.Hello").javaRmiRenamed(), "the remote interface names none of the four");
        // A remote object class is not given a generated serializer (it travels as its stub).
        assertNotEquals(r.outcome("hello.HelloImpl").status(), ClassOutcome.Status.REWRITTEN,
                r.outcome("hello.HelloImpl").toString());
    }

    @AfterClass(alwaysRun = true)
    public void cleanUp() {
        Samples.delete(original);
        Samples.delete(rewritten);
    }

    @Test
    public void originalProgramUsesTheFourJavaRmiClasses() throws IOException {
        Set<String> names = new TreeSet<>();
        for (String c : List.of("HelloImpl", "HelloMain")) {
            names.addAll(referencedNames(original.resolve("hello/" + c + ".class")));
        }
        assertTrue(names.containsAll(JAVA_RMI_RENAMED), names.toString());
    }

    @Test
    public void noReferenceToTheFourJavaRmiClassesRemainsAndExceptionsStay() throws IOException {
        Set<String> all = new TreeSet<>();
        for (String c : List.of("Hello", "HelloImpl", "HelloMain")) {
            Set<String> names = referencedNames(rewritten.resolve("hello/" + c + ".class"));
            for (String renamed : JAVA_RMI_RENAMED) {
                assertFalse(names.contains(renamed), c + " still names " + renamed + ": " + names);
            }
            all.addAll(names);
            // Not even an unused constant pool entry keeps the old names.
            String raw = new String(Files.readAllBytes(rewritten.resolve("hello/" + c + ".class")),
                    StandardCharsets.ISO_8859_1);
            for (String renamed : JAVA_RMI_RENAMED) {
                assertFalse(raw.contains(renamed), c + " still holds the string " + renamed);
            }
        }
        assertTrue(all.containsAll(List.of("ibis/rmi/Naming", "ibis/rmi/registry/LocateRegistry",
                "ibis/rmi/registry/Registry", "ibis/rmi/server/UnicastRemoteObject")), all.toString());
        assertTrue(
                all.containsAll(List.of("java/rmi/RemoteException", "java/rmi/NotBoundException", "java/rmi/Remote")),
                all.toString());
        ClassReader impl = new ClassReader(Files.readAllBytes(rewritten.resolve("hello/HelloImpl.class")));
        assertEquals(impl.getSuperName(), "ibis/rmi/server/UnicastRemoteObject");
        ClassReader iface = new ClassReader(Files.readAllBytes(rewritten.resolve("hello/Hello.class")));
        assertEquals(iface.getInterfaces(), new String[] {"java/rmi/Remote"});
        // The unchanged interface is byte for byte the original.
        assertEquals(Files.readAllBytes(rewritten.resolve("hello/Hello.class")),
                Files.readAllBytes(original.resolve("hello/Hello.class")));
    }

    @Test
    public void secondRunChangesNothing() throws Exception {
        Map<String, byte[]> before = Samples.snapshot(rewritten);
        RewriteResult again = new Rewriter().classPath(List.of(ibisRmi)).javaRmi(true).rewrite(List.of(rewritten));
        assertEquals(again.javaRmiRenamed(), 0);
        Map<String, byte[]> after = Samples.snapshot(rewritten);
        assertEquals(after.keySet(), before.keySet());
        for (String k : before.keySet()) {
            assertEquals(after.get(k), before.get(k), k);
        }
    }

    @Test
    public void everyKindOfReferenceIsRenamedAndTheClassStillLinks() throws Exception {
        Path dir = Samples.tempDir("jrmi-kinds");
        try {
            Samples.compile(dir, Map.of("k/Kinds.java", String.join("\n",
                    "package k;",
                    "public class Kinds {",
                    "    public java.rmi.registry.Registry[] regs;",
                    "    public java.util.List<java.rmi.registry.Registry> list;",
                    "    public interface Looker { java.rmi.Remote look(String s) throws Exception; }",
                    "    public static Object constant() { return java.rmi.server.UnicastRemoteObject.class; }",
                    "    public static boolean is(Object o) { return o instanceof java.rmi.registry.LocateRegistry; }",
                    "    public static Object cast(Object o) { return (java.rmi.registry.Registry) o; }",
                    "    public static Object array() { return new java.rmi.registry.Registry[1]; }",
                    "    public static Looker handle() { return java.rmi.Naming::lookup; }",
                    "    public static int port() { return java.rmi.registry.Registry.REGISTRY_PORT; }",
                    "}")));
            RewriteResult r = new Rewriter().classPath(List.of(ibisRmi)).javaRmi(true).rewrite(List.of(dir));
            assertTrue(r.outcome("k.Kinds").javaRmiRenamed());
            String raw = new String(Files.readAllBytes(dir.resolve("k/Kinds.class")), StandardCharsets.ISO_8859_1);
            for (String renamed : JAVA_RMI_RENAMED) {
                assertFalse(raw.contains(renamed), "still holds " + renamed);
            }
            try (java.net.URLClassLoader loader = new java.net.URLClassLoader(new java.net.URL[] {dir.toUri().toURL()},
                    getClass().getClassLoader())) {
                Class<?> kinds = Class.forName("k.Kinds", true, loader);
                assertEquals(kinds.getField("regs").getType(), ibis.rmi.registry.Registry[].class);
                assertTrue(
                        kinds.getField("list").getGenericType().getTypeName().contains("ibis.rmi.registry.Registry"));
                assertEquals(kinds.getMethod("constant").invoke(null), ibis.rmi.server.UnicastRemoteObject.class);
                assertEquals(kinds.getMethod("is", Object.class).invoke(null, "x"), Boolean.FALSE);
                assertEquals(kinds.getMethod("cast", Object.class).invoke(null, (Object) null), null);
                assertEquals(kinds.getMethod("array").invoke(null).getClass(), ibis.rmi.registry.Registry[].class);
                assertTrue(kinds.getMethod("handle").invoke(null) != null,
                        "the method reference links to ibis.rmi.Naming");
                assertEquals(kinds.getMethod("port").invoke(null), 1099);
            }
        } finally {
            Samples.delete(dir);
        }
    }

    @Test
    public void jarsAreRenamedAndSignedJarsLeftAloneWithAWarning() throws Exception {
        Path dir = Samples.tempDir("jrmi-jar");
        try {
            Path plain = dir.resolve("plain.jar");
            Path signed = dir.resolve("signed.jar");
            writeJar(plain, false);
            writeJar(signed, true);
            byte[] signedBefore = Files.readAllBytes(signed);
            RewriteResult r = new Rewriter().classPath(List.of(ibisRmi)).javaRmi(true).rewrite(List.of(plain));
            assertEquals(r.javaRmiRenamed(), 2);
            try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(plain.toFile())) {
                byte[] main = zip.getInputStream(zip.getEntry("hello/HelloMain.class")).readAllBytes();
                assertEquals(main, Files.readAllBytes(rewritten.resolve("hello/HelloMain.class")));
            }
            RewriteResult s = new Rewriter().classPath(List.of(ibisRmi)).javaRmi(true).rewrite(List.of(signed));
            assertEquals(s.javaRmiRenamed(), 0);
            assertTrue(s.warnings().stream().anyMatch(w -> w.contains("hello.HelloMain") && w.contains("signed jar")),
                    s.warnings().toString());
            assertEquals(Files.readAllBytes(signed), signedBefore);
        } finally {
            Samples.delete(dir);
        }
    }

    private void writeJar(Path jar, boolean signed) throws IOException {
        try (java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(Files.newOutputStream(jar))) {
            if (signed) {
                out.putNextEntry(new java.util.zip.ZipEntry("META-INF/SIGNER.SF"));
                out.write("Signature-Version: 1.0\n".getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
            for (String c : List.of("Hello", "HelloImpl", "HelloMain")) {
                out.putNextEntry(new java.util.zip.ZipEntry("hello/" + c + ".class"));
                out.write(Files.readAllBytes(original.resolve("hello/" + c + ".class")));
                out.closeEntry();
            }
        }
    }

    @Test
    public void remoteServerStaticsAreSentToIbisUnicastRemoteObject() throws Exception {
        Path dir = Samples.tempDir("jrmi-statics");
        try {
            Samples.compile(dir, Map.of("s/Statics.java", String.join("\n",
                    "package s;",
                    "public class Statics {",
                    "    public static String viaServer() throws Exception {"
                            + " return java.rmi.server.RemoteServer.getClientHost(); }",
                    "    public static String viaUnicast() throws Exception {",
                    "        return java.rmi.server.UnicastRemoteObject.getClientHost();",
                    "    }",
                    "    public static Object log(java.io.OutputStream out) {",
                    "        java.rmi.server.RemoteServer.setLog(out);",
                    "        return java.rmi.server.RemoteServer.getLog();",
                    "    }",
                    "}")));
            RewriteResult r = new Rewriter().classPath(List.of(ibisRmi)).javaRmi(true).rewrite(List.of(dir));
            assertTrue(r.outcome("s.Statics").javaRmiRenamed());
            Set<String> names = referencedNames(dir.resolve("s/Statics.class"));
            assertFalse(names.contains("java/rmi/server/RemoteServer"), "still calls RemoteServer: " + names);
            assertTrue(names.contains("ibis/rmi/server/UnicastRemoteObject"), names.toString());
            try (java.net.URLClassLoader loader = new java.net.URLClassLoader(new java.net.URL[] {dir.toUri().toURL()},
                    getClass().getClassLoader())) {
                Class<?> statics = Class.forName("s.Statics", true, loader);
                for (String m : List.of("viaServer", "viaUnicast")) {
                    try {
                        statics.getMethod(m).invoke(null);
                        fail(m + " outside a remote call returned");
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        assertTrue(e.getCause() instanceof java.rmi.server.ServerNotActiveException,
                                m + ": " + e.getCause());
                    }
                }
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                assertTrue(statics.getMethod("log", java.io.OutputStream.class).invoke(null, out) != null,
                        "getLog returns the stream setLog set");
                assertEquals(statics.getMethod("log", java.io.OutputStream.class).invoke(null, (Object) null), null);
            }
        } finally {
            Samples.delete(dir);
        }
    }

    @Test
    public void membersWithoutIbisCounterpartFailNamingClassAndMembersAndWriteNothing() throws Exception {
        Path dir = Samples.tempDir("jrmi-missing");
        try {
            Samples.compile(dir, Map.of("m/Custom.java", String.join("\n",
                    "package m;",
                    "public class Custom extends java.rmi.server.UnicastRemoteObject implements java.rmi.Remote {",
                    "    private static final long serialVersionUID = 1L;",
                    "    public Custom() throws java.rmi.RemoteException { }",
                    "    static Object invoke(java.rmi.server.UnicastRemoteObject o) throws Exception {",
                    "        return o.getRef().invoke(o, null, null, 0L);", // RemoteRef's: not in Ibis RMI
                    "    }",
                    "}")));
            Map<String, byte[]> before = Samples.snapshot(dir);
            try {
                new Rewriter().classPath(List.of(ibisRmi)).javaRmi(true).rewrite(List.of(dir));
                fail("a method Ibis RMI lacks must fail the pass");
            } catch (RewriteException e) {
                assertTrue(e.getMessage().contains("m.Custom"), e.getMessage());
                assertTrue(e.getMessage().contains("method java.rmi.server.RemoteRef.invoke(java.rmi.Remote,"
                        + " java.lang.reflect.Method, java.lang.Object[], long) returning java.lang.Object"),
                        e.getMessage());
                assertTrue(e.getMessage().contains("no ibis.rmi counterpart"), e.getMessage());
            }
            assertSnapshotEquals(Samples.snapshot(dir), before);
        } finally {
            Samples.delete(dir);
        }
    }

    /**
     * RemoteObject's getRef (through UnicastRemoteObject and through the program's own subclass),
     * RemoteRef's identity methods and RemoteObject.toStub are mapped, and the rewritten class
     * links against ibis.rmi (each method reaches its null receiver, not a NoSuchMethodError).
     */
    @Test
    public void getRefAndTheRefsIdentityMethodsAreMappedAndLink() throws Exception {
        Path dir = Samples.tempDir("jrmi-getref");
        try {
            Samples.compile(dir, Map.of("g/Refs.java", String.join("\n",
                    "package g;",
                    "public class Refs extends java.rmi.server.UnicastRemoteObject implements java.rmi.Remote {",
                    "    private static final long serialVersionUID = 1L;",
                    "    public Refs() throws java.rmi.RemoteException { }",
                    "    public static String describe(java.rmi.server.UnicastRemoteObject o) {",
                    "        java.rmi.server.RemoteRef r = o.getRef();",
                    "        return r.remoteToString() + r.remoteHashCode() + r.remoteEquals(r);",
                    "    }",
                    "    public static Object own(Refs o) { return o.getRef(); }",
                    "    public static java.rmi.Remote stub(java.rmi.Remote o) throws Exception {",
                    "        return java.rmi.server.RemoteObject.toStub(o);",
                    "    }",
                    "}")));
            RewriteResult r = new Rewriter().classPath(List.of(ibisRmi)).javaRmi(true).rewrite(List.of(dir));
            assertTrue(r.outcome("g.Refs").javaRmiRenamed());
            String raw = new String(Files.readAllBytes(dir.resolve("g/Refs.class")), StandardCharsets.ISO_8859_1);
            assertFalse(raw.contains("java/rmi/server/RemoteRef"), "still names java.rmi.server.RemoteRef");
            assertFalse(raw.contains("java/rmi/server/RemoteObject"), "still names java.rmi.server.RemoteObject");
            try (java.net.URLClassLoader loader = new java.net.URLClassLoader(new java.net.URL[] {dir.toUri().toURL()},
                    getClass().getClassLoader())) {
                Class<?> refs = Class.forName("g.Refs", true, loader);
                assertEquals(refs.getSuperclass(), ibis.rmi.server.UnicastRemoteObject.class);
                assertEquals(refs.getMethod("own", refs).getReturnType(), Object.class);
                for (java.lang.reflect.Method m : new java.lang.reflect.Method[] {
                        refs.getMethod("describe", ibis.rmi.server.UnicastRemoteObject.class),
                        refs.getMethod("own", refs)}) {
                    try {
                        m.invoke(null, (Object) null);
                        fail(m + " with a null object returned");
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        assertTrue(e.getCause() instanceof NullPointerException, m + " links: " + e.getCause());
                    }
                }
            }
        } finally {
            Samples.delete(dir);
        }
    }

    /**
     * Every constructor and exportObject overload of the JDK's UnicastRemoteObject (and clone) is
     * mapped, and the rewritten class links against ibis.rmi and exports through each of them.
     */
    @Test(timeOut = 120_000)
    public void everyJdkExportOverloadIsMappedAndWorks() throws Exception {
        Path dir = Samples.tempDir("jrmi-overloads");
        try {
            Samples.compile(dir, Map.of(
                    "o/Ping.java", String.join("\n",
                            "package o;",
                            "public interface Ping extends java.rmi.Remote {"
                                    + " int ping(int x) throws java.rmi.RemoteException; }"),
                    "o/Plain.java", String.join("\n",
                            "package o;",
                            "public class Plain implements Ping { public int ping(int x) { return x + 1; } }"),
                    "o/Sub.java", String.join("\n",
                            "package o;",
                            "import java.rmi.server.*;",
                            "public class Sub extends UnicastRemoteObject implements Ping, Cloneable {",
                            "    private static final long serialVersionUID = 1L;",
                            "    public Sub() throws java.rmi.RemoteException { super(); }",
                            "    public Sub(int port) throws java.rmi.RemoteException { super(port); }",
                            "    public Sub(int port, RMIClientSocketFactory c, RMIServerSocketFactory s)"
                                    + " throws java.rmi.RemoteException { super(port, c, s); }",
                            "    public int ping(int x) { return x + 2; }",
                            "    public Object copy() throws CloneNotSupportedException { return clone(); }",
                            "}"),
                    "o/Main.java", String.join("\n",
                            "package o;",
                            "import java.rmi.Remote;",
                            "import java.rmi.server.*;",
                            "public final class Main {",
                            "    public static void main(String[] args) throws Exception {",
                            "        RemoteStub s0 = UnicastRemoteObject.exportObject(new Plain());",
                            "        Remote s1 = UnicastRemoteObject.exportObject(new Plain(), 0);",
                            "        Remote s2 = UnicastRemoteObject.exportObject(new Plain(), 0, null,"
                                    + " (RMIServerSocketFactory) null);",
                            "        Remote s3 = UnicastRemoteObject.exportObject(new Plain(), 0,"
                                    + " (java.io.ObjectInputFilter) null);",
                            "        Remote s4 = UnicastRemoteObject.exportObject(new Plain(), 0, null, null,"
                                    + " java.io.ObjectInputFilter.Config.createFilter(\"*\"));",
                            "        int sum = 0;",
                            "        for (Remote r : new Remote[] { s0, s1, s2, s3, s4 }) sum += ((Ping) r).ping(10);",
                            "        Sub a = new Sub(); Sub b = new Sub(1234); Sub c = new Sub(0, null, null);",
                            "        Sub d = (Sub) c.copy();",
                            "        for (Sub x : new Sub[] { a, b, c, d })"
                                    + " sum += ((Ping) UnicastRemoteObject.toStub(x)).ping(100);",
                            "        System.out.println(\"SUM \" + sum + \" \" + (d != c)"
                                    + " + \" \" + s0.getClass().getName());",
                            "        for (Sub x : new Sub[] { a, b, c, d })"
                                    + " UnicastRemoteObject.unexportObject(x, true);",
                            "        System.exit(0);",
                            "    }",
                            "}")));
            RewriteResult r = new Rewriter().classPath(List.of(ibisRmi)).javaRmi(true).rewrite(List.of(dir));
            assertTrue(r.outcome("o.Main").javaRmiRenamed());
            assertTrue(r.outcome("o.Sub").javaRmiRenamed());
            Set<String> names = referencedNames(dir.resolve("o/Main.class"));
            assertFalse(names.contains("java/rmi/server/UnicastRemoteObject"), names.toString());
            assertFalse(names.contains("java/rmi/server/RemoteStub"), names.toString());
            assertTrue(names.contains("ibis/rmi/server/RemoteStub"), names.toString());
            Samples.ProcessResult run = Samples.runInOwnPool(dir, "rewriter-overloads", "o.Main");
            assertEquals(run.exitCode, 0, run.output);
            // 5 x 11 + 4 x 102; the clone is a distinct object; exportObject(Remote) gives the build-time stub.
            assertTrue(run.output.contains("SUM 463 true o.Plain_IbisStub"), run.output);
        } finally {
            Samples.delete(dir);
        }
    }

    /**
     * The JDK's {@code LocateRegistry.createRegistry(port, csf, ssf)} and
     * {@code getRegistry(host, port, csf)} are mapped (the pass used to refuse a program calling
     * them), and the rewritten program serves and finds its registry through them.
     */
    @Test(timeOut = 120_000)
    public void registryOverloadsWithSocketFactoriesAreMappedAndWork() throws Exception {
        Path dir = Samples.tempDir("jrmi-registry-factories");
        try {
            Samples.compile(dir, Map.of(
                    "f/Ping.java", String.join("\n",
                            "package f;",
                            "public interface Ping extends java.rmi.Remote {"
                                    + " int ping(int x) throws java.rmi.RemoteException; }"),
                    "f/Main.java", String.join("\n",
                            "package f;",
                            "import java.rmi.registry.*;",
                            "import java.rmi.server.*;",
                            "public final class Main extends UnicastRemoteObject implements Ping {",
                            "    private static final long serialVersionUID = 1L;",
                            "    Main() throws java.rmi.RemoteException { }",
                            "    public int ping(int x) { return x * 3; }",
                            "    public static void main(String[] args) throws Exception {",
                            "        RMISocketFactory sf = RMISocketFactory.getDefaultSocketFactory();",
                            "        Registry created = LocateRegistry.createRegistry(Registry.REGISTRY_PORT, sf, sf);",
                            "        created.rebind(\"p\", new Main());",
                            "        Registry found = LocateRegistry.getRegistry(\"localhost\", Registry.REGISTRY_PORT,"
                                    + " sf);",
                            "        System.out.println(\"PING \" + ((Ping) found.lookup(\"p\")).ping(14));",
                            "        System.exit(0);",
                            "    }",
                            "}")));
            RewriteResult r = new Rewriter().classPath(List.of(ibisRmi)).javaRmi(true).rewrite(List.of(dir));
            assertTrue(r.outcome("f.Main").javaRmiRenamed());
            Set<String> names = referencedNames(dir.resolve("f/Main.class"));
            assertFalse(names.contains("java/rmi/registry/LocateRegistry"), names.toString());
            Samples.ProcessResult run = Samples.runInOwnPool(dir, "rewriter-registry-factories", "f.Main");
            assertEquals(run.exitCode, 0, run.output);
            assertTrue(run.output.contains("PING 42"), run.output);
        } finally {
            Samples.delete(dir);
        }
    }

    @Test(timeOut = 60_000)
    public void ibisRmiIsFoundOnTheRewritersOwnClassPathAndWithoutItTheFailureSaysSo() throws Exception {
        Path dir = Samples.tempDir("jrmi-nocp");
        try {
            Samples.compile(dir, Map.of("n/Find.java", String.join("\n",
                    "package n;",
                    "public class Find {",
                    "    public static Object find() throws Exception { return java.rmi.Naming.lookup(\"x\"); }",
                    "}")));
            Map<String, byte[]> before = Samples.snapshot(dir);
            // ibisc in a JVM without ibis-rmi, and no -cp: nothing to check against.
            Path rmi = ibisRmi.toAbsolutePath().normalize();
            StringBuilder cp = new StringBuilder();
            for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
                if (!e.isEmpty() && !Paths.get(e).toAbsolutePath().normalize().equals(rmi)) {
                    cp.append(cp.length() == 0 ? "" : File.pathSeparator).append(e);
                }
            }
            Samples.ProcessResult r = Samples.run(List.of(Samples.javaBin(), "-cp", cp.toString(),
                    Ibisc.class.getName(), "--java-rmi", dir.toString()), 60);
            assertEquals(r.exitCode, Ibisc.FAILURE, r.output);
            assertTrue(r.output.contains("n.Find"), r.output);
            assertTrue(r.output.contains("ibis.rmi.Naming is not on the class path"), r.output);
            assertSnapshotEquals(Samples.snapshot(dir), before);
            // In this JVM ibis-rmi is on the rewriter's own class path: no -cp needed.
            RewriteResult ok = new Rewriter().javaRmi(true).rewrite(List.of(dir));
            assertTrue(ok.outcome("n.Find").javaRmiRenamed());
            assertTrue(referencedNames(dir.resolve("n/Find.class")).contains("ibis/rmi/Naming"));
        } finally {
            Samples.delete(dir);
        }
    }

    @Test
    public void ibiscCommandRenamesWithJavaRmiOption() throws Exception {
        Path dir = Samples.tempDir("jrmi-ibisc");
        try {
            copyTree(original, dir);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            int rc = Ibisc.run(new String[] {"-v", "--java-rmi", "-cp", ibisRmi.toString(), dir.toString()},
                    new java.io.PrintStream(out, true, StandardCharsets.UTF_8),
                    new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
            String o = out.toString(StandardCharsets.UTF_8);
            assertEquals(rc, Ibisc.OK, o + err.toString(StandardCharsets.UTF_8));
            for (String line : o.split("\\R")) {
                if (line.contains(" hello.HelloMain:")) {
                    assertTrue(line.endsWith("(java.rmi renamed to ibis.rmi)"), line);
                } else if (line.contains(" hello.HelloImpl:")) {
                    assertTrue(line.endsWith(
                            "(java.rmi renamed to ibis.rmi) (RMI stub hello.HelloImpl_IbisStub and skeleton)"), line);
                } else if (line.contains(" hello.Hello:")) {
                    assertFalse(line.contains("renamed"), line);
                }
            }
            assertTrue(o.contains(" hello.HelloMain:") && o.contains(" hello.HelloImpl:"), o);
            assertTrue(o.contains(", 2 renamed from java.rmi to ibis.rmi"), o);
            assertSnapshotEquals(Samples.snapshot(dir), Samples.snapshot(rewritten));
        } finally {
            Samples.delete(dir);
        }
    }

    /** The unchanged program on the JDK's own RMI, in two child JVMs. */
    @Test(timeOut = 120_000)
    public void originalProgramRunsOnJdkRmi() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        List<String> jvm = List.of("-Djava.rmi.server.hostname=127.0.0.1");
        String client = runServerAndClient(original, jvm, port);
        assertFalse(client.contains("STUB ibis.rmi."), client);
    }

    /** The rewritten program on Ibis RMI (tcp), in two child JVMs of one pool. */
    @Test(timeOut = 120_000)
    public void rewrittenProgramRunsOnIbisRmi() throws Exception {
        Properties serverProperties = new Properties();
        serverProperties.setProperty("ibis.registry.server.bind", "127.0.0.1");
        try (CentralRegistryServer server = new CentralRegistryServer(0, serverProperties)) {
            server.start();
            List<String> jvm = List.of("-Dibis.server.address=" + server.address(),
                    "-Dibis.pool.name=rewriter-jrmi-" + UUID.randomUUID(), "-Dibis.implementation=tcp",
                    "-Dibis.rmi.connect.timeout=10000", "-Dibis.rmi.registry.timeout=20000");
            String client = runServerAndClient(rewritten, jvm, 4242);
            // The stubs pass ran with --java-rmi: the build-time stub is used.
            assertTrue(client.contains("STUB hello.HelloImpl_IbisStub"), "the build-time Ibis RMI stub: " + client);
        }
    }

    /** Runs the program's server, then its client; checks the replies; returns the client's output. */
    private static String runServerAndClient(Path classes, List<String> jvmOptions, int port) throws Exception {
        List<String> base = new ArrayList<>();
        base.add(Samples.javaBin());
        base.add("-Xmx256m");
        base.add("-cp");
        base.add(classes + File.pathSeparator + System.getProperty("java.class.path"));
        base.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        base.addAll(jvmOptions);
        base.add("hello.HelloMain");
        List<String> serverCmd = new ArrayList<>(base);
        serverCmd.add("server");
        serverCmd.add(Integer.toString(port));
        Process server = new ProcessBuilder(serverCmd).redirectErrorStream(true).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        StringBuffer serverOutput = new StringBuffer();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(server.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    serverOutput.append(line).append('\n');
                    lines.add(line);
                }
            } catch (IOException e) {
                serverOutput.append("(reading failed: ").append(e).append(")\n");
            }
        }, "server-output");
        reader.setDaemon(true);
        reader.start();
        try {
            String line;
            do {
                line = lines.poll(60, TimeUnit.SECONDS);
                assertTrue(line != null, "server not ready within 60 s:\n" + serverOutput);
            } while (!line.equals("READY"));
            List<String> clientCmd = new ArrayList<>(base);
            clientCmd.add("client");
            clientCmd.add(Integer.toString(port));
            Samples.ProcessResult client = Samples.run(clientCmd, 60);
            String msg = "client:\n" + client.output + "\nserver:\n" + serverOutput;
            assertEquals(client.exitCode, 0, msg);
            assertTrue(client.output.contains("REPLY hello registry\n"), msg);
            assertTrue(client.output.contains("REPLY hello naming\n"), msg);
            assertTrue(client.output.contains("NOTBOUND nobody\n"), msg);
            server.getOutputStream().close(); // ends the server's wait
            assertTrue(server.waitFor(30, TimeUnit.SECONDS), "server did not end:\n" + serverOutput);
            assertEquals(server.exitValue(), 0, serverOutput.toString());
            return client.output;
        } finally {
            server.destroyForcibly();
        }
    }

    /** Every internal class name the class file mentions (owners, descriptors, signatures, constants, ...). */
    static Set<String> referencedNames(Path classFile) throws IOException {
        Set<String> names = new TreeSet<>();
        Remapper collector = new Remapper() {
            @Override
            public String map(String internalName) {
                names.add(internalName);
                return internalName;
            }
        };
        new ClassReader(Files.readAllBytes(classFile)).accept(new ClassRemapper(new ClassWriter(0), collector), 0);
        return names;
    }

    private static void assertSnapshotEquals(Map<String, byte[]> actual, Map<String, byte[]> expected) {
        assertEquals(actual.keySet(), expected.keySet());
        for (String k : expected.keySet()) {
            assertEquals(actual.get(k), expected.get(k), k);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (java.util.stream.Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }
}
