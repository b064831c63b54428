package ibis.dist;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * Ibis as a user gets it from Maven: a consumer project ({@code dist/src/test/consumer}: its own
 * group, the BOM, the rewriter plugin) is built against the deployed artifacts only
 * ({@link OutsideBuild}), and two members of the result run, once under {@code bin/ibis-run} and
 * once as plain {@code java} processes with the registry server started from the resolved jars.
 */
public class ConsumerProjectTest {

    private OutsideBuild outside;
    private OutsideBuild.Project project;
    private Path deployed;
    private Path consumer;
    private String version;
    private String buildOutput;

    @BeforeClass(timeOut = 600_000)
    public void deployAndBuildTheConsumer() throws Exception {
        outside = OutsideBuild.deployed();
        version = outside.version();
        deployed = outside.repository();
        project = outside.build("consumer", "package");
        consumer = project.folder();
        buildOutput = project.output();
    }

    @AfterClass(alwaysRun = true)
    public void removeTheLocalRepositoryCopies() throws Exception {
        if (outside != null) {
            outside.cleanUp(project);
        }
    }

    @Test(timeOut = 60_000)
    public void consumerGetsEveryIbisArtifactFromTheDeployedRepositoryOnly() throws Exception {
        outside.assertIbisArtifactsCameFromTheDeployedRepositoryOnly(project, List.of("ibis-bom", "ibis-parent",
                "ibis-ipl", "ibis-io", "ibis-registry", "ibis-impl-tcp", "ibis-maven-plugin", "ibis-rewriter"));
        // The jar the consumer runs with is the one this reactor built.
        byte[] built = Files.readAllBytes(
                ScriptRun.repositoryRoot().resolve("ipl/target/ibis-ipl-" + version + ".jar"));
        byte[] used = Files.readAllBytes(consumer.resolve("target/lib/ibis-ipl-" + version + ".jar"));
        assertTrue(Arrays.equals(built, used), "target/lib/ibis-ipl differs from the reactor's jar");
        assertTrue(buildOutput.contains("ibis rewrite: "), "the rewriter plugin ran:\n" + buildOutput);
        assertTrue(Files.isRegularFile(consumer.resolve(
                "target/classes/org/example/consumer/Measurement_ibis_io_Generator.class")), buildOutput);
    }

    @Test(timeOut = 60_000)
    public void deployedRepositoryHasSourcesJavadocBomAndDistribution() throws Exception {
        for (String library : List.of("ibis-io", "ibis-ipl", "ibis-registry", "ibis-launcher", "ibis-impl-tcp",
                "ibis-rmi", "ibis-rewriter", "ibis-maven-plugin", "ibis-ipl-tck", "ibis-test-support", "ibis-compat")) {
            List<String> files = OutsideBuild.list(deployed.resolve("ibis").resolve(library).resolve(version));
            for (String suffix : List.of(".jar", "-sources.jar", "-javadoc.jar", ".pom")) {
                assertTrue(files.stream().anyMatch(f -> f.startsWith(library + "-") && f.endsWith(suffix)),
                        library + " has no " + suffix + ": " + files);
            }
        }
        List<String> dist = OutsideBuild.list(deployed.resolve("ibis/ibis-dist").resolve(version));
        assertTrue(dist.stream().anyMatch(f -> f.endsWith("-bin.tar.gz")), dist.toString());
        Path bomDir = deployed.resolve("ibis/ibis-bom").resolve(version);
        String bom = Files.readString(OutsideBuild.list(bomDir).stream().filter(f -> f.endsWith(".pom"))
                .map(bomDir::resolve).findFirst().orElseThrow());
        assertTrue(bom.contains("<artifactId>ibis-impl-tcp</artifactId>"), bom);
        assertTrue(bom.contains("<artifactId>ibis-ipl-tck</artifactId>"), bom);
        assertTrue(bom.contains("Apache-2.0"), bom);
    }

    @Test(timeOut = 180_000)
    public void twoMembersRunUnderBinIbisRun() throws Exception {
        ScriptRun run = ScriptRun.run(170, "ibis-run", "--np", "2",
                "-cp", consumer.resolve("target/ibis-consumer-1.0.jar").toString(), "org.example.consumer.PingPong");
        assertEquals(run.status(), 0, run.all());
        assertTwoMembersExchanged(run.out(), "\\[[01]\\] ", run.all());
    }

    @Test(timeOut = 180_000)
    public void twoMembersRunAsPlainJavaWithTheRegistryServerFromTheArtifacts() throws Exception {
        Path lib = consumer.resolve("target/lib");
        try (CommandRun.Server server = new CommandRun.Server(consumer, List.of(CommandRun.java(),
                "-Dibis.registry.server.bind=127.0.0.1",
                "-jar", lib.resolve("ibis-registry-" + version + ".jar").toString(), "--port", "0"),
                Pattern.compile("listening on \\S+:(\\d+)"))) {
            String address = "127.0.0.1:" + server.awaitLine(60).group(1);
            String pool = "consumer-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
            List<CommandRun.Started> members = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    members.add(CommandRun.start(consumer, Map.of(), List.of(CommandRun.java(),
                            "-cp", "target/ibis-consumer-1.0.jar:target/lib/*",
                            "-Dibis.server.address=" + address, "-Dibis.pool.name=" + pool, "-Dibis.pool.size=2",
                            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                            "org.example.consumer.PingPong")));
                }
                StringBuilder out = new StringBuilder();
                StringBuilder all = new StringBuilder();
                for (CommandRun.Started member : members) {
                    ScriptRun run = member.finish(170);
                    assertEquals(run.status(), 0, run.all() + "\n--- server:\n" + server.output());
                    out.append(run.out());
                    all.append(run.all()).append('\n');
                }
                assertTwoMembersExchanged(out.toString(), "", all.toString());
            } finally {
                members.forEach(CommandRun.Started::kill);
            }
        }
    }

    /** Both members report: program first on the class path, no benchmark jar, the message arrived. */
    private static void assertTwoMembersExchanged(String out, String prefix, String all) {
        assertEquals(count(out, "(?m)^" + prefix + "first class path entry: ibis-consumer-1\\.0\\.jar$"), 2, all);
        assertEquals(count(out, "(?m)^" + prefix + "benchmark jars: none$"), 2, all);
        assertEquals(count(out, "(?m)^" + prefix + "rewritten: true$"), 2, all);
        assertEquals(count(out, "(?m)^" + prefix + "received temperatures with sum 7\\.0$"), 1, all);
        assertEquals(count(out, "(?m)^" + prefix + "sent temperatures$"), 1, all);
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
