package ibis.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * The suites' MPI peers written against the Open MPI Java bindings ({@code mpi.*}): those classes
 * exist only where {@code scripts/fetch-ompi-java} fetched them (module {@code ibis-mpi-java}), so
 * the peers travel as source resources and are compiled at run time, by the ipl suite's
 * {@code --impl mpi}, the gmi suite and the GMI applications alike.
 */
public final class MpiJavaPeers {

    /** System property: the Open MPI Java classes (a jar or folder), when not on the class path. */
    public static final String CLASSES_PROPERTY = "ibis.bench.mpi.classes";

    private MpiJavaPeers() {
    }

    /** The jar or folder of the {@code mpi.*} classes, or null when there are none. */
    public static String classes() {
        String named = System.getProperty(CLASSES_PROPERTY);
        if (named != null && !named.isBlank()) {
            return named;
        }
        try {
            Class<?> mpi = Class.forName("mpi.MPI", false, MpiJavaPeers.class.getClassLoader());
            return Path.of(mpi.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (ClassNotFoundException | java.net.URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /** Why {@link #classes()} found none, naming the fix. */
    public static String classesMissing() {
        return "the Open MPI Java classes (mpi.*) are neither on the class path nor named by -D" + CLASSES_PROPERTY
                + ": run scripts/fetch-ompi-java and rebuild (they are in ibis-mpi-java)";
    }

    /**
     * Copies a source resource into {@code dir} and compiles it there against {@code classPath}.
     *
     * @param resource the resource's absolute name, e.g. {@code /ibis/benchmarks/ipl/mpi/X.java}
     * @return null when it compiled, else why not (no compiler in this JVM, or the compiler's errors)
     * @throws IOException when the resource is missing or cannot be copied
     */
    public static String compile(String resource, String classPath, Path dir) throws IOException {
        String name = resource.substring(resource.lastIndexOf('/') + 1);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            return "this JVM has no Java compiler (a JRE?) to compile " + name;
        }
        Files.createDirectories(dir);
        Path source = dir.resolve(name);
        try (InputStream in = MpiJavaPeers.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("resource " + resource + " is missing from the benchmarks jar");
            }
            Files.copy(in, source, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int rc = javac.run(null, errors, errors, "-d", dir.toString(), "-cp", classPath, source.toString());
        return rc == 0 ? null : "compiling " + name + " against " + classPath.split(File.pathSeparator)[0]
                + " failed:\n" + errors.toString(StandardCharsets.UTF_8);
    }
}
