package ibis.dist;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

    /** Starts {@code bin/<script> args...} with extra environment variables; see {@link CommandRun.Started#finish}. */
    static CommandRun.Started start(Map<String, String> environment, String script, String... args) throws IOException {
        Path root = repositoryRoot();
        List<String> command = new ArrayList<>();
        command.add(root.resolve("bin").resolve(script).toString());
        command.addAll(List.of(args));
        Map<String, String> env = new java.util.HashMap<>();
        env.put("IBIS_NO_BUILD", "1");
        env.putAll(environment);
        return CommandRun.start(root, env, command);
    }

    /** Both streams, for assertion messages. */
    String all() {
        return "exit status " + status + "\n--- stdout:\n" + out + "--- stderr:\n" + err;
    }
}
