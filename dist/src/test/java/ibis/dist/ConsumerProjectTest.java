package ibis.dist;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * Ibis as a user gets it from Maven. The reactor's artifacts (poms, jars, sources and javadoc jars, the
 * BOM, the plugin, the distribution) are deployed with {@code maven-deploy-plugin} into a file repository
 * under {@code dist/target/consumer-test/}; then a consumer project ({@code dist/src/test/consumer}: its
 * own group, the BOM, the rewriter plugin) is built by a child Maven whose Ibis artifacts can come from
 * that repository only, and two members of the result run, once under {@code bin/ibis-run} and once as
 * plain {@code java} processes with the registry server started from the resolved jars.
 *
 * <p>How "only from that repository" is made true without downloading anything: the child build has a
 * fresh local repository, and its only other repository (a mirror of every repository but the deployed
 * one) is a folder of symbolic links to every group of the outer build's local repository except
 * {@code ibis}. Nothing is fetched from the network (every repository is a {@code file:} URL).
 */
public class ConsumerProjectTest {

    private static final String DEPLOYED_ID = "ibis-test-repository";

    private Path work;
    private Path deployed;
    private Path consumer;
    private Path localRepository;
    private String version;
    private String buildOutput;

    @BeforeClass(timeOut = 600_000)
    public void deployAndBuildTheConsumer() throws Exception {
        version = DistributionTest.property("ibis.version");
        work = ScriptRun.repositoryRoot().resolve("dist/target/consumer-test");
        delete(work);
        deployed = Files.createDirectories(work.resolve("repository"));
        deployReactorArtifacts();

        Path thirdParty = Files.createDirectories(work.resolve("third-party"));
        Path outer = Path.of(DistributionTest.property("ibis.outer.localRepository"));
        try (Stream<Path> groups = Files.list(outer)) {
            for (Path g : groups.filter(Files::isDirectory).collect(Collectors.toList())) {
                if (!g.getFileName().toString().equals("ibis")) {
                    Files.createSymbolicLink(thirdParty.resolve(g.getFileName().toString()), g);
                }
            }
        }
        Path settings = work.resolve("settings.xml");
        Files.writeString(settings, String.join("\n",
                "<settings xmlns=\"http://maven.apache.org/SETTINGS/1.0.0\">",
                "  <mirrors><mirror><id>third-party</id><mirrorOf>*,!" + DEPLOYED_ID + "</mirrorOf>",
                "    <url>" + thirdParty.toUri() + "</url></mirror></mirrors>",
                "  <profiles><profile><id>ibis</id>",
                "    <repositories>" + repository("repository") + "</repositories>",
                "    <pluginRepositories>" + repository("pluginRepository") + "</pluginRepositories>",
                "  </profile></profiles>",
                "  <activeProfiles><activeProfile>ibis</activeProfile></activeProfiles>",
                "</settings>", ""));

        consumer = work.resolve("consumer");
        copyTree(ScriptRun.repositoryRoot().resolve("dist/src/test/consumer"), consumer);
        Path pom = consumer.resolve("pom.xml");
        Files.writeString(pom, Files.readString(pom).replace("@ibis.version@", version));
        localRepository = work.resolve("local-repository");
        buildOutput = mvn(consumer, "-s", settings.toString(), "-Dmaven.repo.local=" + localRepository, "package");
    }

    @AfterClass(alwaysRun = true)
    public void removeTheLocalRepositoryCopies() throws IOException {
        // The deployed repository and the consumer stay for inspection (target/ is cleaned by mvn clean);
        // the links into ~/.m2 and the child's copies of third-party jars do not.
        if (work != null) {
            delete(work.resolve("third-party"));
            delete(work.resolve("local-repository"));
        }
    }

