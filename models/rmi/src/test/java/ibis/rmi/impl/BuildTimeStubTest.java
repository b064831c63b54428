package ibis.rmi.impl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertNotSame;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;

import ibis.io.config.Property;
import ibis.io.config.PropertyTable;
import ibis.rmi.server.RemoteStub;
import ibis.rmi.server.UnicastRemoteObject;
import ibis.rmi.testing.RmiTestPool;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.rmi.Remote;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * Build-time stubs and skeletons at run time: a remote class compiled at test time, with its
 * {@code _IbisStub}/{@code _IbisSkeleton} classes written next to it (the bytes the rewriter pass
 * writes), is exported and called; the run time uses those classes instead of generating, and a
 * stub generated at run time for the same object gives the same results. A stale build-time
 * class (other interfaces) is ignored.
 */
public class BuildTimeStubTest {

    private static final Map<String, String> SOURCES = Map.of(
            "bt/Adder.java", String.join("\n",
                    "package bt;",
                    "public interface Adder extends java.rmi.Remote {",
                    "    long add(int a, long b) throws java.rmi.RemoteException;",
                    "    double[] scale(double[] v, float f) throws java.rmi.RemoteException;",
                    "    Object[] pair(Object a) throws java.rmi.RemoteException;",
                    "    void fail(String m) throws java.rmi.RemoteException;",
                    "}"),
            "bt/AdderImpl.java", String.join("\n",
                    "package bt;",
                    "public class AdderImpl implements Adder {",
                    "    public long add(int a, long b) { return a + b; }",
                    "    public double[] scale(double[] v, float f) {",
                    "        double[] r = v.clone(); for (int i = 0; i < r.length; i++) r[i] *= f; return r;",
                    "    }",
                    "    public Object[] pair(Object a) { return new Object[] { a, a }; }",
                    "    public void fail(String m) { throw new IllegalArgumentException(m); }",
                    "}"),
            "bt/Other.java", String.join("\n",
                    "package bt;",
                    "public interface Other extends java.rmi.Remote { int other() throws java.rmi.RemoteException; }"),
            "bt/OtherImpl.java", String.join("\n",
                    "package bt;",
                    "public class OtherImpl implements Other { public int other() { return 1; } }"));

    private Path dir;

