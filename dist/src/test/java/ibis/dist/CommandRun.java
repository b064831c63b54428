package ibis.dist;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Any command (a JVM, Maven, an unpacked distribution's script) as a real process in a chosen folder
 * with a chosen environment; the outcome is a {@link ScriptRun}. Every process is killed, with its
 * children, before the call that ends it returns.
 */
final class CommandRun {

    private CommandRun() {
    }

    /** Runs the command and waits at most {@code timeoutSeconds}; see {@link Started#finish}. */
    static ScriptRun run(Path directory, Map<String, String> environment, long timeoutSeconds, List<String> command)
            throws IOException, InterruptedException {
        return start(directory, environment, command).finish(timeoutSeconds);
    }

    /** Starts the command with standard input from /dev/null and both outputs to temporary files. */
    static Started start(Path directory, Map<String, String> environment, List<String> command) throws IOException {
        File out = Files.createTempFile("ibis-dist-out", ".txt").toFile();
        File err = Files.createTempFile("ibis-dist-err", ".txt").toFile();
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out)
                .redirectError(err);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().putAll(environment);
        return new Started(builder.start(), out, err, String.join(" ", command));
    }

    /** The java executable of the JVM that runs the tests. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** A started command whose outcome is collected by {@link #finish}. */
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
         * Waits at most {@code timeoutSeconds}, then kills the process and its children in any case and
         * returns its outcome; throws an AssertionError with the output when it timed out.
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

        /** Kills the process and its children (idempotent) and removes the output files. */
        void kill() {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            out.delete();
            err.delete();
        }
    }

    /**
     * A long-running process (a server) whose standard output is read as it comes, so a test can wait
     * for the line that says it is ready.
     */
    static final class Server implements AutoCloseable {
        private final Process process;
        private final StringBuffer output = new StringBuffer();
        private final CompletableFuture<Matcher> ready = new CompletableFuture<>();

        /** Starts the command; {@link #awaitLine} waits for the first output line that matches {@code readyLine}. */
        Server(Path directory, List<String> command, Pattern readyLine) throws IOException {
            ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true);
            process = builder.start();
            Thread reader = new Thread(() -> {
                try (BufferedReader lines = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = lines.readLine()) != null) {
                        output.append(line).append('\n');
                        Matcher m = readyLine.matcher(line);
                        if (m.find()) {
                            ready.complete(m);
                        }
                    }
                } catch (IOException e) {
                    ready.completeExceptionally(e);
                }
                ready.completeExceptionally(new AssertionError("the server ended before it was ready:\n" + output));
            }, "server-output");
            reader.setDaemon(true);
            reader.start();
        }

        /** The match of the ready line; fails the test when it does not come within {@code timeoutSeconds}. */
        Matcher awaitLine(long timeoutSeconds) throws InterruptedException {
            try {
                return ready.get(timeoutSeconds, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError(
                        "the server printed no ready line within " + timeoutSeconds + " s:\n" + output);
            } catch (ExecutionException e) {
                throw new AssertionError(e.getCause().getMessage(), e.getCause());
            }
        }

        /** What the server printed so far (both streams). */
        String output() {
            return output.toString();
        }

        @Override
        public void close() {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    private static String read(File f) throws IOException {
        return Files.readString(f.toPath(), StandardCharsets.UTF_8);
    }
}
