package ibis.dist;

import static org.testng.Assert.assertEquals;
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

/**
 * Maven builds outside the reactor, as a user of the deployed artifacts runs them: the reactor's
 * artifacts (poms, jars, sources and javadoc jars, the BOM, the plugin, the distribution) are
 * deployed with {@code maven-deploy-plugin} into a file repository under
 * {@code dist/target/consumer-test/}, once per test JVM; then a project (a folder of
 * {@code dist/src/test}, copied, with {@code @ibis.version@} filled in) is built by a child Maven
 * whose Ibis artifacts can come from that repository only. {@link ConsumerProjectTest} builds a
 * user's program this way, {@link PluginProjectTest} a network implementation that runs the IPL
 * conformance suite.
 *
 * <p>How "only from that repository" is made true without downloading anything: each build has a
 * fresh local repository, and its only other repository (a mirror of every repository but the
 * deployed one) is a folder of symbolic links to every group of the outer build's local repository
 * except {@code ibis}. Nothing is fetched from the network (every repository is a {@code file:} URL).
 */
final class OutsideBuild {

    /** The id of the deployed repository (in the settings and in {@code _remote.repositories}). */
    static final String DEPLOYED_ID = "ibis-test-repository";

    private static OutsideBuild deployedOnce;

    private final Path work;
    private final Path deployed;
    private final String version;

    /** A project built by {@link #build}: its copy, its local repository and the build's output. */
    record Project(Path folder, Path localRepository, String output) {
    }

    private OutsideBuild(Path work, String version) {
        this.work = work;
        this.deployed = work.resolve("repository");
        this.version = version;
    }

    /** The reactor's artifacts, deployed (the first call in this JVM deploys them). */
    static synchronized OutsideBuild deployed() throws IOException, InterruptedException {
        if (deployedOnce == null) {
            Path work = ScriptRun.repositoryRoot().resolve("dist/target/consumer-test");
            delete(work);
            OutsideBuild build = new OutsideBuild(work, DistributionTest.property("ibis.version"));
            Files.createDirectories(build.deployed);
            build.deployReactorArtifacts();
            deployedOnce = build;
        }
        return deployedOnce;
    }

    /** The Ibis version deployed. */
    String version() {
        return version;
    }

    /** The file repository the artifacts were deployed to. */
    Path repository() {
        return deployed;
    }

    /**
     * Copies {@code dist/src/test/<name>} to the work folder, fills in the Ibis version of its pom and
     * runs a child Maven there with {@code args} (goals and options), a fresh local repository and
     * settings that give it Ibis artifacts from the deployed repository only; fails with the output
     * unless the build succeeds.
     */
    synchronized Project build(String name, String... args) throws IOException, InterruptedException {
        Path thirdParty = work.resolve("third-party");
        if (!Files.isDirectory(thirdParty)) {
            Files.createDirectories(thirdParty);
            Path outer = Path.of(DistributionTest.property("ibis.outer.localRepository"));
            try (Stream<Path> groups = Files.list(outer)) {
                for (Path g : groups.filter(Files::isDirectory).collect(Collectors.toList())) {
                    if (!g.getFileName().toString().equals("ibis")) {
                        Files.createSymbolicLink(thirdParty.resolve(g.getFileName().toString()), g);
                    }
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
        Path folder = work.resolve(name);
        delete(folder);
        copyTree(ScriptRun.repositoryRoot().resolve("dist/src/test").resolve(name), folder);
        Path pom = folder.resolve("pom.xml");
        Files.writeString(pom, Files.readString(pom).replace("@ibis.version@", version));
        Path localRepository = work.resolve(name + "-local-repository");
        delete(localRepository);
        List<String> all = new ArrayList<>(List.of("-s", settings.toString(), "-Dmaven.repo.local=" + localRepository));
        all.addAll(Arrays.asList(args));
        return new Project(folder, localRepository, mvn(folder, all.toArray(new String[0])));
    }

    /**
     * Removes what points into, or copies from, the outer local repository: the links of the mirror
     * and the project's local repository. The deployed repository and the project stay for
     * inspection (target/ is cleaned by mvn clean).
     */
    synchronized void cleanUp(Project project) throws IOException {
        delete(work.resolve("third-party"));
        if (project != null) {
            delete(project.localRepository());
        }
    }

    /**
     * Checks that the build of {@code project} resolved every Ibis artifact, among them
     * {@code expected}, from the deployed repository and from nowhere else.
     */
    void assertIbisArtifactsCameFromTheDeployedRepositoryOnly(Project project, List<String> expected)
            throws IOException {
        Path ibisGroup = project.localRepository().resolve("ibis");
        List<String> resolved = list(ibisGroup);
        for (String artifact : expected) {
            assertTrue(resolved.contains(artifact),
                    artifact + " was not resolved: " + resolved + "\n" + project.output());
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
            String text = Files.readString(pom).replaceAll("(?s)<!--.*?-->", "")
                    .replaceAll("(?s)<parent>.*?</parent>", "");
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
                attached.add(
                        new String[] {target.resolve("ibis-" + version + "-bin.tar.gz").toString(), "bin", "tar.gz"});
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
                        .append("</files><classifiers>")
                        .append(attached.stream().map(a -> a[1]).collect(Collectors.joining(",")))
                        .append("</classifiers><types>")
                        .append(attached.stream().map(a -> a[2]).collect(Collectors.joining(",")))
                        .append("</types>");
            }
            executions.append("</configuration></execution>\n");
        }
        Path deployer = Files.createDirectories(work.resolve("deployer"));
        Files.writeString(deployer.resolve("pom.xml"), String.join("\n",
                "<project xmlns=\"http://maven.apache.org/POM/4.0.0\"><modelVersion>4.0.0</modelVersion>",
                "  <groupId>ibis.test</groupId><artifactId>deployer</artifactId><version>1</version>"
                        + "<packaging>pom</packaging>",
                "  <build><plugins><plugin><groupId>org.apache.maven.plugins</groupId>"
                        + "<artifactId>maven-deploy-plugin</artifactId>",
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
    static String mvn(Path directory, String... args) throws IOException, InterruptedException {
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

    static List<String> list(Path folder) throws IOException {
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