    @BeforeClass
    public void compile() throws IOException {
        RmiTestPool.start();
        dir = Files.createTempDirectory("ibis-rmi-buildtime");
        List<String> args = new ArrayList<>(List.of("--release", "17", "-d", dir.toString(), "-proc:none"));
        for (Map.Entry<String, String> e : SOURCES.entrySet()) {
            Path f = dir.resolve("src").resolve(e.getKey());
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
            args.add(f.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        assertEquals(javac.run(null, errors, errors, args.toArray(new String[0])), 0,
                errors.toString(StandardCharsets.UTF_8));
    }

    @AfterClass(alwaysRun = true)
    public void delete() throws IOException {
        if (dir != null) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** A fresh loader over a copy of the compiled classes plus the given generated classes. */
    private URLClassLoader loader(String name, Map<String, byte[]> generated) throws IOException {
        Path copy = dir.resolve(name);
        for (String c : List.of("Adder", "AdderImpl", "Other", "OtherImpl")) {
            Files.createDirectories(copy.resolve("bt"));
            Files.copy(dir.resolve("bt/" + c + ".class"), copy.resolve("bt/" + c + ".class"));
        }
        for (Map.Entry<String, byte[]> e : generated.entrySet()) {
            Files.write(copy.resolve(e.getKey().replace('.', '/') + ".class"), e.getValue());
        }
        return new URLClassLoader(new URL[] { copy.toUri().toURL() }, getClass().getClassLoader());
    }

    private static RemoteMethodTable table(ClassLoader loader, String remoteClass) throws ClassNotFoundException {
        return RemoteInterfaces.of(Class.forName(remoteClass, false, loader)).table();
    }

    @Test(timeOut = 60_000)
    public void buildTimeClassesAreUsedAndGiveTheSameResultsAsRunTimeOnes() throws Exception {
        RemoteMethodTable adder;
        try (URLClassLoader plain = loader("plain", Map.of())) {
            adder = table(plain, "bt.AdderImpl");
        }
        String stubName = RemoteMethodTable.stubName("bt.AdderImpl");
        String skeletonName = RemoteMethodTable.skeletonName("bt.AdderImpl");
        assertEquals(stubName, "bt.AdderImpl_IbisStub");
        assertEquals(skeletonName, "bt.AdderImpl_IbisSkeleton");
        try (URLClassLoader loader = loader("built", Map.of(stubName, StubGenerator.stubBytes(stubName, adder),
                skeletonName, StubGenerator.skeletonBytes(skeletonName, adder)))) {
            Class<?> implClass = Class.forName("bt.AdderImpl", true, loader);
            Class<?> iface = Class.forName("bt.Adder", false, loader);
            List<String> generatedBefore = GeneratedCode.runtimeGenerated();
            Remote impl = (Remote) implClass.getConstructor().newInstance();
            Remote built = UnicastRemoteObject.exportObject(impl);
            try {
                assertEquals(built.getClass().getName(), stubName);
                assertSame(built.getClass().getClassLoader(), loader, "the build-time class, not a generated one");
                Skeleton skeleton = GeneratedCode.skeleton(RemoteInterfaces.of(implClass), implClass);
                assertEquals(skeleton.getClass().getName(), skeletonName);
                assertEquals(GeneratedCode.runtimeGenerated(), generatedBefore, "nothing generated at run time");

                // A run-time stub of the same object (the remote class unknown, as for a bare handle).
                Field refField = RemoteStub.class.getDeclaredField("ref");
                refField.setAccessible(true);
                RemoteReference ref = (RemoteReference) refField.get(built);
                RemoteStub runtime = GeneratedCode.newStub(RemoteInterfaces.of(implClass), null, null, ref);
                assertNotEquals(runtime.getClass().getName(), stubName);
                assertTrue(runtime.getClass().getName().startsWith("ibis.rmi.generated.Adder_Stub"),
                        runtime.getClass().getName());
                assertTrue(GeneratedCode.runtimeGenerated().contains(runtime.getClass().getName()));
                assertEquals(runtime, built, "both refer to the same remote object");

                assertEquals(calls(iface, built), calls(iface, runtime));
                List<String> results = calls(iface, built);
                assertEquals(results.get(0), "add 12345678901");
                assertEquals(results.get(1), "scale [1.5, -3.0]");
                assertEquals(results.get(2), "pair same=true [x]");
                assertEquals(results.get(3), "fail java.lang.IllegalArgumentException no");
            } finally {
                UnicastRemoteObject.unexportObject(impl, true);
            }
        }
    }

    /** The same calls through a stub; results as text. */
    private static List<String> calls(Class<?> iface, Remote stub) throws Exception {
        List<String> out = new ArrayList<>();
        Method add = iface.getMethod("add", int.class, long.class);
        out.add("add " + add.invoke(stub, 1, 12345678900L));
        out.add("scale " + Arrays.toString((double[]) iface.getMethod("scale", double[].class, float.class)
                .invoke(stub, new double[] { 1, -2 }, 1.5f)));
        Object[] pair = (Object[]) iface.getMethod("pair", Object.class).invoke(stub, new ArrayList<>(List.of("x")));
        out.add("pair same=" + (pair[0] == pair[1]) + " " + pair[0]);
        // (No remote object results here: the reply thread resolves stub interfaces with the
        // application's loader, which does not see this test's class loader. The rewriter's
        // cross-JVM test covers them.)
        try {
            iface.getMethod("fail", String.class).invoke(stub, "no");
            out.add("fail none");
        } catch (InvocationTargetException e) {
            out.add("fail " + e.getCause().getClass().getName() + " " + e.getCause().getMessage());
        }
        return out;
    }

    @Test(timeOut = 60_000)
    public void aStaleBuildTimeClassIsIgnored() throws Exception {
        RemoteMethodTable other;
        try (URLClassLoader plain = loader("plain2", Map.of())) {
            other = table(plain, "bt.OtherImpl");
        }
        // Classes named for AdderImpl but generated for other interfaces (an outdated build).
        String stubName = RemoteMethodTable.stubName("bt.AdderImpl");
        String skeletonName = RemoteMethodTable.skeletonName("bt.AdderImpl");
        try (URLClassLoader loader = loader("stale", Map.of(stubName, StubGenerator.stubBytes(stubName, other),
                skeletonName, StubGenerator.skeletonBytes(skeletonName, other)))) {
            Class<?> implClass = Class.forName("bt.AdderImpl", true, loader);
            Class<?> iface = Class.forName("bt.Adder", false, loader);
            Remote impl = (Remote) implClass.getConstructor().newInstance();
            Remote stub = UnicastRemoteObject.exportObject(impl);
            try {
                assertNotEquals(stub.getClass().getName(), stubName);
                assertNotSame(stub.getClass().getClassLoader(), loader);
                assertTrue(GeneratedCode.runtimeGenerated().contains(stub.getClass().getName()));
                assertEquals(iface.getMethod("add", int.class, long.class).invoke(stub, 2, 40L), 42L);
            } finally {
                UnicastRemoteObject.unexportObject(impl, true);
            }
        }
    }

    @Test
    public void rmiPropertiesAreATableForHelpProperties() {
        PropertyTable rmi = null;
        for (PropertyTable t : ServiceLoader.load(PropertyTable.class)) {
            if (t.subsystem().equals("rmi")) {
                rmi = t;
            }
        }
        assertTrue(rmi != null, "no PropertyTable service for rmi");
        List<String> names = rmi.properties().stream().map(Property::name).toList();
        assertTrue(names.contains(GeneratedCode.WARN_PROPERTY), names.toString());
        assertTrue(names.contains(RmiRuntime.CONNECT_TIMEOUT), names.toString());
    }
}