    @Test(timeOut = 60_000)
    public void consumerGetsEveryIbisArtifactFromTheDeployedRepositoryOnly() throws Exception {
        Path ibisGroup = localRepository.resolve("ibis");
        List<String> resolved = list(ibisGroup);
        for (String artifact : List.of("ibis-bom", "ibis-parent", "ibis-ipl", "ibis-io", "ibis-registry",
                "ibis-impl-tcp", "ibis-maven-plugin", "ibis-rewriter")) {
            assertTrue(resolved.contains(artifact), artifact + " was not resolved: " + resolved + "\n" + buildOutput);
        }
        for (String artifact : resolved) {
            Path dir = ibisGroup.resolve(artifact).resolve(version);
            assertTrue(Files.isRegularFile(dir.resolve("maven-metadata-" + DEPLOYED_ID + ".xml")),
                    artifact + " has no snapshot metadata of " + DEPLOYED_ID + ": " + list(dir));
            String origins = Files.readString(dir.resolve("_remote.repositories"));
            for (String line : origins.split("\n")) {
                if (line.contains(">")) {
                    assertTrue(line.endsWith(">" + DEPLOYED_ID + "="), artifact + " from elsewhere: " + line);
                }
            }
        }
        // The jar the consumer runs with is the one this reactor built.
        byte[] built = Files.readAllBytes(ScriptRun.repositoryRoot().resolve("ipl/target/ibis-ipl-" + version + ".jar"));
        byte[] used = Files.readAllBytes(consumer.resolve("target/lib/ibis-ipl-" + version + ".jar"));
        assertTrue(Arrays.equals(built, used), "target/lib/ibis-ipl differs from the reactor's jar");
        assertTrue(buildOutput.contains("ibis rewrite: "), "the rewriter plugin ran:\n" + buildOutput);
        assertTrue(Files.isRegularFile(consumer.resolve(
                "target/classes/org/example/consumer/Measurement_ibis_io_Generator.class")), buildOutput);
    }

