package ibis.benchmarks.rmi.apps;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.registry.server.CentralRegistryServer;
import ibis.rewriter.Ibisc;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.testng.annotations.Test;

/**
 * Every application with problem size {@code test} on two real JVMs, first on the JDK's RMI with
 * the classes as compiled, then on Ibis RMI with the classes rewritten by {@code ibisc --java-rmi}
 * (an embedded Ibis registry server in this JVM). Both runs execute all seven applications (and
 * SOR a second time) in one pair of JVMs to keep the test short. Rank 0 checks each result against a
 * sequential computation; the test checks that it said so and that both JVMs exited with 0.
 */
public class RmiAppsTest {

    private static final long RUN_SECONDS = 150;
    /** Every application, and one again: a second round of an application must not find the first's objects. */
    private static final String APPS = String.join(",", AppMain.APPS) + "," + AppMain.APPS.get(2);

    @Test(timeOut = 200_000)
    public void allAppsVerifyOnTwoJvmsWithJdkRmi() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        List<String> outputs = runPair(null, List.of(), port);
        assertAllVerified(outputs.get(0), outputs);
        assertTrue(!outputs.get(0).contains("ibis.rmi"), outputs.get(0));
    }

    @Test(timeOut = 200_000)
    public void allAppsVerifyOnTwoJvmsWithIbisRmiAfterRewriting() throws Exception {
        Path classes = Paths.get(AppMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path ibisRmi = Paths.get(ibis.rmi.Naming.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path rewritten = Files.createTempDirectory("rmi-apps-rewritten");
        try {
            Path apps = Paths.get("ibis", "benchmarks", "rmi", "apps");
            copyTree(classes.resolve(apps), rewritten.resolve(apps));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int rc = Ibisc.run(new String[] {"-v", "--java-rmi", "-cp", ibisRmi.toString(), rewritten.toString()},
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(out, true, StandardCharsets.UTF_8));
            String log = out.toString(StandardCharsets.UTF_8);
            assertEquals(rc, Ibisc.OK, log);
            // AppMain, its ControlNode and AppNode name java.rmi classes; the molecule graphs get serializers.
            assertTrue(log.contains("3 renamed from java.rmi to ibis.rmi"), log);
            assertTrue(log.contains("rewritten ibis.benchmarks.rmi.apps.Paraffins$Molecule"), log);
            String node = new String(Files.readAllBytes(rewritten.resolve(apps).resolve("AppNode.class")),
                    StandardCharsets.ISO_8859_1);
            assertTrue(node.contains("ibis/rmi/server/UnicastRemoteObject"), "AppNode now extends Ibis RMI's class");
            assertTrue(!node.contains("java/rmi/server/UnicastRemoteObject"),
                    "no reference to the JDK's class is left");

            Properties serverProperties = new Properties();
            serverProperties.setProperty("ibis.registry.server.bind", "127.0.0.1");
            try (CentralRegistryServer server = new CentralRegistryServer(0, serverProperties)) {
                server.start();
                List<String> jvm = List.of("-Dibis.server.address=" + server.address(),
                        "-Dibis.pool.name=rmi-apps-" + UUID.randomUUID(), "-Dibis.implementation=tcp",
                        "-Dibis.rmi.connect.timeout=20000", "-Dibis.rmi.registry.timeout=20000");
                List<String> outputs = runPair(rewritten, jvm, 1099);
                assertAllVerified(outputs.get(0), outputs);
            }
        } finally {
            try (Stream<Path> files = Files.walk(rewritten)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void assertAllVerified(String rank0, List<String> outputs) {
        for (String app : AppMain.APPS) {
            assertTrue(rank0.contains("RESULT " + app + " procs=2 verified=true millis="),
                    app + " not verified; outputs:\n" + String.join("\n-----\n", outputs));
        }
        assertEquals(rank0.lines().filter(l -> l.startsWith("RESULT ")).count(), AppMain.APPS.size() + 1, rank0);
        assertEquals(rank0.lines().filter(l -> l.startsWith("RESULT ") && l.contains(" verified=true ")).count(),
                AppMain.APPS.size() + 1, rank0);
    }

    /**
     * Runs ranks 0 and 1 of {@code AppMain all}; returns their outputs after checking both exited
     * with status 0. The child JVMs are killed if they are still there at the end.
     */
    private static List<String> runPair(Path firstOnClassPath, List<String> jvmOptions, int port) throws Exception {
        String classPath = (firstOnClassPath == null ? "" : firstOnClassPath + File.pathSeparator)
                + System.getProperty("java.class.path");
        List<Process> processes = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        try {
            for (int rank = 0; rank < 2; rank++) {
                List<String> cmd = new ArrayList<>();
                cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
                cmd.add("-Xmx512m");
                cmd.add("-cp");
                cmd.add(classPath);
                cmd.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
                cmd.add("-Dibis.benchmarks.rmi.apps.timeout=60000");
                cmd.addAll(jvmOptions);
                cmd.add(AppMain.class.getName());
                cmd.addAll(List.of(APPS, Integer.toString(rank), "2", Integer.toString(port), "test"));
                Path log = Files.createTempFile("rmi-apps-rank" + rank, ".log");
                logs.add(log);
                processes.add(new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start());
            }
            List<String> outputs = new ArrayList<>();
            for (int rank = 0; rank < 2; rank++) {
                Process p = processes.get(rank);
                boolean ended = p.waitFor(RUN_SECONDS, TimeUnit.SECONDS);
                String output = Files.readString(logs.get(rank), StandardCharsets.UTF_8);
                outputs.add(output);
                assertTrue(ended, "rank " + rank + " did not end in time; output:\n" + output);
                assertEquals(p.exitValue(), 0, "rank " + rank + " exit status; output:\n" + output);
            }
            return outputs;
        } finally {
            for (Process p : processes) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
            for (Path log : logs) {
                Files.deleteIfExists(log);
            }
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    try (InputStream in = Files.newInputStream(f)) {
                        Files.copy(in, target);
                    }
                }
            }
        }
    }
}
