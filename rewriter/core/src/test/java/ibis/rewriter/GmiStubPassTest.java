package ibis.rewriter;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;

import ibis.gmi.impl.GroupCode;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.testng.annotations.Test;

/**
 * The GMI pass: every group interface gets its group stub and per-method parameter vectors
 * written next to it, byte for byte what GMI's run time generates for the same interface, and the
 * run time then uses the written stub instead of generating one.
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
}
