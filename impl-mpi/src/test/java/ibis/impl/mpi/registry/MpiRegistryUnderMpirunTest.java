package ibis.impl.mpi.registry;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import ibis.run.IbisRun;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.testng.annotations.Test;

/**
 * The registry over MPI under real {@code mpirun.openmpi} (loopback only): every rank of
 * {@link RegistryRankMain} sees the ranks join in rank order, the concurrent candidates agree on one
 * leader, sequence numbers are unique and increase, each rank gets the signal sent to it, all see the
 * termination, and rank 0 sees the others leave. Once started by hand with 3 ranks, once by
 * {@code ibis-run --np 2 --impl mpi} (the launcher with the registry over MPI and no server).
 */
public class MpiRegistryUnderMpirunTest {

    private static final long TIMEOUT_SECONDS = 90;
    private static final List<String> MEMBER_JVM = List.of("-Xmx128m", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED");

    @Test(timeOut = 120_000)
    public void threeRanksUnderMpirunAgreeOnJoinsLeaderSequenceSignalsTerminationAndLeave() throws Exception {
        checkRanks(runJob(3), 3);
    }

    /** Runs {@link RegistryRankMain} with {@code n} ranks under mpirun; the output of a job that exited with 0. */
    private static String runJob(int n, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("mpirun.openmpi", "--oversubscribe", "-np", Integer.toString(n),
                "--bind-to", "none", "--mca", "btl_tcp_if_include", "lo", "--mca", "oob_tcp_if_include", "lo",
                ProcessHandle.current().info().command().orElse("java")));
        command.addAll(MEMBER_JVM);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), RegistryRankMain.class.getName()));
        command.addAll(List.of(args));
        Path output = Files.createTempFile("mpi-registry", ".out");
        try {
            Process job = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                    .redirectInput(new File("/dev/null")).start();
            if (!job.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                job.descendants().forEach(ProcessHandle::destroyForcibly);
                job.destroyForcibly();
                job.waitFor(10, TimeUnit.SECONDS);
                fail("the job did not finish within " + TIMEOUT_SECONDS + " s:\n" + read(output));
            }
            String text = read(output);
            assertEquals(job.exitValue(), 0, text);
            return text;
        } finally {
            Files.deleteIfExists(output);
        }
    }

    @Test(timeOut = 120_000)
    public void rankZeroThatEndsFirstKeepsCoordinatingUntilTheOthersLeft() throws Exception {
        String text = runJob(3, "rank0-ends-first");
        assertTrue(text.contains("rank 0 ends\n"), text);
        Set<String> sequences = new HashSet<>();
        for (int r = 1; r < 3; r++) {
            String a = group(text, "rank " + r + " after rank 0 ended: sequence (\\d+),(\\d+) leader (\\d+)\n", 1);
            String b = group(text, "rank " + r + " after rank 0 ended: sequence (\\d+),(\\d+) leader (\\d+)\n", 2);
            assertTrue(Long.parseLong(b) > Long.parseLong(a), text);
            assertTrue(sequences.add(a) && sequences.add(b), "unique\n" + text);
            assertTrue(text.contains("rank " + r + " OK\n"), text);
        }
    }

    @Test(timeOut = 120_000)
    public void ibisRunStartsAnMpiPoolWhoseRegistryNeedsNoServer() {
        List<String> args = new ArrayList<>(List.of("--np", "2", "--impl", "mpi"));
        for (String option : MEMBER_JVM) {
            args.addAll(List.of("--jvm-arg", option));
        }
        args.addAll(List.of("-cp", System.getProperty("java.class.path"), RegistryRankMain.class.getName()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = IbisRun.run(args.toArray(new String[0]), System.getenv(), o, e);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(status, 0, text + err.toString(StandardCharsets.UTF_8));
        for (String line : text.split("\n")) {
            assertTrue(line.matches("\\[([01])\\] rank \\1 .*"), "every line whole, with its rank in front: " + line);
        }
        checkRanks(text.replaceAll("(?m)^\\[[01]\\] ", ""), 2);
    }

    /** Checks the lines of {@link RegistryRankMain} of every rank of a job of {@code n}. */
    private static void checkRanks(String text, int n) {
        String ranks = String.join(",", java.util.stream.IntStream.range(0, n).mapToObj(Integer::toString).toList());
        String leader = null;
        String terminator = null;
        Set<Long> numbers = new HashSet<>();
        for (int r = 0; r < n; r++) {
            assertTrue(text.contains("rank " + r + " joined " + ranks + " closed\n"), "rank " + r + " joins\n" + text);
            String l = group(text, "rank " + r + " leader (\\d+) result (\\d+)\n", 1);
            assertEquals(group(text, "rank " + r + " leader (\\d+) result (\\d+)\n", 2), l, text);
            if (leader == null) {
                leader = l;
            }
            assertEquals(l, leader, "every candidate got the same leader\n" + text);
            long previous = -1;
            for (String v : group(text, "rank " + r + " sequence ([0-9,]+)\n", 1).split(",")) {
                long value = Long.parseLong(v);
                assertTrue(value > previous, "increasing for rank " + r + "\n" + text);
                assertTrue(numbers.add(value), "unique: " + value + "\n" + text);
                previous = value;
            }
            int from = (r + n - 1) % n;
            assertTrue(text.contains("rank " + r + " signal ping-" + from + " from " + from + "\n"),
                    "rank " + r + " got its signal\n" + text);
            String t = group(text, "rank " + r + " terminated by (\\d+)\n", 1);
            if (terminator == null) {
                terminator = t;
            }
            assertEquals(t, terminator, text);
            assertTrue(text.contains("rank " + r + " OK\n"), "rank " + r + " finished\n" + text);
        }
        assertEquals(terminator, leader, "the leader terminated the pool\n" + text);
        assertEquals(numbers.size(), 20 * n);
        String others = String.join(",", java.util.stream.IntStream.range(1, n).mapToObj(Integer::toString).toList());
        assertTrue(text.contains("rank 0 left " + others + "\n"), "rank 0 saw the others leave\n" + text);
    }

    private static String group(String text, String regex, int group) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), "a line matching " + regex + " in\n" + text);
        return m.group(group);
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
