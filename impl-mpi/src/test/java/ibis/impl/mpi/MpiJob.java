package ibis.impl.mpi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a Java main of the test class path as a job of 2 ranks under an MPI launcher, bounded in
 * time, and checks the {@link PingPong} lines of both ranks. The job's processes are destroyed when
 * it does not finish in time.
 */
final class MpiJob {

    /** Open MPI's launcher, named explicitly: the {@code mpirun} alternative may be MPICH's. */
    static final String OPEN_MPI_RUN = "mpirun.openmpi";
    /** MPICH's launcher (Hydra). */
    static final String MPICH_RUN = "mpirun.mpich";
    /** Where Debian keeps libmpi_java.so; Temurin's default java.library.path lacks it. */
    static final String MULTIARCH_LIBRARIES = "/usr/lib/x86_64-linux-gnu";

    private static final long TIMEOUT_SECONDS = 100;
    private static final Pattern RESULT = Pattern.compile(
            "^pingpong rank=(\\d) of 2 (.*): messages=(\\d+) bytes=(\\d+) crc=([0-9a-f]{8}) OK$", Pattern.MULTILINE);

    private MpiJob() {
    }

    /**
     * Open MPI's {@code mpirun} arguments: 2 ranks on this host without binding (the host may have
     * fewer free cores than ranks), the given byte transfer layers over the ob1 messaging layer (so
     * that the btl choice is what carries the messages), and mpirun's own traffic on lo.
     */
    static List<String> openMpi(String btl, String... more) {
        return openMpi(2, btl, more);
    }

    /** Open MPI's {@code mpirun} arguments as {@link #openMpi(String, String...)}, for {@code ranks} ranks. */
    static List<String> openMpi(int ranks, String btl, String... more) {
        List<String> command = new ArrayList<>(List.of(OPEN_MPI_RUN, "--oversubscribe", "-np", String.valueOf(ranks),
                "--bind-to", "none", "--mca", "pml", "ob1", "--mca", "btl", btl,
                "--mca", "oob_tcp_if_include", "lo"));
        command.addAll(List.of(more));
        return command;
    }

    /** MPICH's {@code mpirun}: 2 ranks on this host, its control traffic on lo. */
    static List<String> mpich() {
        return new ArrayList<>(List.of(MPICH_RUN, "-np", "2", "-hosts", "localhost", "-iface", "lo"));
    }

    /**
     * Runs {@code main} under the launcher command and checks that both ranks printed their OK line
     * with the same checksum and that the job exited with 0.
     *
     * @param jvmOptions more options for each rank's JVM, before the class path
     * @return the binding description of rank 0's line
     */
    static String runPingPong(List<String> launcher, Class<?> main, String... jvmOptions)
            throws IOException, InterruptedException {
        String text = run(launcher, main, jvmOptions);
        Matcher m = RESULT.matcher(text);
        String[] crc = new String[2];
        String description = null;
        while (m.find()) {
            int rank = Integer.parseInt(m.group(1));
            crc[rank] = m.group(5);
            if (rank == 0) {
                description = m.group(2);
            }
        }
        assertTrue(crc[0] != null && crc[1] != null, "an OK line of each rank in\n" + text);
        assertEquals(crc[1], crc[0], "both ranks' checksums\n" + text);
        return description;
    }

    /**
     * Runs {@code main} under the launcher command, bounded in time, and checks that the job exited
     * with 0.
     *
     * @param jvmOptions more options for each rank's JVM, before the class path (a later -Xmx wins)
     * @return the job's output (stdout and stderr)
     */
    static String run(List<String> launcher, Class<?> main, String... jvmOptions)
            throws IOException, InterruptedException {
        return run(launcher, main, jvmOptions, new String[0]);
    }

    /**
     * Runs {@code main} with program arguments, as {@link #run(List, Class, String...)}.
     *
     * @param jvmOptions more options for each rank's JVM, before the class path (a later -Xmx wins)
     * @param args the program's arguments
     * @return the job's output (stdout and stderr)
     */
    static String run(List<String> launcher, Class<?> main, String[] jvmOptions, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(launcher);
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Djava.library.path=" + MULTIARCH_LIBRARIES, "--enable-native-access=ALL-UNNAMED"));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        Path output = Files.createTempFile("mpi-job", ".out");
        try {
            Process job = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).redirectInput(new File("/dev/null")).start();
            if (!job.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                job.descendants().forEach(ProcessHandle::destroyForcibly);
                job.destroyForcibly();
                job.waitFor(10, TimeUnit.SECONDS);
                fail("the job did not finish within " + TIMEOUT_SECONDS + " s: " + String.join(" ", command)
                        + "\n" + read(output));
            }
            String text = read(output);
            assertEquals(job.exitValue(), 0, "exit code of " + String.join(" ", command) + "\n" + text);
            return text;
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static String read(Path output) throws IOException {
        return new String(Files.readAllBytes(output), StandardCharsets.UTF_8);
    }
}
