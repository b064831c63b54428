package ibis.dist;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the repository's {@code bin/} scripts as a real process, the way a user would, and
 * captures its exit status and output. The script is told not to build ({@code IBIS_NO_BUILD=1}):
 * the Maven run that executes these tests has just built {@code dist/target/lib}.
 *
 * @param status the script's exit status
 * @param out its standard output
 * @param err its standard error
 */
record ScriptRun(int status, String out, String err) {

    /** The repository root (set by the dist pom; falls back to the parent of the working directory). */
    static Path repositoryRoot() {
        String root = System.getProperty("ibis.repo.root");
        Path p = root != null ? Path.of(root) : Path.of("").toAbsolutePath().getParent();
        return p.toAbsolutePath().normalize();
    }

    /**
     * Runs {@code bin/<script> args...} and waits at most {@code timeoutSeconds}; the process and its
     * children are killed in any case before this returns.
     */
    static ScriptRun run(long timeoutSeconds, String script, String... args) throws IOException, InterruptedException {
        return start(Map.of(), script, args).finish(timeoutSeconds);
    }

    /** Starts {@code bin/<script> args...} with extra environment variables; see {@link Started#finish}. */
    static Started start(Map<String, String> environment, String script, String... args) throws IOException {
        Path root = repositoryRoot();
        List<String> command = new ArrayList<>();
        command.add(root.resolve("bin").resolve(script).toString());
        command.addAll(List.of(args));
        File out = Files.createTempFile("ibis-dist-out", ".txt").toFile();
        File err = Files.createTempFile("ibis-dist-err", ".txt").toFile();
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(root.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out)
                .redirectError(err);
        builder.environment().put("IBIS_NO_BUILD", "1");
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().putAll(environment);
        return new Started(builder.start(), out, err, "bin/" + script + " " + String.join(" ", args));
    }

    /** A started script whose outcome is collected by {@link #finish}. */
    static final class Started {
        private final Process process;
        private final File out;
        private final File err;
        private final String description;

        private Started(Process process, File out, File err, String description) {
            this.process = process;
            this.out = out;
            this.err = err;
            this.description = description;
        }

        /**
         * Waits at most {@code timeoutSeconds} for the script, then kills it and its children in any
         * case, and returns its outcome; throws an AssertionError with the output when it timed out.
         */
        ScriptRun finish(long timeoutSeconds) throws IOException, InterruptedException {
            try {
                if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    throw new AssertionError(description + " did not finish within " + timeoutSeconds
                            + " s; output so far:\n" + read(out) + "\n" + read(err));
                }
                return new ScriptRun(process.exitValue(), read(out), read(err));
            } finally {
                kill();
            }
        }

        /** Kills the script and its children (idempotent) and removes the output files. */
        void kill() {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            out.delete();
            err.delete();
        }
    }

    private static String read(File f) throws IOException {
        return Files.readString(f.toPath(), StandardCharsets.UTF_8);
    }

    /** Both streams, for assertion messages. */
    String all() {
        return "exit status " + status + "\n--- stdout:\n" + out + "--- stderr:\n" + err;
    }
}
