package ibis.benchmarks.ipl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import org.testng.SkipException;
import org.testng.annotations.Test;

/**
 * Reading ucx_perftest's output, from outputs of UCX 1.13.1's ucx_perftest captured on this
 * project's machine (client side, {@code UCX_NET_DEVICES=lo}): {@code perftest-tag_lat-shm.txt} is
 * {@code ucx_perftest 127.0.0.1 -p P -t tag_lat -s 1 -n 100000 -w 10000}, {@code perftest-tag_bw-shm.txt}
 * the same with {@code -t tag_bw -s 102400 -n 20000 -w 2000}, and {@code perftest-tag_bw-tcp-loginfo.txt}
 * that one with {@code UCX_TLS=tcp UCX_LOG_LEVEL=info}, whose log lines come between the table's head
 * and its {@code Final:} line; {@code perftest-tag_lat-shm-busy.txt} is {@code -t tag_lat -s 1 -n 10000
 * -w 1000} on the machine busy with other builds: a run slowed part-way, so with interim report
 * lines, and with "average" columns (since the last report) unlike the "overall" ones (the whole run).
 */
public class UcxPerftestTest {

    private static List<String> resource(String name) throws IOException {
        try (InputStream in = UcxPerftestTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("test resource " + name + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    @Test
    public void theLatencyFiguresAreTheFinalLinesOneWayMicroseconds() throws IOException {
        // Final:                100000      0.106     0.103     0.103        9.25       9.25     9694114     9694114
        UcxPerftest.Result r = UcxPerftest.parse(resource("perftest-tag_lat-shm.txt"));
        assertEquals(r.iterations(), 100_000);
        assertEquals(r.medianMicros(), 0.106, 1e-9);
        assertEquals(r.averageMicros(), 0.103, 1e-9);
        assertEquals(r.mebibytesPerSecond(), 9.25, 1e-9);
        assertEquals(r.messagesPerSecond(), 9_694_114, 1e-3);
    }

    @Test
    public void theBandwidthIsReadAsMebibytesAndConvertedToTheSuitesMegabytes() throws IOException {
        // Final:                 20000      7.892     7.753     7.753    12596.58   12596.58      128989      128989
        UcxPerftest.Result r = UcxPerftest.parse(resource("perftest-tag_bw-shm.txt"));
        assertEquals(r.iterations(), 20_000);
        assertEquals(r.averageMicros(), 7.753, 1e-9);
        assertEquals(r.mebibytesPerSecond(), 12596.58, 1e-9);
        assertEquals(r.megabytesPerSecond(), 12596.58 * 1_048_576 / 1_000_000, 1e-6);
        // The columns agree with each other: 102,400 bytes per 7.753 µs is 12,596 MiB/s.
        assertEquals(102_400 / (r.averageMicros() * 1e-6) / (1 << 20), r.mebibytesPerSecond(), 1.0);
    }

    @Test
    public void logLinesBetweenTheTableAndItsFinalLineAreIgnored() throws IOException {
        UcxPerftest.Result r = UcxPerftest.parse(resource("perftest-tag_bw-tcp-loginfo.txt"));
        assertEquals(r.iterations(), 20_000);
        assertEquals(r.averageMicros(), 22.553, 1e-9);
        assertEquals(r.mebibytesPerSecond(), 4330.01, 1e-9);
    }

    @Test
    public void theWholeRunsOverallColumnsAreTakenNotTheInterimReportsNorTheLastStretch() throws IOException {
        // [thread 0]               105   4021.911  5153.019  5153.019        0.00       0.00         194         194
        // Final:                 10000      0.096    20.274   124.535        0.05       0.01       49325        8030
        UcxPerftest.Result r = UcxPerftest.parse(resource("perftest-tag_lat-shm-busy.txt"));
        assertEquals(r.iterations(), 10_000);
        assertEquals(r.medianMicros(), 0.096, 1e-9);
        assertEquals(r.averageMicros(), 124.535, 1e-9);
        assertEquals(r.mebibytesPerSecond(), 0.01, 1e-9);
        assertEquals(r.messagesPerSecond(), 8030, 1e-9);
    }

    @Test
    public void anOutputWithoutAFinalLineIsAnErrorThatShowsTheOutput() {
        IOException e = expectThrows(IOException.class, () -> UcxPerftest.parse(List.of(
                "[1795702498.204448] [vm:23520:0]        perftest.c:405  UCX  ERROR client failed. connect() failed:"
                        + " Connection refused")));
        assertTrue(e.getMessage().contains("Connection refused"), e.getMessage());
    }

    @Test
    public void aFinalLineWithTooFewColumnsIsAnError() {
        expectThrows(IOException.class, () -> UcxPerftest.parse(List.of("Final:     100   0.1   0.1")));
    }

    @Test
    public void aConfiguredExecutableThatDoesNotExistCountsAsNotInstalled() {
        String old = System.getProperty(UcxPerftest.EXECUTABLE_PROPERTY);
        System.setProperty(UcxPerftest.EXECUTABLE_PROPERTY, "/nonexistent/ucx_perftest");
        try {
            assertEquals(UcxPerftest.find(), Optional.empty());
        } finally {
            if (old == null) {
                System.clearProperty(UcxPerftest.EXECUTABLE_PROPERTY);
            } else {
                System.setProperty(UcxPerftest.EXECUTABLE_PROPERTY, old);
            }
        }
    }

    /** Runs the real program where it is installed: a server and a client, and their figures read back. */
    @Test(timeOut = 120_000)
    public void aRunOfTheInstalledProgramReportsTheIterationsAskedFor() throws Exception {
        UcxPerftest perftest = UcxPerftest.find().orElseThrow(() -> new SkipException(UcxPerftest.NAME
                + " is not installed"));
        for (UcxPerftest.Transport t : UcxPerftest.Transport.values()) {
            UcxPerftest.Result lat = perftest.run(UcxPerftest.Test.TAG_LAT, t, 2_000, 200);
            assertEquals(lat.iterations(), 2_000, t.name());
            assertTrue(lat.averageMicros() > 0, t.name());
        }
        SelfTimedPeer bw = perftest.peer(UcxPerftest.Test.TAG_BW, UcxPerftest.Transport.SHARED_MEMORY);
        assertTrue(bw.measure(1_000) > 0);
        assertTrue(bw.lastNanosPerIteration() > 0);
    }
}
