package ibis.rewriter;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;

import ibis.gmi.impl.GroupCode;
import ibis.testsupport.ChildJvm;
import ibis.testsupport.PoolFixture;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.Test;

/**
 * The GMI pass: every group interface gets its group stub and per-method parameter vectors
 * written next to it, byte for byte what GMI's run time generates for the same interface, and the
 * run time then uses the written stub instead of generating one; a GMI program gives the same
 * results in two JVMs with build-time classes as with run-time ones.
 */
public class GmiStubPassTest {

    static final Map<String, String> PROGRAM = Map.of(
            "grp/Base.java", String.join("\n",
                    "package grp;",
                    "public interface Base extends ibis.gmi.GroupInterface {",
                    "    int add(int a, int b);",
                    "}"),
            "grp/Calc.java", String.join("\n",
                    "package grp;",
                    "public interface Calc extends Base {",
                    "    void put(double[] d, String s) throws java.io.IOException;",
                    "    long over(long x);",
                    "    default int twice(int x) { return 2 * x; }",
                    "    static int none() { return 0; }",
                    "}"),
            "grp/Plain.java", String.join("\n",
                    "package grp;",
                    "public interface Plain { int add(int a, int b); }"));

    @Test
    public void groupInterfacesGetTheRunTimesStubAndVectors() throws Exception {
        Path gmi = Paths.get(GroupCode.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path dir = Samples.compile(Samples.tempDir("gmistubs"), PROGRAM, gmi);
        try {
            new Rewriter().classPath(List.of(gmi)).rewrite(List.of(dir));
            Path grp = dir.resolve("grp");
            assertTrue(Files.exists(grp.resolve("Base_GmiStub.class")));
            assertTrue(Files.exists(grp.resolve("Base_GmiSkeleton.class")));
            assertTrue(Files.exists(grp.resolve("Base_GmiParameters0.class")));
            assertFalse(Files.exists(grp.resolve("Base_GmiParameters1.class")));
            assertFalse(Files.exists(grp.resolve("Plain_GmiStub.class")), "not a group interface");
            // Calc: add (inherited), over, put; the default and static methods are not group methods.
            for (int i = 0; i < 3; i++) {
                assertTrue(Files.exists(grp.resolve("Calc_GmiParameters" + i + ".class")), "vector " + i);
            }
            assertFalse(Files.exists(grp.resolve("Calc_GmiParameters3.class")));
            try (URLClassLoader loader = new URLClassLoader(new URL[] { dir.toUri().toURL() },
                    GmiStubPassTest.class.getClassLoader())) {
                Class<?> calc = Class.forName("grp.Calc", false, loader);
                assertTrue(Arrays.equals(Files.readAllBytes(grp.resolve("Calc_GmiStub.class")),
                        GroupCode.runtimeStubBytes(calc)), "build-time and run-time stubs are the same bytes");
                for (int i = 0; i < 3; i++) {
                    assertTrue(Arrays.equals(Files.readAllBytes(grp.resolve("Calc_GmiParameters" + i + ".class")),
                            GroupCode.runtimeVectorBytes(calc, i)), "vector " + i);
                }
                assertTrue(Arrays.equals(Files.readAllBytes(grp.resolve("Calc_GmiSkeleton.class")),
                        GroupCode.runtimeSkeletonBytes(calc)), "build-time and run-time skeletons are the same bytes");
                assertSame(GroupCode.skeletonClass(calc).getClassLoader(), loader, "the skeleton ibisc wrote");
                Class<?> stub = GroupCode.stubClass(calc);
                assertEquals(stub.getName(), "grp.Calc_GmiStub");
                assertSame(stub.getClassLoader(), loader, "the run time uses the stub ibisc wrote");
            }
            byte[] before = Files.readAllBytes(grp.resolve("Calc_GmiStub.class"));
            new Rewriter().classPath(List.of(gmi)).rewrite(List.of(dir));
            assertTrue(Arrays.equals(before, Files.readAllBytes(grp.resolve("Calc_GmiStub.class"))), "stable");
        } finally {
            Samples.delete(dir);
        }
    }

    /** A GMI program: a group of all processes, a flat-combined group call, a collective barrier. */
    static final Map<String, String> APP = Map.of(
            "app/Sum.java", String.join("\n",
                    "package app;",
                    "public interface Sum extends ibis.gmi.GroupInterface {",
                    "    int times(int x);",
                    "    double weigh(double[] d);",
                    "    void sync();",
                    "}"),
            "app/Main.java", String.join("\n",
                    "package app;",
                    "import ibis.gmi.*;",
                    "public class Main {",
                    "    public static class Member extends GroupMember implements Sum {",
                    "        public int times(int x) { return (getRank() + 1) * x; }",
                    "        public double weigh(double[] d) { double s = 0; for (double v : d) s += v;"
                            + " return s * (getRank() + 1); }",
                    "        public void sync() { }",
                    "    }",
                    "    public static class Add extends FlatCombiner {",
                    "        @Override public int combine(int[] r, Exception[] e) {",
                    "            int s = 0; for (int v : r) s += v; return s; }",
                    "    }",
                    "    public static class Tree extends BinomialCombiner {",
                    "        @Override public double combine(int r1, double a, Exception e1, int r2, double b,"
                            + " Exception e2, int n) { return a + b; }",
                    "    }",
                    "    public static class Halves extends Personalizer {",
                    "        @Override public void personalize(ParameterVector in, ParameterVector[] out) {",
                    "            double[] all = (double[]) in.readObject(0);",
                    "            for (int r = 0; r < out.length; r++) out[r].writeSubArray(0, r * 2, 2, all);",
                    "        }",
                    "    }",
                    "    public static class None extends BinomialInvocationCombiner {",
                    "        @Override public void combine(ParameterVector a, ParameterVector b,",
                    "                ParameterVector o) { }",
                    "    }",
                    "    public static void main(String[] args) throws Exception {",
                    "        int me = Group.rank(), n = Group.size();",
                    "        if (me == 0) Group.create(\"sum\", Sum.class, n);",
                    "        Group.join(\"sum\", new Member(), me, 60000);",
                    "        Sum s = (Sum) Group.lookup(\"sum\", 60000);",
                    "        Group.findMethod(s, \"int times(int)\").configure(new GroupInvocation(),"
                            + " new CombineReply(new Add()));",
                    "        Group.findMethod(s, \"double weigh(double[])\").configure(new PersonalizedInvocation("
                            + "new Halves()), new CombineReply(new Tree()));",
                    "        Group.findMethod(s, \"void sync()\").configure(new CombinedInvocation(\"sync\", me, n,"
                            + " new None(), new SingleInvocation(0)), new ReturnReply(0));",
                    "        boolean prebuilt = s.getClass().getClassLoader() == Sum.class.getClassLoader();",
                    "        System.out.println(\"RESULT \" + s.times(3) + \" \" + s.weigh(new double[] { 1, 2, 3, 4 })"
                            + " + (prebuilt ? \" prebuilt\" : \" generated\"));",
                    "        s.sync();",
                    "        Group.exit();",
                    "    }",
                    "}"));

    @Test(timeOut = 180_000)
    public void aGmiProgramGivesTheSameResultsWithBuildTimeAndRunTimeClasses() throws Exception {
        Path gmi = Paths.get(GroupCode.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path runTime = Samples.compile(Samples.tempDir("gmiapp-run"), APP, gmi);
        Path buildTime = Samples.compile(Samples.tempDir("gmiapp-build"), APP, gmi);
        try (PoolFixture pool = new PoolFixture("tcp")) {
            new Rewriter().classPath(List.of(gmi)).rewrite(List.of(buildTime));
            assertTrue(Files.exists(buildTime.resolve("app/Sum_GmiStub.class")));
            List<String> built = runPair(pool, buildTime, "built");
            List<String> generated = runPair(pool, runTime, "generated");
            for (String line : built) {
                assertTrue(line.endsWith(" prebuilt"), line);
            }
            for (String line : generated) {
                assertTrue(line.endsWith(" generated"), line);
            }
            // (1 + 2) * 3 = 9; member r weighs elements 2r, 2r+1 times r + 1: 3 + 2 * 7 = 17
            assertEquals(built.get(0), "RESULT 9 17.0 prebuilt");
            assertEquals(strip(built), strip(generated));
        } finally {
            Samples.delete(runTime);
            Samples.delete(buildTime);
        }
    }

    private static List<String> strip(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            out.add(l.substring(0, l.lastIndexOf(' ')));
        }
        return out;
    }

    /** Runs app.Main in two JVMs of a new pool; returns their RESULT lines. */
    private static List<String> runPair(PoolFixture fixture, Path classes, String name) throws Exception {
        List<Process> procs = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        String pool = fixture.poolName() + "-" + name;
        for (int i = 0; i < 2; i++) {
            Path log = Files.createTempFile("gmiapp", ".log");
            logs.add(log);
            procs.add(new ProcessBuilder(ChildJvm.javaCommand(), "-Xmx128m",
                    "-Dibis.server.address=" + fixture.serverAddress(), "-Dibis.pool.name=" + pool,
                    "-Dibis.pool.size=2", "-Dibis.implementation=tcp", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                    "-cp", classes + File.pathSeparator + ChildJvm.testClassPath(), "app.Main")
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start());
        }
        List<String> results = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                assertTrue(procs.get(i).waitFor(120, TimeUnit.SECONDS), "app.Main did not end");
                String out = Files.readString(logs.get(i));
                assertEquals(procs.get(i).exitValue(), 0, out);
                results.add(out.lines().filter(l -> l.startsWith("RESULT ")).findFirst()
                        .orElseThrow(() -> new AssertionError("no RESULT line: " + out)));
            }
        } finally {
            for (int i = 0; i < 2; i++) {
                procs.get(i).destroyForcibly();
                Files.deleteIfExists(logs.get(i));
            }
        }
        return results;
    }
}