    @Test(timeOut = 60_000)
    public void deployedRepositoryHasSourcesJavadocBomAndDistribution() throws Exception {
        for (String library : List.of("ibis-io", "ibis-ipl", "ibis-registry", "ibis-impl-tcp", "ibis-rmi",
                "ibis-rewriter", "ibis-maven-plugin")) {
            List<String> files = list(deployed.resolve("ibis").resolve(library).resolve(version));
            for (String suffix : List.of(".jar", "-sources.jar", "-javadoc.jar", ".pom")) {
                assertTrue(files.stream().anyMatch(f -> f.startsWith(library + "-") && f.endsWith(suffix)),
                        library + " has no " + suffix + ": " + files);
            }
        }
        List<String> dist = list(deployed.resolve("ibis/ibis-dist").resolve(version));
        assertTrue(dist.stream().anyMatch(f -> f.endsWith("-bin.tar.gz")), dist.toString());
        Path bomDir = deployed.resolve("ibis/ibis-bom").resolve(version);
        String bom = Files.readString(list(bomDir).stream().filter(f -> f.endsWith(".pom"))
                .map(bomDir::resolve).findFirst().orElseThrow());
        assertTrue(bom.contains("<artifactId>ibis-impl-tcp</artifactId>"), bom);
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

    private String repository(String element) {
        return "<" + element + "><id>" + DEPLOYED_ID + "</id><url>" + deployed.toUri() + "</url>"
                + "<releases><enabled>true</enabled></releases><snapshots><enabled>true</enabled></snapshots></"
                + element + ">";
    }

    /**
     * Deploys every module of the reactor (its pom; its jar, or for a pom module the pom; every classified
     * jar next to it; for dist the launcher jar and the distribution) with one child Maven that runs
     * {@code deploy:deploy-file} once per module. The plugin's version is the parent pom's.
     */
    private void deployReactorArtifacts() throws IOException, InterruptedException {
        Path root = ScriptRun.repositoryRoot();
        StringBuilder executions = new StringBuilder();
        List<Path> poms;
        try (Stream<Path> all = Files.find(root, 4, (p, a) -> p.getFileName().toString().equals("pom.xml"))) {
            poms = all.filter(p -> !root.relativize(p).toString().matches("(.*/)?(target|src)/.*")).sorted()
                    .collect(Collectors.toList());
        }
        for (Path pom : poms) {
            String text = Files.readString(pom).replaceAll("(?s)<!--.*?-->", "").replaceAll("(?s)<parent>.*?</parent>", "");
            Matcher artifactId = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(text);
            assertTrue(artifactId.find(), "no artifactId in " + pom);
            Matcher packaging = Pattern.compile("<packaging>([^<]+)</packaging>").matcher(text);
            String artifact = artifactId.group(1);
            boolean pomOnly = packaging.find() && packaging.group(1).equals("pom");
            Path target = pom.getParent().resolve("target");
            Path file;
            List<String[]> attached = new ArrayList<>(); // file, classifier, type
            if (pomOnly) {
                file = pom;
            } else if (artifact.equals("ibis-dist")) {
                file = target.resolve("lib/ibis-run-" + version + ".jar");
                attached.add(new String[] {target.resolve("ibis-" + version + "-bin.tar.gz").toString(), "bin", "tar.gz"});
            } else {
                file = target.resolve(artifact + "-" + version + ".jar");
                String prefix = artifact + "-" + version + "-";
                for (String name : list(target)) {
                    if (name.startsWith(prefix) && name.endsWith(".jar")) {
                        attached.add(new String[] {target.resolve(name).toString(),
                                name.substring(prefix.length(), name.length() - 4), "jar"});
                    }
                }
            }
            assertTrue(Files.isRegularFile(file), "not built: " + file);
            executions.append("<execution><id>").append(artifact).append("</id><phase>validate</phase>")
                    .append("<goals><goal>deploy-file</goal></goals><configuration>")
                    .append("<file>").append(file).append("</file><pomFile>").append(pom).append("</pomFile>")
                    .append("<repositoryId>").append(DEPLOYED_ID).append("</repositoryId>")
                    .append("<url>").append(deployed.toUri()).append("</url>");
            if (!attached.isEmpty()) {
                executions.append("<files>").append(attached.stream().map(a -> a[0]).collect(Collectors.joining(",")))
                        .append("</files><classifiers>").append(attached.stream().map(a -> a[1]).collect(Collectors.joining(",")))
                        .append("</classifiers><types>").append(attached.stream().map(a -> a[2]).collect(Collectors.joining(",")))
                        .append("</types>");
            }
            executions.append("</configuration></execution>\n");
        }
        Path deployer = Files.createDirectories(work.resolve("deployer"));
        Files.writeString(deployer.resolve("pom.xml"), String.join("\n",
                "<project xmlns=\"http://maven.apache.org/POM/4.0.0\"><modelVersion>4.0.0</modelVersion>",
                "  <groupId>ibis.test</groupId><artifactId>deployer</artifactId><version>1</version><packaging>pom</packaging>",
                "  <build><plugins><plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-deploy-plugin</artifactId>",
                "    <version>" + deployPluginVersion(root) + "</version><executions>",
                executions.toString(),
                "  </executions></plugin></plugins></build>",
                "</project>", ""));
        // The outer build's local repository holds the deploy plugin (deploying needs online mode, but
        // every URL here is a file: URL).
        mvn(deployer, "-Dmaven.repo.local=" + DistributionTest.property("ibis.outer.localRepository"), "validate");
    }

    private static String deployPluginVersion(Path root) throws IOException {
        Matcher m = Pattern.compile("<artifactId>maven-deploy-plugin</artifactId><version>([^<]+)</version>")
                .matcher(Files.readString(root.resolve("pom.xml")));
        assertTrue(m.find(), "the parent pom pins maven-deploy-plugin");
        return m.group(1);
    }

    /** Runs a child Maven (the one running this build) in a folder; fails with its output unless it succeeds. */
    private static String mvn(Path directory, String... args) throws IOException, InterruptedException {
        String home = System.getProperty("ibis.maven.home", "");
        Path installed = Path.of(home, "bin", "mvn");
        List<String> command = new ArrayList<>();
        command.add(!home.isEmpty() && Files.isExecutable(installed) ? installed.toString() : "mvn");
        command.addAll(List.of("-B", "--no-transfer-progress", "-Dstyle.color=never"));
        command.addAll(Arrays.asList(args));
        ScriptRun run = CommandRun.run(directory, Map.of(), 300, command);
        assertEquals(run.status(), 0, String.join(" ", command) + " in " + directory + " failed:\n" + run.all());
        return run.out();
    }

    private static List<String> list(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.collect(Collectors.toList())) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest);
                }
            }
        }
    }

    /** Deletes a tree; symbolic links are deleted, never followed. */
    private static void delete(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                if (exc != null) {
                    throw new UncheckedIOException(exc);
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
